/* The network levels above the node (mpiexec --network, topo/network.hpp) as an MPI program sees them.
 *
 *   network_levels NODES RACKS SWITCHES [INNER]
 *
 * The job runs with --nodes NODES, ranks in block order (--map-by slot, NODES dividing the size), and --network
 * giving RACKS racks (0: no Rack level) and SWITCHES switches in all (0: no Switch level), nodes spread evenly in
 * block order. Every expectation is computed here from those numbers: node n is in rack n / (NODES / RACKS) and
 * switch n / (NODES / SWITCHES). INNER, if given, is the level that cuts a node's ranks into singletons (the
 * scenario binds one rank per instance of it), and ends the unguided walk; without it the walk ends at the node.
 *
 * Checked: HW_GUIDED with every spelling of Rack and Switch (members, size, mpi_hw_resource_type, hlevel index and
 * count), MPI_COMM_NULL for an absent level; the HW_UNGUIDED walk from MPI_COMM_WORLD (Rack -> Switch -> Node ->
 * INNER -> NULL, skipping absent levels); MPIX_Comm_hierarchy_create's levels; MPI_Get_hw_resource_info's keys;
 * MPIX_Comm_get_min_hlevel for pairs on the same switch, the same rack and neither; and hierarchical bcast, reduce
 * and allreduce and the multi-lane bcast (forced by info key) against the values computed here. */
#include "test_util.h"

static int rank, size, nodes, racks, switches, per_node;
static const char *inner;

static int node_of(int r) { return r / per_node; }
static int rack_of(int r) { return racks ? node_of(r) / (nodes / racks) : -1; }
static int switch_of(int r) { return switches ? node_of(r) / (nodes / switches) : -1; }

typedef int (*same_fn)(int);

/* `c` holds exactly the world ranks r with f(r) == f(rank), in world order. */
static void check_members(MPI_Comm c, same_fn f, const char *what) {
  int n = 0, want = 0, *members = malloc(sizeof(int) * (size_t)size);
  CHECK(c != MPI_COMM_NULL);
  CHECK_MPI(MPI_Comm_size(c, &n));
  CHECK_MPI(MPI_Allgather(&rank, 1, MPI_INT, members, 1, MPI_INT, c));
  for (int r = 0; r < size; ++r)
    if (f(r) == f(rank)) {
      if (want >= n || members[want] != r) {
        fprintf(stderr, "rank %d: %s: world rank %d missing or misplaced\n", rank, what, r);
        CHECK(0);
      }
      ++want;
    }
  CHECK(n == want);
  free(members);
}

static void check_type(MPI_Comm c, const char *level) {
  MPI_Info info;
  char value[MPI_MAX_INFO_VAL + 1];
  int flag = 0;
  CHECK_MPI(MPI_Comm_get_info(c, &info));
  CHECK_MPI(MPI_Info_get(info, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, value, &flag));
  CHECK(flag);
  if (strcmp(value, level) != 0) fprintf(stderr, "rank %d: level %s, expected %s\n", rank, value, level);
  CHECK(strcmp(value, level) == 0);
  CHECK_MPI(MPI_Info_free(&info));
}

static MPI_Comm guided(const char *value) {
  MPI_Info info;
  MPI_Comm c;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", value));
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, info, &c));
  CHECK_MPI(MPI_Info_free(&info));
  return c;
}

static void check_guided(const char *const *spellings, int count, int present, same_fn f, const char *canonical,
                         int parts) {
  for (int i = 0; i < count; ++i) {
    MPI_Comm c = guided(spellings[i]);
    if (!present) {
      CHECK(c == MPI_COMM_NULL);
      continue;
    }
    check_members(c, f, spellings[i]);
    check_type(c, canonical);
    int num = 0, index = -1, len = 0;
    char type[MPI_MAX_INFO_VAL + 1];
    CHECK_MPI(MPIX_Comm_get_hlevel_info(c, &num, &index, type, &len));
    CHECK(num == parts);
    CHECK(index == f(rank)); /* a network part's index is its job-wide instance */
    CHECK(strcmp(type, canonical) == 0);
    CHECK_MPI(MPI_Comm_free(&c));
  }
}

static int whole_node(int r) { return node_of(r); }
static int alone(int r) { return r; }

/* The levels the unguided walk from MPI_COMM_WORLD must take, and the grouping of each. */
static int walk(const char **levels, same_fn *groups) {
  int n = 0;
  if (racks > 1) {
    levels[n] = "strata://Rack";
    groups[n++] = rack_of;
  }
  if (switches > racks && switches > 1) {
    levels[n] = "strata://Switch";
    groups[n++] = switch_of;
  }
  if (nodes > (switches ? switches : racks ? racks : 1)) {
    levels[n] = "hwloc://Machine";
    groups[n++] = whole_node;
  }
  if (inner && per_node > 1) {
    levels[n] = inner;
    groups[n++] = alone;
  }
  return n;
}

static void check_unguided(void) {
  const char *levels[4];
  same_fn groups[4];
  const int depth = walk(levels, groups);
  MPI_Comm parent = MPI_COMM_WORLD;
  for (int d = 0; d <= depth; ++d) {
    MPI_Comm c;
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Comm_split_type(parent, MPI_COMM_TYPE_HW_UNGUIDED, rank, info, &c));
    CHECK_MPI(MPI_Info_free(&info));
    if (parent != MPI_COMM_WORLD) CHECK_MPI(MPI_Comm_free(&parent));
    if (d == depth) {
      CHECK(c == MPI_COMM_NULL);
      return;
    }
    check_members(c, groups[d], levels[d]);
    check_type(c, levels[d]);
    parent = c;
  }
}

static void check_hierarchy_create(void) {
  const char *levels[4];
  same_fn groups[4];
  const int depth = walk(levels, groups);
  MPI_Comm level_comms[8], conduits[8];
  int nlevels = -1;
  CHECK_MPI(MPIX_Comm_hierarchy_create(MPI_COMM_WORLD, MPI_INFO_NULL, 8, &nlevels, level_comms, conduits));
  CHECK(nlevels == depth);
  for (int d = 0; d < nlevels; ++d) {
    check_members(level_comms[d], groups[d], levels[d]);
    CHECK_MPI(MPI_Comm_free(&level_comms[d]));
    if (conduits[d] != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&conduits[d]));
  }
}

static void check_resource_info(void) {
  MPI_Info info;
  char value[MPI_MAX_INFO_VAL + 1];
  int flag = 0;
  CHECK_MPI(MPI_Get_hw_resource_info(&info));
  CHECK_MPI(MPI_Info_get(info, "strata://Rack", MPI_MAX_INFO_VAL, value, &flag));
  CHECK(flag == (racks > 0));
  if (flag) CHECK(strcmp(value, "true") == 0);
  CHECK_MPI(MPI_Info_get(info, "strata://Switch", MPI_MAX_INFO_VAL, value, &flag));
  CHECK(flag == (switches > 0));
  if (flag) CHECK(strcmp(value, "true") == 0);
  CHECK_MPI(MPI_Info_get(info, "hwloc://Machine", MPI_MAX_INFO_VAL, value, &flag));
  CHECK(flag && strcmp(value, "true") == 0);
  CHECK_MPI(MPI_Info_free(&info));
}

/* The lowest level holding rank and other: computed from the layout. */
static const char *expected_min(int other) {
  if (node_of(other) == node_of(rank)) return NULL; /* inside the node: not this test's business */
  if (switches && switch_of(other) == switch_of(rank)) return "strata://Switch";
  if (racks && rack_of(other) == rack_of(rank)) return "strata://Rack";
  return "Cluster";
}

static void check_min_hlevel(void) {
  for (int other = 0; other < size; ++other) {
    const char *want = expected_min(other);
    if (!want) continue;
    int pair[2] = {rank, other}, len = 0;
    char type[MPI_MAX_INFO_VAL + 1];
    CHECK_MPI(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, 2, pair, type, &len));
    if (strcmp(type, want) != 0) fprintf(stderr, "rank %d with %d: %s, expected %s\n", rank, other, type, want);
    CHECK(strcmp(type, want) == 0);
  }
  /* Everyone: the lowest level holding the whole job. */
  int *all = malloc(sizeof(int) * (size_t)size), len = 0;
  char type[MPI_MAX_INFO_VAL + 1];
  for (int r = 0; r < size; ++r) all[r] = r;
  CHECK_MPI(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, size, all, type, &len));
  const char *want = nodes == 1 ? NULL : switches == 1 ? "strata://Switch" : racks == 1 ? "strata://Rack" : "Cluster";
  if (want) CHECK(strcmp(type, want) == 0);
  free(all);
}

/* Hierarchical bcast, reduce and allreduce, forced by info key, over the hierarchy the network levels cut first. */
static void check_collectives(void) {
  MPI_Info info;
  MPI_Comm c;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "strata_coll_bcast", "hierarchical"));
  CHECK_MPI(MPI_Info_set(info, "strata_coll_reduce", "hierarchical"));
  CHECK_MPI(MPI_Info_set(info, "strata_coll_allreduce", "hierarchical"));
  CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c));
  CHECK_MPI(MPI_Info_free(&info));
  enum { N = 37 };
  long values[N], sums[N];
  for (int root = 0; root < size; root += size / 3 + 1) {
    for (int i = 0; i < N; ++i) values[i] = rank == root ? 1000L * root + i : -1;
    CHECK_MPI(MPI_Bcast(values, N, MPI_LONG, root, c));
    for (int i = 0; i < N; ++i) CHECK(values[i] == 1000L * root + i);
    for (int i = 0; i < N; ++i) values[i] = (long)(rank + 1) * (i + 1);
    CHECK_MPI(MPI_Reduce(values, sums, N, MPI_LONG, MPI_SUM, root, c));
    if (rank == root)
      for (int i = 0; i < N; ++i) CHECK(sums[i] == (long)size * (size + 1) / 2 * (i + 1));
  }
  for (int i = 0; i < N; ++i) values[i] = (long)rack_of(rank) * 10000 + switch_of(rank) * 100 + node_of(rank) + i;
  CHECK_MPI(MPI_Allreduce(values, sums, N, MPI_LONG, MPI_SUM, c));
  long want = 0;
  for (int r = 0; r < size; ++r) want += (long)rack_of(r) * 10000 + switch_of(r) * 100 + node_of(r);
  for (int i = 0; i < N; ++i) CHECK(sums[i] == want + (long)size * i);
  MPI_Request request;
  char name[MPI_MAX_OBJECT_NAME + 1];
  int len = 0;
  CHECK_MPI(MPI_Iallreduce(values, sums, N, MPI_LONG, MPI_SUM, c, &request));
  CHECK_MPI(MPIX_Request_get_algorithm(request, name, &len));
  CHECK(strcmp(name, "hierarchical") == 0);
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  for (int i = 0; i < N; ++i) CHECK(sums[i] == want + (long)size * i);
  CHECK_MPI(MPI_Comm_free(&c));
}

/* The multi-lane bcast, forced, from every root: the network levels' bcast down to the switches, then the lanes
 * across each switch's nodes. */
static void check_multi_lane(void) {
  MPI_Info info;
  MPI_Comm c;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "strata_coll_bcast", "multi_lane"));
  CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c));
  CHECK_MPI(MPI_Info_free(&info));
  enum { N = 37 };
  long values[N];
  for (int root = 0; root < size; ++root) {
    for (int i = 0; i < N; ++i) values[i] = rank == root ? 1000L * root + i : -1;
    MPI_Request request;
    char name[MPI_MAX_OBJECT_NAME + 1];
    int len = 0;
    CHECK_MPI(MPI_Ibcast(values, N, MPI_LONG, root, c, &request));
    CHECK_MPI(MPIX_Request_get_algorithm(request, name, &len));
    CHECK(strcmp(name, "multi_lane") == 0);
    CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; ++i) CHECK(values[i] == 1000L * root + i);
  }
  CHECK_MPI(MPI_Comm_free(&c));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(argc >= 4);
  nodes = atoi(argv[1]);
  racks = atoi(argv[2]);
  switches = atoi(argv[3]);
  inner = argc > 4 ? argv[4] : NULL;
  CHECK(nodes > 0 && size % nodes == 0);
  per_node = size / nodes;

  static const char *const rack_names[] = {"Rack", "rack", "RACK", "strata://Rack", "Strata://RACK"};
  static const char *const switch_names[] = {"Switch", "switch", "strata://Switch", "STRATA://switch"};
  check_guided(rack_names, 5, racks > 0, rack_of, "strata://Rack", racks);
  check_guided(switch_names, 4, switches > 0, switch_of, "strata://Switch", switches);
  MPI_Comm bad = guided("hwloc://Rack"); /* hwloc has no racks: an unknown value, so MPI_COMM_NULL */
  CHECK(bad == MPI_COMM_NULL);
  check_unguided();
  check_hierarchy_create();
  check_resource_info();
  check_min_hlevel();
  check_collectives();
  check_multi_lane();
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("network_levels: OK (%d ranks, %d nodes, %d racks, %d switches)\n", size, nodes, racks,
                        switches);
  MPI_Finalize();
  return 0;
}
