"""The room demo's defaults, in a module light to import: the command line names them in its help
before the verb imports the room (`simulators.room_demo`, which takes them as its own defaults).

FAULT_RATE (0.1): a dealing fault in one hand in ten per table, a few a minute in a room of three
tables; DASHBOARD_PORT (8092): the documented default (README), `--dashboard 0`: none.
"""

DASHBOARD_PORT = 8092
FAULT_RATE = 0.1
