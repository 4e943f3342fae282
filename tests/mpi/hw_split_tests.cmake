# Multi-process tests of issue 5: hardware splits (HW_GUIDED, HW_UNGUIDED, RESOURCE_GUIDED) and the MPIX hierarchy
# calls, on simulated machines and on this one. Included from tests/mpi/CMakeLists.txt. Every expected
# communicator is written by hand from the scenario's machine and bindings (the papers' worked examples quote
# their text); see hw_split.c for the step language.

strata_mpi_test_programs(hw_split_tests hw_split hw_split_bad_input)
add_dependencies(mpi_tests hw_split_tests)

# Each test: strata_scenario_test(hw_split <name> NP <n> LAUNCH <mpiexec options>... ARGS <hw_split arguments>...)
# (tests/mpi/CMakeLists.txt).

# Partitions of 0..total-1 in the step language: consecutive blocks ("0-3/4-7/..."), and per block of `outer`
# ranks the ranks at multiples of `stride` ("0,2/4,6/..." for outer 4, stride 2).
function(hw_blocks out total size)
  set(parts "")
  math(EXPR last_block "${total} - ${size}")
  foreach(first RANGE 0 ${last_block} ${size})
    math(EXPR last "${first} + ${size} - 1")
    if(size EQUAL 1)
      list(APPEND parts "${first}")
    else()
      list(APPEND parts "${first}-${last}")
    endif()
  endforeach()
  list(JOIN parts "/" joined)
  set(${out} "${joined}" PARENT_SCOPE)
endfunction()
function(hw_strided out total outer stride)
  set(parts "")
  math(EXPR last_block "${total} - ${outer}")
  foreach(first RANGE 0 ${last_block} ${outer})
    math(EXPR last "${first} + ${outer} - 1")
    set(members "")
    foreach(r RANGE ${first} ${last} ${stride})
      list(APPEND members ${r})
    endforeach()
    list(JOIN members "," joined_members)
    list(APPEND parts "${joined_members}")
  endforeach()
  list(JOIN parts "/" joined)
  set(${out} "${joined}" PARENT_SCOPE)
endfunction()

# The hierarchical-model paper's node (its Figure 1): 2 packages, each with its NUMA node and L3, an L2 per pair
# of cores, 8 cores. Package, NUMANode and L3Cache have the same instances, so the highest, Package, names them;
# L1Cache is per core, above Core, so it names the singletons.
set(HIER_NODE "synthetic:pack:2 [numa] l3:1 l2:2 l1:2 core:1 pu:1")

# Section 5.1: 32 ranks on 4 such nodes, rank 8k+i on core i of node k. Steps 1-5 of the paper.
hw_blocks(NODES 32 8)
hw_blocks(NUMAS 32 4)
hw_blocks(L2S 32 2)
hw_blocks(CORES 32 1)
set(PAPER51 --topology ${HIER_NODE} --nodes 4 --bind-to core)
set(STEPS51 "G=${NODES} L=hwloc://Machine" "G=${NUMAS} L=hwloc://Package" "G=${L2S} L=hwloc://L2Cache"
            "G=${CORES} L=hwloc://L1Cache" "G=")
strata_scenario_test(hw_split paper51.unguided NP 32 LAUNCH ${PAPER51} ARGS unguided ${STEPS51})
# With MPIX_Comm_hsplit_with_roots: {0,8,16,24}, then {0,4} per node, then {0,2},{4,6}, then the pairs, then NULL.
hw_strided(ROOTS2 32 8 4)
hw_strided(ROOTS3 32 4 2)
strata_scenario_test(hw_split paper51.hsplit NP 32 LAUNCH ${PAPER51} ARGS hsplit
  "G=${NODES} R=0,8,16,24 L=hwloc://Machine" "G=${NUMAS} R=${ROOTS2} L=hwloc://Package"
  "G=${L2S} R=${ROOTS3} L=hwloc://L2Cache" "G=${CORES} R=${L2S} L=hwloc://L1Cache" "G= R=")
strata_scenario_test(hw_split paper51.unguided.reverse_key NP 32 LAUNCH ${PAPER51} ARGS unguided --reverse-key ${STEPS51})

# Section 5.2: one node; ranks 0,1 on cores 0,1, ranks 2,3 on L2 #1, ranks 4..7 on NUMA node 1.
set(PAPER52 --topology ${HIER_NODE} --cpu-list "0\;1\;2-3\;2-3\;4-7\;4-7\;4-7\;4-7")
strata_scenario_test(hw_split paper52.unguided NP 8 LAUNCH ${PAPER52} ARGS unguided
  "G=0-3/4-7 L=hwloc://Package" "G=0-1/2-3 L=hwloc://L2Cache" "G=0/1 L=hwloc://L1Cache" "G=")
strata_scenario_test(hw_split paper52.hsplit NP 8 LAUNCH ${PAPER52} ARGS hsplit
  "G=0-3/4-7 R=0,4 L=hwloc://Package" "G=0-1/2-3 R=0,2 L=hwloc://L2Cache" "G=0/1 R=0,1 L=hwloc://L1Cache" "G= R=")
# HW_GUIDED for every level and spelling on that layout; MPI_INFO_NULL, a missing key, unknown values: NULL.
strata_scenario_test(hw_split paper52.guided NP 8 LAUNCH ${PAPER52} ARGS guided
  "V=hwloc://Machine G=0-7 L=hwloc://Machine" "V=Node G=0-7" "V=machine G=0-7" "V=mpi_shared_memory G=0-7 L=mpi_shared_memory"
  "V=hwloc://Package G=0-3/4-7 L=hwloc://Package" "V=Socket G=0-3/4-7" "V=hwloc://NUMANode G=0-3/4-7 L=hwloc://NUMANode"
  "V=NUMA G=0-3/4-7" "V=hwloc://L3Cache G=0-3/4-7" "V=l3 G=0-3/4-7" "V=hwloc://L2Cache G=0-1/2-3 L=hwloc://L2Cache"
  "V=L2 G=0-1/2-3" "V=hwloc://L1Cache G=0/1" "V=L1 G=0/1" "V=hwloc://Core G=0/1 L=hwloc://Core" "V=Core G=0/1"
  "V=hwloc://PU G=0/1" "V=- G=" "G=" "V=Board G=" "V=hwloc:// G=" "V=MPI_SHARED_MEMORY G=")
strata_scenario_test(hw_split paper52.guided.reverse_key NP 8 LAUNCH ${PAPER52} ARGS guided --reverse-key
  "V=Package G=0-3/4-7" "V=L2 G=0-1/2-3")
# RESOURCE_GUIDED (MPI-4.1): mpi_hw_resource_type as HW_GUIDED; a process set name gives NULL (no sessions).
strata_scenario_test(hw_split paper52.resource_guided NP 8 LAUNCH ${PAPER52} ARGS resource
  "V=hwloc://Package G=0-3/4-7 L=hwloc://Package" "V=L2 G=0-1/2-3" "P=mpi://WORLD G=" "V=- G=" "G=")

# MPIX_Comm_get_min_hlevel and MPI_Get_hw_resource_info on that layout and on two nodes.
strata_scenario_test(hw_split paper52.minlevel NP 8 LAUNCH ${PAPER52} ARGS minlevel "S=0 L=hwloc://PU" "S=0,1 L=hwloc://L2Cache"
  "S=1,0,1 L=hwloc://L2Cache" "S=2 L=hwloc://L2Cache" "S=2,3 L=hwloc://L2Cache" "S=0,3 L=hwloc://L3Cache"
  "S=4 L=hwloc://L3Cache" "S=0,4 L=hwloc://Machine" "S=0,1,2,3,4,5,6,7 L=hwloc://Machine")
set(ALL_LEVELS "hwloc://Machine,hwloc://Package,hwloc://NUMANode,hwloc://L3Cache")
strata_scenario_test(hw_split paper52.resinfo NP 8 LAUNCH ${PAPER52} ARGS resinfo
  "G=0-1 T=${ALL_LEVELS},hwloc://L2Cache,hwloc://L1Cache,hwloc://Core,hwloc://PU"
  "G=2-3 T=${ALL_LEVELS},hwloc://L2Cache F=hwloc://L1Cache,hwloc://Core,hwloc://PU"
  "G=4-7 T=${ALL_LEVELS} F=hwloc://L2Cache,hwloc://L1Cache,hwloc://Core,hwloc://PU")
# One NUMA node spanning both packages: it holds two ranks of one package, but the package is the smaller instance.
strata_scenario_test(hw_split numa_spans_packages.minlevel NP 4 LAUNCH --topology "synthetic:pack:2 core:2 pu:1"
  --bind-to core ARGS minlevel "S=0,1 L=hwloc://Package" "S=2,3 L=hwloc://Package" "S=3 L=hwloc://PU")
strata_scenario_test(hw_split nodes2.minlevel NP 4 LAUNCH --topology ${HIER_NODE} --nodes 2 --map-by node --bind-to core ARGS minlevel
  "S=0,1 L=Cluster" "S=0,2 L=hwloc://L2Cache" "S=1,3 L=hwloc://L2Cache" "S=0,1,2,3 L=Cluster")

# The persistent-collectives paper's Figure 3: 18 ranks on 3 nodes x 2 NUMA nodes x 3 cores; its level and conduit
# communicators (Node and NUMA node), then the same with rank 7 as conduit wherever it is a member, then the whole
# unguided hierarchy (the machine has no caches: Package names the NUMA halves, Core the singletons).
set(FIG3 --topology "synthetic:pack:2 [numa] core:3 pu:1" --nodes 3 --bind-to core)
hw_blocks(FIG3_NODES 18 6)
hw_blocks(FIG3_NUMAS 18 3)
hw_blocks(FIG3_CORES 18 1)
strata_scenario_test(hw_split figure3.hierarchy NP 18 LAUNCH ${FIG3} ARGS hierarchy
  --info "mpix_hierarchy_levels=hwloc://Machine, hwloc://NUMANode"
  "G=${FIG3_NODES} C=0,6,12 L=hwloc://Machine" "G=${FIG3_NUMAS} C=0,3/6,9/12,15 L=hwloc://NUMANode")
strata_scenario_test(hw_split figure3.hierarchy.conduit NP 18 LAUNCH ${FIG3} ARGS hierarchy
  --info "mpix_hierarchy_levels=Node,NUMA" --info mpix_conduit_rank=7
  "G=${FIG3_NODES} C=0,7,12" "G=${FIG3_NUMAS} C=0,3/7,9/12,15")
strata_scenario_test(hw_split figure3.hierarchy.unguided NP 18 LAUNCH ${FIG3} ARGS hierarchy
  "G=${FIG3_NODES} C=0,6,12 L=hwloc://Machine" "G=${FIG3_NUMAS} C=0,3/6,9/12,15 L=hwloc://Package"
  "G=${FIG3_CORES} C=0,1,2/3,4,5/6,7,8/9,10,11/12,13,14/15,16,17 L=hwloc://Core")

# Two nodes, ranks alternating (rank r on node r%2), each bound to L2 #(r/2): the node, then single ranks at the
# L2 (Package, NUMANode and L3 hold both ranks of a node), then nothing (an L2 binding is not inside one L1).
strata_scenario_test(hw_split nodes2.bind_l2.unguided NP 4 LAUNCH --topology ${HIER_NODE} --nodes 2 --map-by node --bind-to l2
  ARGS unguided "G=0,2/1,3 L=hwloc://Machine" "G=0/1/2/3 L=hwloc://L2Cache" "G=")

# Unbound on a two-package machine: confined to the Node only, so nothing below it, and no strict subset at all.
strata_scenario_test(hw_split two_packages.unbound.guided NP 2 LAUNCH --topology "synthetic:pack:2 core:2 pu:1" ARGS guided
  "V=hwloc://Machine G=0-1" "V=Package G=" "V=Core G=" "V=L3 G=")
strata_scenario_test(hw_split two_packages.unbound.unguided NP 2 LAUNCH --topology "synthetic:pack:2 core:2 pu:1" ARGS unguided "G=")

# This machine, as hwloc reads it when the tests are configured (the machines CI runs on differ: one L3 for both
# cores, or one per core), for 2 ranks bound to cores 0 and 1, or unbound. Per level: whether both cores lie in one
# instance (bound ranks share it), and whether one instance holds the whole machine (unbound ranks belong to it).
# Expected: bound, the 2-rank communicator down to the lowest shared level and singletons below; unbound, the 2-rank
# communicator at the whole-machine levels and NULL below.
set(REAL_LEVELS Package NUMANode L3Cache L2Cache L1Cache Core)
set(REAL_CALC_NAMES package NUMAnode L3cache L2cache L1cache core)
set(bound_guided "V=hwloc://Machine G=0-1")
set(unbound_guided "V=hwloc://Machine G=0-1")
set(whole_levels "hwloc://Machine")
set(split_levels "")
set(lowest_shared "hwloc://Machine")
set(highest_split "")
foreach(level calc IN ZIP_LISTS REAL_LEVELS REAL_CALC_NAMES)
  execute_process(COMMAND hwloc-calc --number-of ${calc} machine:0 OUTPUT_VARIABLE count OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE failed ERROR_QUIET)
  execute_process(COMMAND hwloc-calc core:0 --intersect ${calc} OUTPUT_VARIABLE at0 OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  execute_process(COMMAND hwloc-calc core:1 --intersect ${calc} OUTPUT_VARIABLE at1 OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  if(failed OR NOT count OR count EQUAL 0)
    message(FATAL_ERROR "hw_split real.* tests: hwloc-calc does not see level ${level} on this machine")
  endif()
  if(at0 STREQUAL at1)
    list(APPEND bound_guided "V=hwloc://${level} G=0-1")
    set(lowest_shared "hwloc://${level}")
  else()
    list(APPEND bound_guided "V=hwloc://${level} G=0/1")
    if(NOT highest_split)
      set(highest_split "hwloc://${level}")
    endif()
  endif()
  if(count EQUAL 1)
    list(APPEND unbound_guided "V=hwloc://${level} G=0-1")
    string(APPEND whole_levels ",hwloc://${level}")
  else()
    list(APPEND unbound_guided "V=hwloc://${level} G=")
    string(APPEND split_levels "hwloc://${level},")
  endif()
endforeach()
strata_scenario_test(hw_split real.bind_core.guided NP 2 LAUNCH --bind-to core ARGS guided ${bound_guided})
strata_scenario_test(hw_split real.unbound.guided NP 2 ARGS guided ${unbound_guided})
strata_scenario_test(hw_split real.unbound.resinfo NP 2 ARGS resinfo "T=${whole_levels} F=${split_levels}hwloc://PU")
# Real bindings reach the other ranks through the affinity published at MPI_Init.
strata_scenario_test(hw_split real.bind_core.minlevel NP 2 LAUNCH --bind-to core ARGS minlevel "S=0 L=hwloc://PU" "S=1 L=hwloc://PU"
  "S=0,1 L=${lowest_shared}")
strata_scenario_test(hw_split real.bind_core.unguided NP 2 LAUNCH --bind-to core ARGS unguided "G=0/1 L=${highest_split}" "G=")
strata_scenario_test(hw_split singleton.unguided NP 1 ARGS unguided "G=")

# Errors, mismatches, MPI_UNDEFINED among hardware types, the MPIX queries, and 10 000 splits in constant memory.
foreach(np 1 2 4)
  add_test(NAME mpi.hw_split_bad_input.np${np}
           COMMAND $<TARGET_FILE:mpiexec> -n ${np} --topology ${HIER_NODE} --bind-to core --timeout
                   ${STRATA_MPI_TEST_TIMEOUT} $<TARGET_FILE:hw_split_bad_input>)
  set_tests_properties(mpi.hw_split_bad_input.np${np} PROPERTIES LABELS mpi TIMEOUT 180 PROCESSORS ${np})
endforeach()
