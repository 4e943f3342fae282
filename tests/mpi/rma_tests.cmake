# Multi-process tests of windows (rma/): shared-memory windows (issue 11): creation on 1..8 ranks with every size
# pattern and layout, loads and stores through each synchronisation style, locks, bad input, error handlers, windows
# per simulated node, segment clean-up, MPI_Alloc_mem; one-sided communication on every flavor (rma_ops,
# rma_request_ops, rma_bad_input), also across simulated nodes and with the rendezvous through the rings; accesses
# across side-by-side regions of a dynamic window (rma_dynamic_regions); operations both ways at once between
# partners (rma_both_ways); MAXLOC and MINLOC on the padded pair types (rma_pair_types); dozens of windows in
# lock_all at once, freed and created between rounds (rma_many_windows); a get's data as it was in the epoch when the
# target writes right after its end (rma_get_epoch_end). Included from tests/mpi/CMakeLists.txt, so strata_mpi_test() and strata_mpi_failure_test() are
# available; names follow mpi.<program>.np<N>[.nodes2.<map-by>][.<variant>].
# tests/integration/win_cleanup.sh checks /dev/shm after whole jobs (freed windows, finalize, a killed rank).

set(STRATA_RMA_TEST_PROGRAMS
    win_allocate
    win_lock
    win_bad_input
    win_errhandler
    win_nodes
    win_cleanup
    alloc_mem
    rma_ops
    rma_request_ops
    rma_bad_input
    rma_one_way
    rma_get_epoch_end
    rma_dynamic_regions
    rma_both_ways
    rma_pair_types
    rma_many_windows)

strata_mpi_test_programs(rma_tests ${STRATA_RMA_TEST_PROGRAMS})
add_dependencies(mpi_tests rma_tests)

foreach(np 1 2 3 4 8)
  strata_mpi_test(win_allocate NP ${np})
endforeach()
strata_mpi_test(win_allocate NP 4 NOSHMRINGS)
add_test(NAME mpi.win_allocate.singleton COMMAND $<TARGET_FILE:win_allocate>)
set_tests_properties(mpi.win_allocate.singleton PROPERTIES LABELS mpi TIMEOUT 180)

foreach(np 1 2 3 4 8)
  strata_mpi_test(win_lock NP ${np})
endforeach()

foreach(program win_bad_input win_errhandler)
  foreach(np 1 2 4)
    strata_mpi_test(${program} NP ${np})
  endforeach()
endforeach()
strata_mpi_failure_test(mpi.win_errhandler.np2.fatal "MPI_Win_lock: invalid lock_type" $<TARGET_FILE:mpiexec> -n 2
                        --timeout ${STRATA_MPI_TEST_TIMEOUT} $<TARGET_FILE:win_errhandler> fatal)

# One window per simulated node; MPI_COMM_WORLD spans both, so it must fail on every rank.
strata_mpi_test(win_nodes NP 2 NODES slot)
strata_mpi_test(win_nodes NP 4 NODES slot)
strata_mpi_test(win_nodes NP 5 NODES node)
strata_mpi_test(win_nodes NP 8 NODES node)

foreach(mode free nofree)
  strata_mpi_test(win_cleanup NP 3 SUFFIX ${mode} ARGS ${mode})
endforeach()

foreach(np 1 2 3)
  strata_mpi_test(alloc_mem NP ${np})
endforeach()

# General one-sided communication: every flavor x synchronisation mode, request-based calls, bad input.
foreach(program rma_ops rma_request_ops rma_bad_input rma_one_way)
  foreach(np 1 2 3 4 8)
    strata_mpi_test(${program} NP ${np})
  endforeach()
  strata_mpi_test(${program} NP 4 NODES node)
  strata_mpi_test(${program} NP 5 NODES node)
endforeach()
strata_mpi_test(rma_ops NP 4 NOCMA)
strata_mpi_test(rma_ops NP 4 NOSHMRINGS)

foreach(program rma_dynamic_regions rma_pair_types)
  foreach(np 1 2 3)
    strata_mpi_test(${program} NP ${np})
  endforeach()
  strata_mpi_test(${program} NP 4 NODES node)
endforeach()

# Operations both ways at once between partners: one's answers and the other's data cross on one window.
foreach(np 2 3 4)
  strata_mpi_test(rma_both_ways NP ${np})
endforeach()
strata_mpi_test(rma_both_ways NP 4 NODES node)
strata_mpi_test(rma_both_ways NP 4 NOCMA)
strata_mpi_test(rma_both_ways NP 2 P2PPIECES)

# The target writes as soon as its side of the epoch ends: across nodes and, without cross-memory attach, on one.
strata_mpi_test(rma_get_epoch_end NP 2 NODES node)
strata_mpi_test(rma_get_epoch_end NP 5 NODES node)
strata_mpi_test(rma_get_epoch_end NP 3 NOCMA)

# Dozens of windows at once (one poller serves them all, visiting those told of an arrival).
foreach(np 1 2 3 4)
  strata_mpi_test(rma_many_windows NP ${np})
endforeach()
strata_mpi_test(rma_many_windows NP 4 NODES node)
