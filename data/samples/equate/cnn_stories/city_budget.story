LORMOND (CNN) -- The city council of Lormond approved a budget of $4.5 billion after a long debate.

The budget sets aside $300 million for new schools and $120 million for road repairs.

Council member Adel Okoro voted against the plan.

They said the plan would add 2,000 jobs in construction.

Mayor Rina Sallow called the vote a victory for the city.

@highlight

The council approved a $4.5 billion budget

@highlight

The plan is expected to add 2,000 construction jobs

@highlight

The mayor called the vote a victory
