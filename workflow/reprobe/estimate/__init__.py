"""`reprobe estimate`: what a configuration's whole run costs on a machine, before it starts."""
