# Multi-process tests of the MPIX hybrid collectives (issue 11, hybrid/). Included from tests/mpi/CMakeLists.txt.
# One node (1 to 8 ranks), 2 simulated nodes with nodes in rank order (slot) and interleaved (node), 4 nodes.
strata_mpi_test_programs(hybrid_tests hybrid_coll)
add_dependencies(mpi_tests hybrid_tests)

foreach(np 1 2 3 4 8)
  strata_mpi_test(hybrid_coll NP ${np})
endforeach()
strata_mpi_test(hybrid_coll NP 6 NODES slot)
strata_mpi_test(hybrid_coll NP 5 NODES node)
strata_scenario_test(hybrid_coll np8.nodes4 NP 8 LAUNCH --nodes 4 --map-by slot)
