/* strata-topology: prints the hardware hierarchy of a launched job as Strata sees it (MPIX_Get_hw_placement):
 * per node, the levels its machine has (redundant ones marked), then a tree of the instances that hold ranks,
 * each with the ranks confined to it, then each rank's binding.
 *
 *   mpiexec -n 8 --topology synthetic:"pack:2 [numa] l3:1 l2:2 l1:2 core:1 pu:1" --bind-to core strata-topology
 *
 * Every rank sends its placement to rank 0, which prints. A rank whose binding spans several instances of a level
 * stops at the level above in the tree. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LEVELS = 8, TEXT = 256 };
static const char *const level_key[LEVELS] = {"hwloc://Machine", "hwloc://Package", "hwloc://NUMANode",
                                              "hwloc://L3Cache", "hwloc://L2Cache", "hwloc://L1Cache",
                                              "hwloc://Core",    "hwloc://PU"};
static const char *const level_name[LEVELS] = {"Machine", "Package", "NUMANode", "L3Cache",
                                               "L2Cache", "L1Cache", "Core",     "PU"};

typedef struct {
  int node;
  char hostname[TEXT], binding[TEXT], cpuset[TEXT];
  int index[LEVELS]; /* >= 0: confined; -1: spans several; -2: the machine lacks the level */
  int count[LEVELS];
  int redundant[LEVELS];
} Placement;

static void get(MPI_Info info, const char *key, char *out) {
  int len = TEXT, flag = 0;
  MPI_Info_get_string(info, key, &len, out, &flag);
  if (!flag) out[0] = '\0';
}

static Placement my_placement(void) {
  Placement p;
  memset(&p, 0, sizeof p);
  MPI_Info info;
  MPIX_Get_hw_placement(&info);
  char text[TEXT], redundant[4 * TEXT];
  get(info, "node", text);
  p.node = atoi(text);
  get(info, "hostname", p.hostname);
  get(info, "binding", p.binding);
  get(info, "cpuset", p.cpuset);
  int len = sizeof redundant, flag = 0;
  MPI_Info_get_string(info, "redundant", &len, redundant, &flag);
  for (int l = 0; l < LEVELS; ++l) {
    get(info, level_key[l], text);
    p.index[l] = -2;
    if (text[0] == '\0') continue;
    char *slash = strchr(text, '/');
    p.count[l] = slash ? atoi(slash + 1) : 0;
    p.index[l] = strncmp(text, "none", 4) == 0 ? -1 : atoi(text);
    /* Whole words only: "hwloc://L1Cache" is not inside "hwloc://L1CacheX" */
    for (const char *at = strstr(redundant, level_key[l]); at; at = strstr(at + 1, level_key[l])) {
      char after = at[strlen(level_key[l])];
      if (after == ' ' || after == '\0') p.redundant[l] = 1;
    }
  }
  MPI_Info_free(&info);
  return p;
}

/* "0-3,6": the ranks in `ranks` (ascending). */
static void print_ranks(const int *ranks, int n) {
  printf("rank%s ", n > 1 ? "s" : "");
  for (int i = 0; i < n;) {
    int j = i;
    while (j + 1 < n && ranks[j + 1] == ranks[j] + 1) ++j;
    printf(i ? ",%d" : "%d", ranks[i]);
    if (j > i) printf("-%d", ranks[j]);
    i = j + 1;
  }
  printf("\n");
}

/* The instances of `level` (and below) that hold some of `ranks`, indented by `depth`. */
static void print_tree(const Placement *all, const int *ranks, int n, int level, int depth) {
  const Placement *first = &all[ranks[0]];
  while (level < LEVELS && (first->index[level] == -2 || first->redundant[level])) ++level;
  if (level == LEVELS) return;
  int *sub = malloc(sizeof(int) * (size_t)n);
  for (int instance = 0; instance < first->count[level]; ++instance) {
    int m = 0;
    for (int i = 0; i < n; ++i)
      if (all[ranks[i]].index[level] == instance) sub[m++] = ranks[i];
    if (m == 0) continue;
    printf("%*s%s#%d: ", 2 * depth, "", level_name[level], instance);
    print_ranks(sub, m);
    print_tree(all, sub, m, level + 1, depth + 1);
  }
  free(sub);
}

static void print_node(const Placement *all, int size, int node) {
  int *ranks = malloc(sizeof(int) * (size_t)size), n = 0;
  for (int r = 0; r < size; ++r)
    if (all[r].node == node) ranks[n++] = r;
  if (n > 0) {
    const Placement *p = &all[ranks[0]];
    printf("node %d (%s):", node, p->hostname);
    for (int l = 0; l < LEVELS; ++l)
      if (p->index[l] != -2) printf(" %s x%d%s", level_name[l], p->count[l], p->redundant[l] ? " (redundant)" : "");
    printf("\n");
    print_tree(all, ranks, n, 0, 1);
    for (int i = 0; i < n; ++i) {
      const Placement *q = &all[ranks[i]];
      printf("  rank %d: cpuset %s, binding %s\n", ranks[i], q->cpuset, q->binding);
    }
  }
  free(ranks);
}

int main(int argc, char **argv) {
  int rank = 0, size = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Placement mine = my_placement();
  if (rank != 0) {
    MPI_Send(&mine, (int)sizeof mine, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
  } else {
    Placement *all = malloc(sizeof(Placement) * (size_t)size);
    all[0] = mine;
    for (int r = 1; r < size; ++r)
      MPI_Recv(&all[r], (int)sizeof mine, MPI_BYTE, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int nodes = 0;
    for (int r = 0; r < size; ++r)
      if (all[r].node + 1 > nodes) nodes = all[r].node + 1;
    printf("%d rank%s on %d node%s\n", size, size > 1 ? "s" : "", nodes, nodes > 1 ? "s" : "");
    for (int node = 0; node < nodes; ++node) print_node(all, size, node);
    free(all);
  }
  MPI_Finalize();
  return 0;
}
