# Multi-process tests of issue 4: what ranks see of their hardware (MPIX_Get_hw_placement) under each mpiexec
# topology and binding option. Included from tests/mpi/CMakeLists.txt. Expectations are written by hand from each
# scenario's machine description; "{expr}" is computed per rank (see topo_view.c).

strata_mpi_test_programs(topo_tests topo_view)
add_dependencies(mpi_tests topo_tests)

# Each test: strata_scenario_test(topo_view <name> NP <n> LAUNCH <mpiexec options>... ARGS <spec for every rank |
# one spec per rank>...) (tests/mpi/CMakeLists.txt).

# The hierarchical-model paper's node (section 5): 2 packages, each with its NUMA node and L3, an L2 per pair of
# cores, 8 cores of one PU. PUs 0-3 are package 0.
set(HIER_NODE "synthetic:pack:2 [numa] l3:1 l2:2 l1:2 core:1 pu:1")

strata_scenario_test(topo_view hier_node.bind_core NP 8 LAUNCH --topology ${HIER_NODE} --bind-to core ARGS
  "node=0 binding=simulated cpuset={r} hwloc://Machine=0/1 hwloc://Package={r/4}/2 hwloc://NUMANode={r/4}/2 hwloc://L3Cache={r/4}/2 hwloc://L2Cache={r/2}/4 hwloc://L1Cache={r}/8 hwloc://Core={r}/8 hwloc://PU={r}/8")

# Its Figure 2: ranks 0,1 on cores 0,1; ranks 2,3 on L2 #1 (cores 2-3); ranks 4..7 on NUMA node 1 (cores 4-7).
set(FIG2_LOW "hwloc://Machine=0/1 hwloc://Package=0/2 hwloc://NUMANode=0/2 hwloc://L3Cache=0/2")
set(FIG2_HIGH "binding=simulated cpuset=4-7 hwloc://Package=1/2 hwloc://NUMANode=1/2 hwloc://L3Cache=1/2 hwloc://L2Cache=none/4 hwloc://L1Cache=none/8 hwloc://Core=none/8")
strata_scenario_test(topo_view hier_node.figure2 NP 8 LAUNCH --topology ${HIER_NODE} --cpu-list "0;1;2-3;2-3;4-7;4-7;4-7;4-7" ARGS
  "cpuset=0 ${FIG2_LOW} hwloc://L2Cache=0/4 hwloc://L1Cache=0/8 hwloc://Core=0/8"
  "cpuset=1 ${FIG2_LOW} hwloc://L2Cache=0/4 hwloc://L1Cache=1/8 hwloc://Core=1/8"
  "cpuset=2-3 ${FIG2_LOW} hwloc://L2Cache=1/4 hwloc://L1Cache=none/8 hwloc://Core=none/8"
  "cpuset=2-3 ${FIG2_LOW} hwloc://L2Cache=1/4 hwloc://L1Cache=none/8 hwloc://Core=none/8"
  "${FIG2_HIGH}" "${FIG2_HIGH}" "${FIG2_HIGH}" "${FIG2_HIGH}")

# Two simulated nodes, ranks round robin (rank r on node r%2, local rank r/2), each bound to an L2 cache.
strata_scenario_test(topo_view hier_node.nodes2.bind_l2 NP 4 LAUNCH --topology ${HIER_NODE} --nodes 2 --map-by node --bind-to l2
  ARGS "node={r%2} cpuset={r/2*2}-{r/2*2+1} hwloc://Package=0/2 hwloc://L2Cache={r/2}/4 hwloc://L1Cache=none/8 hwloc://Core=none/8")

# The persistent-collectives paper's Figure 3: 3 nodes of 2 NUMA nodes x 3 cores, 18 ranks in blocks of 6 per node,
# one per core; the machine has no L3 (absent: no key).
strata_scenario_test(topo_view figure3.bind_core NP 18 LAUNCH --topology "synthetic:pack:2 [numa] core:3 pu:1" --nodes 3 --bind-to core
  ARGS "node={r/6} cpuset={r%6} hwloc://NUMANode={r%6/3}/2 hwloc://Core={r%6}/6 hwloc://L3Cache= hwloc://L2Cache=")

# Unbound on a simulated two-package machine: the binding is the whole machine, confined to the Node and to the
# single NUMA node hwloc gives a machine described without one, nowhere else.
strata_scenario_test(topo_view two_packages.unbound NP 2 LAUNCH --topology "synthetic:pack:2 core:2 pu:1" ARGS
  "binding=none cpuset=0-3 hwloc://Machine=0/1 hwloc://NUMANode=0/1 hwloc://Package=none/2 hwloc://Core=none/4 hwloc://L3Cache=")

# The real machine: unbound ranks span it; --bind-to core binds rank r to the machine's core r (any machine with at
# least 2 cores; the PU numbers and counts are the machine's own, so only the beginning is fixed).
strata_scenario_test(topo_view real.unbound NP 2 ARGS "binding=none hwloc://Machine=0/1")
strata_scenario_test(topo_view real.bind_core NP 2 LAUNCH --bind-to core ARGS "binding=real hwloc://Machine=0/1 hwloc://Core={r}/*")

# An XML machine (tests/unit/topo/data: 2 packages, each with its NUMA node and L3, an L2 per pair of cores, 4 cores
# of 2 PUs each, no L1): rank r bound to core r, PUs 2r and 2r+1.
strata_scenario_test(topo_view xml.bind_core NP 4 LAUNCH --topology xml:${CMAKE_SOURCE_DIR}/tests/unit/topo/data/two_packages_smt.xml
  --bind-to core ARGS
  "binding=simulated cpuset={r*2}-{r*2+1} hwloc://Package={r/4}/2 hwloc://L2Cache={r/2}/4 hwloc://Core={r}/8 hwloc://PU=none/16 hwloc://L1Cache=")
