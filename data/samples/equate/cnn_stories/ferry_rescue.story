PORTHAVEN, Marovia (CNN) -- A passenger ferry ran aground near the port of Porthaven, and rescue crews worked through the night to bring everyone ashore.

He said the ferry carried 212 passengers across the bay before it struck a sandbank.

The captain of the ferry, Ilse Varn, had sailed the route for 15 years, according to the operator.

Rescue crews pulled 40 people from the water on Tuesday, the coast guard said.

Local officials praised the crew for keeping the passengers calm.

@highlight

The ferry carried 212 passengers across the bay

@highlight

Rescue crews pulled 40 people from the water on Tuesday

@highlight

Officials praised the crew for keeping passengers calm
