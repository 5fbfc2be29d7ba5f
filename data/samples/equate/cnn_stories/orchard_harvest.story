(CNN) -- Farmers in the Delra valley say this season's pear harvest is the largest anyone can remember.

Bob Tamsin picked 14 pears from his smallest tree and more than 300 on his largest.

She said the cooperative sold 1,200 crates of pears to buyers in the capital.

The cooperative employs about 85 seasonal workers, most of them students.

Prices fell by 12% as the markets filled with fruit, traders said.

@highlight

The cooperative sold 1,200 crates of pears to buyers in the capital

@highlight

Pear prices fell by 12% as markets filled with fruit

@highlight

The harvest began in September 2014
