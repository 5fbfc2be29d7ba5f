(CNN) -- More than 30,000 runners took part in the Velmar city marathon, organizers said.

The winner finished the 42-kilometer course in just over two hours.

Organizers said the race raised $2 million for local hospitals.

It was the third year in a row that the race sold out.

@highlight

More than 30,000 runners took part in the marathon

@highlight

The race raised $2 million for local hospitals

@highlight

The race was held yesterday in sunny weather
