/* Prints the hardware hierarchy of a launch as a tree: the communicators MPIX_Comm_hierarchy_create makes from
 * MPI_COMM_WORLD, each with its level, its index among its siblings and its ranks.
 *
 *   mpiexec -n 32 --topology "synthetic:pack:2 [numa] l3:1 l2:2 l1:2 core:1 pu:1" --nodes 4 --bind-to core \
 *       ./hierarchy_tree                      # the HW_UNGUIDED walk down to single processes
 *   mpiexec ... ./hierarchy_tree Node,NUMANode  # only these levels (HW_GUIDED, in this order)
 *
 * Every rank sends its path (level and index at each depth) to rank 0, which prints the tree with the conduit
 * (leader) of each communicator. Point-to-point only, so it runs on any MPI that has the MPIX calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 16, NAME = 32 };

typedef struct {
  int depth;
  int index[MAX_DEPTH], count[MAX_DEPTH], conduit[MAX_DEPTH];
  char level[MAX_DEPTH][NAME];
} path;

static path *paths; /* rank 0: every rank's path */
static int world;

/* Ranks as compact ranges: "0-7,9". */
static void print_ranks(const int *ranks, int n) {
  for (int i = 0; i < n;) {
    int j = i;
    while (j + 1 < n && ranks[j + 1] == ranks[j] + 1) ++j;
    printf("%s%d", i ? "," : "", ranks[i]);
    if (j > i) printf("-%d", ranks[j]);
    i = j + 1;
  }
}

/* The ranks whose path goes through `members` at depth d, grouped by their index there, in index order. */
static void print_level(const int *members, int n, int d, const char *indent) {
  int *child = malloc(sizeof(int) * (size_t)n);
  int count = 0;
  for (int i = 0; i < n; ++i)
    if (paths[members[i]].depth > d) count = paths[members[i]].count[d];
  for (int c = 0; c < count; ++c) {
    int m = 0, conduit = -1;
    for (int i = 0; i < n; ++i) {
      const path *p = &paths[members[i]];
      if (p->depth > d && p->index[d] == c) {
        child[m++] = members[i];
        if (p->conduit[d]) conduit = members[i];
      }
    }
    if (m == 0) continue;
    int last = c == count - 1;
    printf("%s%s %s %d/%d: rank%s ", indent, last ? "`--" : "|--", paths[child[0]].level[d], c, count,
           m > 1 ? "s" : "");
    print_ranks(child, m);
    if (m > 1 && conduit >= 0) printf("  (conduit %d)", conduit);
    printf("\n");
    char deeper[256];
    snprintf(deeper, sizeof deeper, "%.240s%s", indent, last ? "    " : "|   "); /* 60 levels deep at most */
    print_level(child, m, d + 1, deeper);
  }
  free(child);
}

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);

  MPI_Info info;
  MPI_Info_create(&info);
  if (argc > 1) MPI_Info_set(info, "mpix_hierarchy_levels", argv[1]);
  MPI_Comm levels[MAX_DEPTH], conduits[MAX_DEPTH];
  path mine;
  memset(&mine, 0, sizeof mine);
  if (MPIX_Comm_hierarchy_create(MPI_COMM_WORLD, info, MAX_DEPTH, &mine.depth, levels, conduits) != MPI_SUCCESS)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int d = 0; d < mine.depth; ++d) {
    int len;
    char type[MPI_MAX_INFO_VAL + 1];
    MPIX_Comm_get_hlevel_info(levels[d], &mine.count[d], &mine.index[d], type, &len);
    snprintf(mine.level[d], NAME, "%.31s", strncmp(type, "hwloc://", 8) == 0 ? type + 8 : type);
    /* The conduit of a communicator is the member that is in the conduit communicator of its level. */
    mine.conduit[d] = conduits[d] != MPI_COMM_NULL;
  }

  if (rank == 0) {
    paths = malloc(sizeof(path) * (size_t)world);
    paths[0] = mine;
    for (int r = 1; r < world; ++r) MPI_Recv(&paths[r], sizeof(path), MPI_BYTE, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int *all = malloc(sizeof(int) * (size_t)world);
    for (int r = 0; r < world; ++r) all[r] = r;
    printf("MPI_COMM_WORLD: %d rank%s\n", world, world > 1 ? "s" : "");
    print_level(all, world, 0, "");
    free(all);
    free(paths);
  } else {
    MPI_Send(&mine, sizeof(path), MPI_BYTE, 0, 0, MPI_COMM_WORLD);
  }

  for (int d = 0; d < mine.depth; ++d) {
    MPI_Comm_free(&levels[d]);
    if (conduits[d] != MPI_COMM_NULL) MPI_Comm_free(&conduits[d]);
  }
  MPI_Info_free(&info);
  MPI_Finalize();
  return 0;
}
