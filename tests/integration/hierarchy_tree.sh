#!/usr/bin/env bash
# examples/hierarchy_tree.c, built with the installed mpicc, on the papers' layouts: the hierarchical-model paper's
# Figure 2 (section 5.2: ranks 0,1 on cores 0,1, ranks 2,3 on L2 #1, ranks 4..7 on NUMA node 1) with the
# HW_UNGUIDED walk, and the persistent-collectives paper's Figure 3 (3 nodes x 2 NUMA nodes x 3 cores) with the
# levels Node and NUMANode. The trees are written here by hand from the papers.
source "$(dirname "$0")/lib.sh"

"$mpicc" "$STRATA_SOURCE/examples/hierarchy_tree.c" -o hierarchy_tree || fail "mpicc hierarchy_tree.c failed"

run_to figure2.txt "$mpiexec" -n 8 --topology "synthetic:pack:2 [numa] l3:1 l2:2 l1:2 core:1 pu:1" \
  --cpu-list "0;1;2-3;2-3;4-7;4-7;4-7;4-7" ./hierarchy_tree
cat >expected.txt <<'TREE'
MPI_COMM_WORLD: 8 ranks
|-- Package 0/2: ranks 0-3  (conduit 0)
|   |-- L2Cache 0/2: ranks 0-1  (conduit 0)
|   |   |-- L1Cache 0/2: rank 0
|   |   `-- L1Cache 1/2: rank 1
|   `-- L2Cache 1/2: ranks 2-3  (conduit 2)
`-- Package 1/2: ranks 4-7  (conduit 4)
TREE
diff -u expected.txt figure2.txt || fail "hierarchy_tree printed another hierarchy for Figure 2"

run_to figure3.txt "$mpiexec" -n 18 --topology "synthetic:pack:2 [numa] core:3 pu:1" --nodes 3 --bind-to core \
  ./hierarchy_tree hwloc://Machine,hwloc://NUMANode
cat >expected.txt <<'TREE'
MPI_COMM_WORLD: 18 ranks
|-- Machine 0/3: ranks 0-5  (conduit 0)
|   |-- NUMANode 0/2: ranks 0-2  (conduit 0)
|   `-- NUMANode 1/2: ranks 3-5  (conduit 3)
|-- Machine 1/3: ranks 6-11  (conduit 6)
|   |-- NUMANode 0/2: ranks 6-8  (conduit 6)
|   `-- NUMANode 1/2: ranks 9-11  (conduit 9)
`-- Machine 2/3: ranks 12-17  (conduit 12)
    |-- NUMANode 0/2: ranks 12-14  (conduit 12)
    `-- NUMANode 1/2: ranks 15-17  (conduit 15)
TREE
diff -u expected.txt figure3.txt || fail "hierarchy_tree printed another hierarchy for Figure 3"
echo PASS
