/* hier_common.c: the hierarchies of communicators the hierarchical-model examples walk (see hier_common.h). */
#include "hier_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hier_init(hier_levels *h, MPI_Comm comm) {
  memset(h, 0, sizeof *h);
  for (int d = 0; d < HIER_MAX_DEPTH; ++d) h->level[d] = h->roots[d] = MPI_COMM_NULL;
  h->leaf = comm;
}

static int comm_rank(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

static int comm_size(MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  return size;
}

/* Appends `level`, a split of h->leaf, with the roots communicator the paper's Algorithm 2 makes for it: the
 * processes of rank 0 in their new communicator, split from the parent with the parent's rank as key so that the
 * parent's rank 0 is its rank 0 too. */
static void push_level(hier_levels *h, MPI_Comm level, int key) {
  MPI_Comm parent = h->leaf, roots;
  MPI_Comm_split(parent, comm_rank(level) == 0 ? 0 : MPI_UNDEFINED, comm_rank(parent), &roots);
  h->level[h->depth] = level;
  h->roots[h->depth] = roots;
  h->key[h->depth] = key;
  h->leaf = level;
  ++h->depth;
}

int hier_levels_from_hardware(MPI_Comm comm, hier_levels *h) {
  hier_init(h, comm);
  for (;;) {
    MPI_Comm parent = h->leaf, level, roots;
    MPIX_Comm_hsplit_with_roots(parent, MPI_INFO_NULL, &level, &roots);
    /* The loops over the levels need every process of a communicator to go one level deeper or none: a process
     * that stopped alone would skip collectives its siblings enter. */
    int here = level != MPI_COMM_NULL, all, any;
    MPI_Allreduce(&here, &all, 1, MPI_INT, MPI_MIN, parent);
    MPI_Allreduce(&here, &any, 1, MPI_INT, MPI_MAX, parent);
    int too_deep = any && h->depth == HIER_MAX_DEPTH;
    if (all != any || too_deep) {
      if (comm_rank(parent) == 0)
        printf("FAILED: the hardware walk %s below depth %d\n",
               too_deep ? "goes deeper than HIER_MAX_DEPTH" : "stops for some processes and not for others",
               h->depth);
      if (level != MPI_COMM_NULL) MPI_Comm_free(&level);
      if (roots != MPI_COMM_NULL) MPI_Comm_free(&roots);
      return 1;
    }
    if (!here) return 0;
    int num_comms, len;
    char type[MPI_MAX_INFO_VAL + 1];
    h->level[h->depth] = level;
    h->roots[h->depth] = roots;
    MPIX_Comm_get_hlevel_info(level, &num_comms, &h->key[h->depth], type, &len);
    h->leaf = level;
    ++h->depth;
  }
}

/* One level of a process's placement: the colour of its instance, and how many instances there are. */
typedef struct {
  int rank;       /* order of the walk: network levels (0), the node (1), levels inside the node (2) */
  int count;      /* instances: per job for network levels, per node inside it */
  int color;      /* MPI_UNDEFINED where the binding spans several instances */
} placement_level;

static int by_walk_order(const void *a, const void *b) {
  const placement_level *x = a, *y = b;
  if (x->rank != y->rank) return x->rank - y->rank;
  return x->count - y->count; /* fewer instances: a higher level (a tie is a redundant level, skipped anyway) */
}

/* The levels of MPIX_Get_hw_placement's keys ("node" and "<prefix>://<Level>" = "<index>/<count>"), in the order
 * the walk takes them. Inside a node the index is node-unique, so the colour also holds the node id. */
static int read_placement(placement_level *levels, int max) {
  MPI_Info info;
  MPIX_Get_hw_placement(&info);
  char value[MPI_MAX_INFO_VAL + 1], key[MPI_MAX_INFO_KEY + 1];
  int len = MPI_MAX_INFO_VAL, flag, nkeys, n = 0;
  MPI_Info_get_string(info, "node", &len, value, &flag);
  int node = flag ? atoi(value) : 0;
  levels[n++] = (placement_level){1, 1, node};
  MPI_Info_get_nkeys(info, &nkeys);
  for (int k = 0; k < nkeys && n < max; ++k) {
    MPI_Info_get_nthkey(info, k, key);
    int network = strncmp(key, "strata://", 9) == 0;
    if (!network && strncmp(key, "hwloc://", 8) != 0) continue;
    len = MPI_MAX_INFO_VAL;
    MPI_Info_get_string(info, key, &len, value, &flag);
    const char *slash = strchr(value, '/');
    if (!slash) continue;
    int count = atoi(slash + 1), index = strncmp(value, "none", 4) == 0 ? -1 : atoi(value);
    int color = index < 0 ? MPI_UNDEFINED : network ? index : node * count + index;
    levels[n++] = (placement_level){network ? 0 : 2, count, color};
  }
  MPI_Info_free(&info);
  qsort(levels, (size_t)n, sizeof *levels, by_walk_order);
  return n;
}

void hier_levels_from_placement(MPI_Comm comm, hier_levels *h) {
  hier_init(h, comm);
  placement_level levels[2 * HIER_MAX_DEPTH];
  int n = read_placement(levels, 2 * HIER_MAX_DEPTH);
  for (int i = 0; i < n && h->depth < HIER_MAX_DEPTH && comm_size(h->leaf) > 1; ++i) {
    /* A binding that spans several instances of this level spans several of every deeper one as well. */
    int spans = levels[i].color == MPI_UNDEFINED, any;
    MPI_Allreduce(&spans, &any, 1, MPI_INT, MPI_MAX, h->leaf);
    if (any) break;
    MPI_Comm level;
    MPI_Comm_split(h->leaf, levels[i].color, comm_rank(h->leaf), &level);
    if (comm_size(level) == comm_size(h->leaf)) { /* one instance holds the whole parent: not a split */
      MPI_Comm_free(&level);
      continue;
    }
    push_level(h, level, levels[i].color);
  }
}

void hier_levels_round_robin(MPI_Comm comm, int depth, const int fanout[], hier_levels *h) {
  hier_init(h, comm);
  for (int d = 0; d < depth && d < HIER_MAX_DEPTH && comm_size(h->leaf) > 1; ++d) {
    if (fanout[d] < 2) continue;
    int color = comm_rank(h->leaf) % fanout[d];
    MPI_Comm level;
    MPI_Comm_split(h->leaf, color, comm_rank(h->leaf), &level);
    push_level(h, level, color);
  }
}

void hier_levels_free(hier_levels *h) {
  for (int d = 0; d < h->depth; ++d) {
    if (h->level[d] != MPI_COMM_NULL) MPI_Comm_free(&h->level[d]);
    if (h->roots[d] != MPI_COMM_NULL) MPI_Comm_free(&h->roots[d]);
  }
  h->depth = 0;
}

void hier_describe(const MPI_Comm level[], int depth, char *text, size_t size) {
  size_t used = 0;
  text[0] = '\0';
  if (depth == 0) snprintf(text, size, "none (one process, or no binding)");
  for (int d = 0; d < depth && used < size; ++d) {
    int num_comms, index, len;
    char type[MPI_MAX_INFO_VAL + 1];
    MPIX_Comm_get_hlevel_info(level[d], &num_comms, &index, type, &len);
    const char *name = strstr(type, "://") ? strstr(type, "://") + 3 : type;
    used += (size_t)snprintf(text + used, size - used, "%s%s x%d", d ? " > " : "", name, num_comms);
  }
}

int hier_node_count(MPI_Comm comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int leader = comm_rank(node) == 0, nodes;
  MPI_Allreduce(&leader, &nodes, 1, MPI_INT, MPI_SUM, comm);
  MPI_Comm_free(&node);
  return nodes;
}

double hier_max_elapsed(MPI_Comm comm, double t0) {
  double elapsed = MPI_Wtime() - t0, longest;
  MPI_Allreduce(&elapsed, &longest, 1, MPI_DOUBLE, MPI_MAX, comm);
  return longest;
}

long hier_total_failures(MPI_Comm comm, long failures) {
  long total;
  MPI_Allreduce(&failures, &total, 1, MPI_LONG, MPI_SUM, comm);
  return total;
}
