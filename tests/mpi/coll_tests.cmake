# Multi-process tests of the collectives (MPI-4.0 chapter 6): every blocking and nonblocking collective against
# results the programs compute themselves, and bad input. Included from tests/mpi/CMakeLists.txt, so
# strata_mpi_test() is available; test names follow mpi.<program>.np<N>[.nodes2.<map-by>][.<variant>].
#
# Every program is also a plain MPI-4.0 program: it builds against another MPI (mpicc.mpich) to check the tests
# themselves; checks that MPICH 4.0.2 is known to fail are marked in the sources and compiled only for Strata.
# coll_nonblocking.c includes coll_all.c (its cases and checks).

set(STRATA_COLL_TEST_PROGRAMS
    coll_all
    coll_nonblocking
    coll_bad_input
    coll_check
    coll_repeat
    coll_persistent
    coll_persistent_alloc
    coll_query
    coll_node_memory
    coll_intercomm
    coll_neighbourhood
    coll_empty_arrays
    coll_allgather_large)

strata_mpi_test_programs(coll_tests ${STRATA_COLL_TEST_PROGRAMS})
add_dependencies(mpi_tests coll_tests)

# ---- Neighbourhood collectives on a grid and a ring -------------------------------------------------------------
foreach(np 1 2 3 4 6 8)
  strata_mpi_test(coll_neighbourhood NP ${np})
endforeach()
strata_mpi_test(coll_neighbourhood NP 4 NODES node)

# ---- NULL arrays of no entries (degree-0 sides, a reduce-scatter rank receiving none) ---------------------------
foreach(np 2 3 5)
  strata_mpi_test(coll_empty_arrays NP ${np})
endforeach()
strata_mpi_test(coll_empty_arrays NP 4 NODES node)

# ---- On an intercommunicator: evens and odds; odd rank counts make the groups unequal ---------------------------
foreach(np 2 3 4 5 8)
  strata_mpi_test(coll_intercomm NP ${np})
endforeach()
strata_mpi_test(coll_intercomm NP 5 NODES node)

# ---- Every blocking collective ---------------------------------------------------------------------------------
# Sizes 1, primes and powers of two; on two simulated nodes with slot mapping (blocks of ranks per node) and
# node mapping (neighbours on different nodes).
foreach(np 1 2 3 4 5 8)
  strata_mpi_test(coll_all NP ${np})
endforeach()
strata_mpi_test(coll_all NP 4 NODES slot)
strata_mpi_test(coll_all NP 4 NODES node)

# The same with the algorithms forced by name (coll/selection.hpp: STRATA_COLL_<OPERATION>=<name>, all operations of a
# family at once), on 5 ranks: not a power of two, so the algorithms' uneven steps run. The variables reach the ranks
# through mpiexec's -x, as NOSHMRINGS does.
function(strata_coll_forced_test program np suffix)
  set(name mpi.${program}.np${np}.${suffix})
  set(exports "")
  foreach(assignment IN LISTS ARGN)
    list(APPEND exports -x STRATA_COLL_${assignment})
  endforeach()
  add_test(NAME ${name} COMMAND $<TARGET_FILE:mpiexec> -n ${np} ${exports} --timeout ${STRATA_MPI_TEST_TIMEOUT}
                                $<TARGET_FILE:${program}>)
  set_tests_properties(${name} PROPERTIES LABELS mpi TIMEOUT 180 PROCESSORS ${np})
endfunction()

strata_coll_forced_test(coll_all 5 linear
                        BCAST=linear GATHER=linear SCATTER=linear ALLGATHER=linear ALLTOALL=linear REDUCE=linear
                        ALLREDUCE=reduce_bcast BARRIER=linear)
strata_coll_forced_test(coll_all 5 trees
                        BCAST=binomial GATHER=binomial SCATTER=binomial REDUCE=binomial ALLREDUCE=recursive_doubling
                        ALLGATHER=bruck ALLTOALL=bruck BARRIER=dissemination)
strata_coll_forced_test(coll_all 5 rings
                        BCAST=scatter_allgather ALLGATHER=ring ALLREDUCE=ring ALLTOALL=pairwise REDUCE=pipeline
                        REDUCE_SCATTER_BLOCK=ring)
strata_coll_forced_test(coll_all 5 pipelines
                        BCAST=pipeline ALLREDUCE=segmented_ring REDUCE=reduce_scatter_gather REDUCE_SCATTER=pairwise
                        REDUCE_SCATTER_BLOCK=pairwise SCAN=linear EXSCAN=linear ALLTOALLV=linear ALLGATHERV=linear)
# A power of two: recursive doubling allgather and the halving algorithms without their fold.
strata_coll_forced_test(coll_all 4 halving
                        BCAST=knomial ALLREDUCE=rabenseifner ALLGATHER=recursive_doubling REDUCE_SCATTER=reduce_scatterv
                        REDUCE_SCATTER_BLOCK=reduce_scatterv GATHER=binomial SCATTER=binomial)

# ---- Nonblocking collectives: alone, many outstanding with point-to-point traffic, overlapping blocking ones ---------
foreach(np 2 4 5)
  strata_mpi_test(coll_nonblocking NP ${np})
endforeach()
strata_mpi_test(coll_nonblocking NP 4 NODES node)

# ---- Persistent collectives: restarts with new data, per-rank start orders, request states, info ---------------
foreach(np 1 2 3 4 5 8)
  strata_mpi_test(coll_persistent NP ${np})
endforeach()
strata_mpi_test(coll_persistent NP 4 NODES node)
# MPI_Start allocates nothing (Strata's claim; the program replaces malloc for the whole process).
foreach(np 1 2 4)
  strata_mpi_test(coll_persistent_alloc NP ${np})
endforeach()
# The node's shared-memory bcast, whose warm-up starts may all finish inside MPI_Start (so that the first one left
# pending comes while allocations are counted).
strata_coll_forced_test(coll_persistent_alloc 2 shared_memory BCAST=shared_memory)
strata_coll_forced_test(coll_persistent_alloc 4 shared_memory BCAST=shared_memory)

# ---- Equal calls repeated (Strata restarts the collective built for the first): current contents, replaced handles
foreach(np 1 3 4)
  strata_mpi_test(coll_repeat NP ${np})
endforeach()

# ---- Bad input -------------------------------------------------------------------------------------------------
strata_mpi_test(coll_bad_input NP 1)
strata_mpi_test(coll_bad_input NP 3)

# ---- STRATA_CHECK_COLL: mismatched calls fail on every rank (coll_check, Strata only); every collective of coll_all
# and coll_nonblocking passes the check (no false mismatch: in-place, v and w variants, derived types).
function(strata_coll_checked_test program np)
  set(name mpi.${program}.np${np}.checked)
  add_test(NAME ${name} COMMAND $<TARGET_FILE:mpiexec> -n ${np} -x STRATA_CHECK_COLL=1
                                --timeout ${STRATA_MPI_TEST_TIMEOUT} $<TARGET_FILE:${program}>)
  set_tests_properties(${name} PROPERTIES LABELS mpi TIMEOUT 180 PROCESSORS ${np})
endfunction()
foreach(np 2 3 5)
  strata_coll_checked_test(coll_check ${np})
endforeach()
strata_coll_checked_test(coll_all 5)
strata_coll_checked_test(coll_nonblocking 4)

# ---- Topology-aware collectives (coll/algorithms/hierarchical.cpp, distance_aware.cpp) on simulated machines -------
# Across nodes the cost model chooses among all algorithms by itself; on one node they are forced. The machine
# has packages, L3 caches and cores, so the hierarchy has up to four levels; --cpu-list binds ranks out of order
# (and rank 4 to a whole package, so that it is a part of its own below the package), so the split and shuffled
# communicators of the programs meet non-contiguous parts.
set(COLL_NODE "synthetic:pack:2 l3:2 core:2 pu:1")
set(COLL_HIERARCHICAL BCAST=hierarchical GATHER=hierarchical SCATTER=hierarchical ALLGATHER=hierarchical
                      REDUCE=hierarchical ALLREDUCE=hierarchical BARRIER=hierarchical)
set(COLL_SHUFFLED --topology ${COLL_NODE} --cpu-list "6\;1\;3\;0\;4-7\;2\;7")
foreach(program coll_all coll_nonblocking coll_persistent)
  strata_scenario_test(${program} np7.nodes3.hierarchical NP 7
                       LAUNCH --topology ${COLL_NODE} --nodes 3 --map-by node --bind-to core)
  list(TRANSFORM COLL_HIERARCHICAL PREPEND "-x;STRATA_COLL_" OUTPUT_VARIABLE forced)
  strata_scenario_test(${program} np7.shuffled.hierarchical NP 7 LAUNCH ${COLL_SHUFFLED} ${forced})
endforeach()
# The multi-leader allreduce and the multi-lane bcast forced on three nodes of 3, 2 and 2 ranks scattered over them
# (--map-by node; one rank of the first node carries no slice), the allreduce on one shuffled node (a reduce-scatter
# and an allgather), and the bcast on four nodes of 2 in block order (the root's node sends to two nodes, one by each
# of its ranks).
foreach(program coll_all coll_nonblocking coll_persistent)
  strata_scenario_test(${program} np7.nodes3.multi_leader_lane NP 7
                       LAUNCH --topology ${COLL_NODE} --nodes 3 --map-by node --bind-to core
                              -x STRATA_COLL_ALLREDUCE=multi_leader -x STRATA_COLL_BCAST=multi_lane)
endforeach()
strata_scenario_test(coll_all np7.shuffled.multi_leader NP 7
                     LAUNCH ${COLL_SHUFFLED} -x STRATA_COLL_ALLREDUCE=multi_leader)
strata_scenario_test(coll_all np8.nodes4.multi_lane NP 8
                     LAUNCH --topology ${COLL_NODE} --nodes 4 --bind-to core -x STRATA_COLL_BCAST=multi_lane)
# The distance-aware tree and ring forced on one shuffled node (the ring serves one node only), the distance-aware
# tree across nodes, and the automatic choice on four nodes whose ranks are bound unevenly (to a core, a package,
# three cores, one core shared by two ranks).
set(COLL_DISTANCE_AWARE -x STRATA_COLL_BCAST=distance_aware -x STRATA_COLL_ALLGATHER=distance_aware)
foreach(program coll_all coll_nonblocking coll_persistent)
  strata_scenario_test(${program} np7.shuffled.distance_aware NP 7 LAUNCH ${COLL_SHUFFLED} ${COLL_DISTANCE_AWARE})
endforeach()
strata_scenario_test(coll_all np7.nodes3.distance_aware NP 7
                     LAUNCH --topology ${COLL_NODE} --nodes 3 --map-by node --bind-to core
                            -x STRATA_COLL_BCAST=distance_aware)
# Large allgather blocks with ranks scattered over nodes (the cost model's choice, then hierarchical forced) and over
# one node's packages (forced): the leaders' block-by-block exchange.
strata_scenario_test(coll_allgather_large np7.nodes3 NP 7
                     LAUNCH --topology ${COLL_NODE} --nodes 3 --map-by node --bind-to core)
strata_scenario_test(coll_allgather_large np7.nodes3.hierarchical NP 7
                     LAUNCH --topology ${COLL_NODE} --nodes 3 --map-by node --bind-to core
                            -x STRATA_COLL_ALLGATHER=hierarchical)
strata_scenario_test(coll_allgather_large np7.shuffled.hierarchical NP 7
                     LAUNCH ${COLL_SHUFFLED} -x STRATA_COLL_ALLGATHER=hierarchical)
# On one node: the node's shared memory, each block in pieces of an area (in place, and MPI_INT or the strided type on
# both sides).
strata_mpi_test(coll_allgather_large NP 4)
set(COLL_UNEVEN --topology ${COLL_NODE} --nodes 4 --cpu-list "0\;4\;0-3\;6\;2\;2\;1\;5-7")
strata_scenario_test(coll_all np8.nodes4.nonuniform NP 8 LAUNCH ${COLL_UNEVEN})

# ---- The grouped transformation (coll/algorithms/grouped.cpp): G = 2 groups of 5 ranks, then 3 of uneven sizes ------
foreach(program coll_all coll_persistent)
  strata_coll_forced_test(${program} 5 grouped BCAST=grouped REDUCE=grouped ALLREDUCE=grouped)
endforeach()
strata_coll_forced_test(coll_all 8 grouped BCAST=grouped REDUCE=grouped ALLREDUCE=grouped)

# ---- Node shared memory (coll/node_segment.hpp): the shared-memory algorithms of eleven operations forced, blocking,
# nonblocking (several runs in the rotating slots at once) and persistent (slots of their own, then messages past
# them); the levels of the hierarchical runs above choose them inside their nodes.
foreach(program coll_all coll_nonblocking coll_persistent)
  strata_coll_forced_test(${program} 5 shared_memory BCAST=shared_memory REDUCE=shared_memory ALLREDUCE=shared_memory
                            ALLGATHER=shared_memory ALLTOALL=shared_memory BARRIER=shared_memory SCAN=shared_memory
                            EXSCAN=shared_memory ALLGATHERV=shared_memory REDUCE_SCATTER=shared_memory
                            REDUCE_SCATTER_BLOCK=shared_memory)
endforeach()
strata_coll_forced_test(coll_all 8 shared_memory BCAST=shared_memory REDUCE=shared_memory ALLREDUCE=shared_memory
                          ALLGATHER=shared_memory ALLTOALL=shared_memory BARRIER=shared_memory SCAN=shared_memory
                          EXSCAN=shared_memory ALLGATHERV=shared_memory REDUCE_SCATTER=shared_memory
                          REDUCE_SCATTER_BLOCK=shared_memory)
# The allreduce by slices: each rank reduces its own slice from the others' areas.
foreach(program coll_all coll_nonblocking coll_persistent)
  strata_coll_forced_test(${program} 5 shared_memory_slices ALLREDUCE=shared_memory_slices)
endforeach()
strata_coll_forced_test(coll_all 8 shared_memory_slices ALLREDUCE=shared_memory_slices)
# Past 8 ranks, where the rule table takes the node's memory for barriers, allgathers, and long reduces and allreduces
# (up to 16).
strata_coll_forced_test(coll_all 12 shared_memory BARRIER=shared_memory ALLGATHER=shared_memory REDUCE=shared_memory
                          ALLREDUCE=shared_memory_slices)
# Forced by info key, with derived types, overlapping runs, persistent slots, and the segments' removal; on two
# simulated nodes each node's ranks share their own.
foreach(np 2 3 8)
  strata_mpi_test(coll_node_memory NP ${np})
endforeach()
strata_mpi_test(coll_node_memory NP 6 NODES node)

# ---- What runs and why (MPIX_Comm_get_coll_info, MPIX_Request_get_coll_info; Strata only) ----------------------
strata_mpi_test(coll_query NP 3 ARGS rules)
strata_scenario_test(coll_query np6.nodes2 NP 6 LAUNCH --topology ${COLL_NODE} --nodes 2 --map-by node --bind-to core
                     ARGS model)
# The cost model's figures probed at MPI_Init (api/cost_probe.cpp): rank 0 meets a rank of each link class.
strata_scenario_test(coll_query np6.nodes2.probe NP 6
                     LAUNCH --topology ${COLL_NODE} --nodes 2 --map-by node --bind-to core -x STRATA_COST_PROBE=1
                     ARGS model)
# A cost file: the model takes its figures, its cores_per_node and its nodes_per_host (coll_query reads the file
# itself to check; 1 is not what mpiexec says for 2 nodes).
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/coll_query_costs.txt
     "same_cache 1.5 0.09\nsame_package 1.6 0.09\nsame_node 1.7 0.09\nother_node 8 0.25\ngamma 0.02\n"
     "cores_per_node 1.5\nnodes_per_host 1\n")
strata_scenario_test(coll_query np6.nodes2.cost_file NP 6
                     LAUNCH --topology ${COLL_NODE} --nodes 2 --map-by node --bind-to core
                            -x STRATA_COST_FILE=${CMAKE_CURRENT_BINARY_DIR}/coll_query_costs.txt
                     ARGS model)
# A value other than 0 or 1 is named in a warning, and the job goes on with the built-in figures (coll_query checks
# the source it reports).
set(bad_probe "$<TARGET_FILE:mpiexec>|-n|2|-x|STRATA_COST_PROBE=yes|$<TARGET_FILE:coll_query>|rules")
add_test(NAME mpi.coll_query.np2.probe_bad_value
         COMMAND ${CMAKE_COMMAND} "-DCMD=${bad_probe}" -DEXPECT_SUCCESS=1
                 "-DEXPECT_REGEX=strata: STRATA_COST_PROBE=yes is neither 0 nor 1. no probe"
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/run_expect_failure.cmake)
set_tests_properties(mpi.coll_query.np2.probe_bad_value PROPERTIES LABELS mpi TIMEOUT 180 PROCESSORS 2)
