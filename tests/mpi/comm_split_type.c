/* MPI_Comm_split_type (MPI-4.0 7.4.2) with MPI_COMM_TYPE_SHARED: one communicator per (real or simulated) node,
 * ordered by (key, rank in the parent); MPI_UNDEFINED gives MPI_COMM_NULL and leaves the process out of its node's
 * communicator. The expected node of every rank follows mpiexec's mapping rule, so each rank computes the whole
 * expected partition by itself. Also: split_type on a reordered parent and on a subset parent, on MPI_COMM_SELF,
 * and MPI_COMM_TYPE_HW_GUIDED with MPI_INFO_NULL, which gives MPI_COMM_NULL (MPI-4.0: no resource type requested).
 *
 * Usage: comm_split_type [--nodes N --map-by slot|node]. Without --nodes all ranks share one node. With --nodes,
 * rank r is on node r / ceil(size/N) (slot) or r % N (node). Runs on any number of ranks. */
#include "test_util.h"

static int rank, size, nodes = 1;
static const char *map_by = "slot";

static int node_of(int r) {
  if (nodes <= 1) return 0;
  if (strcmp(map_by, "node") == 0) return r % nodes;
  int per_node = (size + nodes - 1) / nodes;
  return r / per_node;
}

/* Splits `parent` (world ranks parent_world[0..n-1]) by type SHARED with the given per-parent-rank keys
 * (MPI_UNDEFINED in `undefined[r]` leaves parent rank r out) and checks the result. */
static void split_and_check(MPI_Comm parent, const int *parent_world, int n, const int *key, const char *undefined,
                            int comm_id) {
  int me = -1;
  CHECK_MPI(MPI_Comm_rank(parent, &me));
  CHECK(parent_world[me] == rank);
  MPI_Comm c = (MPI_Comm)-12345;
  CHECK_MPI(MPI_Comm_split_type(parent, undefined[me] ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, key[me],
                                MPI_INFO_NULL, &c));
  if (undefined[me]) {
    CHECK(c == MPI_COMM_NULL);
    return;
  }
  /* Expected: parent ranks on my node, not undefined, sorted by (key, parent rank). */
  int *members = test_malloc(sizeof(int) * (size_t)n), *world = test_malloc(sizeof(int) * (size_t)n), m = 0;
  for (int r = 0; r < n; ++r)
    if (!undefined[r] && node_of(parent_world[r]) == node_of(rank)) members[m++] = r;
  for (int i = 1; i < m; ++i) {
    int v = members[i], j = i - 1;
    while (j >= 0 && key[members[j]] > key[v]) {
      members[j + 1] = members[j];
      --j;
    }
    members[j + 1] = v;
  }
  for (int i = 0; i < m; ++i) world[i] = parent_world[members[i]];
  test_check_comm(c, world, m, comm_id * 16 + node_of(rank), 20 + comm_id);
  CHECK_MPI(MPI_Comm_free(&c));
  free(members);
  free(world);
}

int main(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (strcmp(argv[i], "--nodes") == 0) nodes = atoi(argv[i + 1]);
    if (strcmp(argv[i], "--map-by") == 0) map_by = argv[i + 1];
  }
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

  int *world = test_malloc(sizeof(int) * (size_t)size), *key = test_malloc(sizeof(int) * (size_t)size);
  char *undef = test_malloc((size_t)size);
  for (int r = 0; r < size; ++r) world[r] = r;

  /* 1. key 0 everywhere: world order within each node. */
  for (int r = 0; r < size; ++r) key[r] = 0, undef[r] = 0;
  split_and_check(MPI_COMM_WORLD, world, size, key, undef, 1);

  /* 2. reversed keys. */
  for (int r = 0; r < size; ++r) key[r] = size - r;
  split_and_check(MPI_COMM_WORLD, world, size, key, undef, 2);

  /* 3. ties: key = rank % 2 (odd ranks after even ones, each in world order); negative keys too. */
  for (int r = 0; r < size; ++r) key[r] = r % 2 ? 5 : -5;
  split_and_check(MPI_COMM_WORLD, world, size, key, undef, 3);

  /* 4. MPI_UNDEFINED on every third rank (starting at 1), random keys from a shared seed. */
  test_rng rng = test_rng_make(77);
  for (int r = 0; r < size; ++r) {
    key[r] = (int)test_rng_below(&rng, 3);
    undef[r] = r % 3 == 1;
  }
  split_and_check(MPI_COMM_WORLD, world, size, key, undef, 4);

  /* 5. all MPI_UNDEFINED. */
  for (int r = 0; r < size; ++r) undef[r] = 1;
  split_and_check(MPI_COMM_WORLD, world, size, key, undef, 5);

  /* 6. a reversed parent: "rank in the parent" order is the reversed one. */
  MPI_Comm rev = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
  int *rev_world = test_malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) {
    rev_world[r] = size - 1 - r;
    key[r] = 0;
    undef[r] = 0;
  }
  split_and_check(rev, rev_world, size, key, undef, 6);
  for (int r = 0; r < size; ++r) key[r] = r % 3;
  split_and_check(rev, rev_world, size, key, undef, 7);

  /* 7. a subset parent: the even world ranks (odd ones split their own communicator). */
  MPI_Comm half = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
  int hn = 0;
  for (int r = rank % 2; r < size; r += 2) world[hn++] = r;
  for (int r = 0; r < hn; ++r) key[r] = -r; /* reversed within each node */
  split_and_check(half, world, hn, key, undef, 8 + rank % 2);

  /* 8. MPI_COMM_SELF: always a communicator of one. */
  MPI_Comm s = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_SELF, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &s));
  int me[1] = {rank};
  test_check_comm(s, me, 1, 999, 30);
  CHECK_MPI(MPI_Comm_free(&s));

  /* 9. the node communicator from a duplicate of WORLD equals (CONGRUENT) the one from WORLD. */
  MPI_Comm d = MPI_COMM_NULL, n1 = MPI_COMM_NULL, n2 = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &n1));
  CHECK_MPI(MPI_Comm_split_type(d, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &n2));
  int result = -1;
  CHECK_MPI(MPI_Comm_compare(n1, n2, &result));
  CHECK(result == MPI_CONGRUENT);
  CHECK_MPI(MPI_Comm_compare(n1, MPI_COMM_WORLD, &result));
  int whole = 1; /* all ranks on one node? */
  for (int r = 0; r < size; ++r) whole &= node_of(r) == node_of(0);
  CHECK(result == (whole ? MPI_CONGRUENT : MPI_UNEQUAL));
  CHECK_MPI(MPI_Comm_free(&n1));
  CHECK_MPI(MPI_Comm_free(&n2));
  CHECK_MPI(MPI_Comm_free(&d));

  /* 10. MPI_COMM_TYPE_HW_GUIDED with MPI_INFO_NULL: no resource type asked for, MPI_COMM_NULL everywhere. */
  MPI_Comm hw = (MPI_Comm)-12345;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, MPI_INFO_NULL, &hw));
  CHECK(hw == MPI_COMM_NULL);

  CHECK_MPI(MPI_Comm_free(&rev));
  CHECK_MPI(MPI_Comm_free(&half));
  free(world);
  free(rev_world);
  free(key);
  free(undef);
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
