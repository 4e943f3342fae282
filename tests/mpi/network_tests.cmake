# Multi-process tests of issue 12: the network levels above the node (mpiexec --network; topo/network.hpp), as
# HW_GUIDED / HW_UNGUIDED values, in MPI_Get_hw_resource_info, the MPIX hierarchy calls and the hierarchical
# collectives. Included from tests/mpi/CMakeLists.txt. network_levels computes every expectation from the layout
# it is given (see its header); network_hsplit_sizes checks the paper's NTW24E5 hierarchy.

strata_mpi_test_programs(network_tests network_levels network_hsplit_sizes)
add_dependencies(mpi_tests network_tests)

# 16 ranks on 8 nodes of 2 packages, one rank per package: the walk goes Rack, Switch, Node, Package.
strata_scenario_test(network_levels rack2_switch2 NP 16
  LAUNCH --nodes 8 --network "rack:2 switch:2" --topology "synthetic:pack:2 core:1 pu:1" --bind-to core
  ARGS 8 2 4 hwloc://Package)
# Switches only, one unbound rank per node on this machine; then racks only, two ranks per node.
strata_scenario_test(network_levels switch3 NP 6 LAUNCH --nodes 6 --network "Switch:3" ARGS 6 0 3)
strata_scenario_test(network_levels rack2 NP 8 LAUNCH --nodes 4 --network "RACK:2" ARGS 4 2 0)
# One rack holding both switches: Rack is not a cut of WORLD, so the walk starts at Switch.
strata_scenario_test(network_levels rack1_switch2 NP 4 LAUNCH --nodes 4 --network "rack:1 switch:2" ARGS 4 1 2)
# No --network: both levels absent (guided splits give MPI_COMM_NULL, other nodes are "Cluster").
strata_scenario_test(network_levels none NP 4 LAUNCH --nodes 2 ARGS 2 0 0)

# The hierarchical-model paper's NTW24E5 (section 7.4, Table 1): 24 nodes on 4 switches of 12, 6, 4 and 2 nodes;
# each node 2 sockets (one L3 each), 2 NUMA nodes of 6 cores per socket, an L2 per core. Its hierarchy of roots
# communicators, "4; 12, 6, 4 and 2; 2; 2; 6" = 1 of 4 (switches), 4 of 12, 6, 4, 2 (the nodes of each switch), 24
# of 2 (sockets), 48 of 2 (NUMA nodes), 96 of 6 (L2 caches), needs the paper's 576 processes, one per core: about
# 40 GB of processes, more than this machine has (the kernel kills them), so all five levels are checked exactly
# by the unit test HwSplitNetwork.Ntw24e5RootsCommunicatorSizes (the same plan_split every member runs). Here the
# same machine and network with one process per socket (48): the first three levels, "4; 12, 6, 4 and 2; 2".
set(NTW24E5_NODE "synthetic:pack:2 l3:1 group:2 [numa] l2:6 l1:1 core:1 pu:1")
strata_scenario_test(network_hsplit_sizes ntw24e5_sockets NP 48
  LAUNCH --nodes 24 --network "switch:12,6,4,2" --topology "${NTW24E5_NODE}" --bind-to package
  ARGS strata://Switch=4 hwloc://Machine=12,6,4,2 hwloc://Package=24x2)
