"""`reprobe estimate`: what a configuration's whole run costs on a given machine, before it starts."""
