"""The conformance runner's parts (the command is ../run):
machine.py   a simulated node's level instances (from hwloc) and cpu list syntax
scenario.py  a scenario's checks and per-rank cpusets
launch.py    building the programs and launching them with Strata's, MPICH's or Open MPI's launcher
results.py   RESULT lines -> cells -> results.md / results.json
compare.py   several results.json side by side (RESULTS.md)
"""
