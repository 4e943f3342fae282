/* hier_vector: the hierarchical vector processing of Goglin et al. 2018 (section 7.4, Algorithm 5) on the hardware
 * hierarchy, against the same processing on hierarchies made by hand.
 *
 *   mpiexec -n 8 --nodes 4 --topology synthetic:"pack:2 core:2 pu:1" --bind-to core ./hier_vector [max_doubles]
 *
 * Algorithm 5 walks a roots-communicators hierarchy from the bottom up: at each level every member gathers its
 * current vector (size_v elements) to the level's rank 0, which applies func to the gathered vectors and its own
 * local vector lvec, and carries the result to the level above. Here func adds the vectors element by element and
 * divides the sum by lvec ("a simple vectors addition with normalization by value of a local vector"); rank 0 of
 * MPI_COMM_WORLD ends with the result of the whole tree. It runs on three hierarchies (hier_common.c):
 *   hardware   MPIX_Comm_hsplit_with_roots down to single processes (the paper's H_topo);
 *   by hand    MPI_Comm_split with colours computed from MPIX_Get_hw_placement: it must give the same tree, so
 *              every level is checked congruent with the hardware one and the result bitwise equal;
 *   oblivious  the same fan-outs, but ranks dealt round robin, blind to the placement (the paper's H_conf(i)),
 *              so that groups straddle nodes; MPIX_Comm_get_min_hlevel shows what rank 0's top group spans.
 * Every process's data and lvec follow from its rank, so rank 0 also computes each tree's result directly from the
 * ranks' paths (which communicator holds them at each depth) with the same func in the same order: the results
 * must match bitwise. Rank 0 prints the time of one processing on each hierarchy, per vector size (16 doubles, then
 * x16 up to max_doubles, default 65536), the largest over the ranks, and oblivious/hardware. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hier_common.h"

enum { TRIALS = 3, HARDWARE = 0, BY_HAND = 1, OBLIVIOUS = 2, FORMS = 3 };
static const char *form_name[FORMS] = {"hardware", "by hand", "oblivious"};

static double data_at(int rank, int i) { return (double)((rank * 13 + i * 7) % 17 - 8); }
static double lvec_at(int rank, int i) { return 1.0 + 0.5 * ((rank + i) % 4); }

/* func of Algorithm 5: out = (sum of the n gathered vectors) / lvec of the gathering process, element by element. */
static void func(const double *gathered, int n, int v, int owner, double *out) {
  for (int i = 0; i < v; ++i) {
    double sum = 0;
    for (int k = 0; k < n; ++k) sum += gathered[(size_t)k * v + i];
    out[i] = sum / lvec_at(owner, i);
  }
}

/* Lines 5 to 8 of Algorithm 5 on one communicator: gather to rank 0, which replaces its vector by func's result. */
static void gather_level(MPI_Comm comm, double *vec, double *gathered, int v, int world_rank) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Gather(vec, v, MPI_DOUBLE, gathered, v, MPI_DOUBLE, 0, comm);
  if (rank == 0) func(gathered, size, v, world_rank, vec);
}

/* Algorithm 5 from the bottom up: the deepest communicator when the hardware could not split it down to single
 * processes, then the roots of every level. vec holds this process's data on entry; rank 0's holds the result. */
static void process(const hier_levels *h, double *vec, double *gathered, int v, int world_rank) {
  int leaf_size;
  MPI_Comm_size(h->leaf, &leaf_size);
  if (leaf_size > 1) gather_level(h->leaf, vec, gathered, v, world_rank);
  for (int d = h->depth - 1; d >= 0; --d)
    if (h->roots[d] != MPI_COMM_NULL) gather_level(h->roots[d], vec, gathered, v, world_rank);
}

/* Where a rank lies in a hierarchy: how deep it goes, and which sibling its communicator is at each depth. */
typedef struct {
  int depth;
  int key[HIER_MAX_DEPTH];
} path;

static path *gather_paths(const hier_levels *h, int rank, int p) {
  path mine;
  memset(&mine, 0, sizeof mine);
  mine.depth = h->depth;
  memcpy(mine.key, h->key, sizeof(int) * (size_t)h->depth);
  path *all = rank == 0 ? malloc(sizeof(path) * (size_t)p) : NULL;
  MPI_Gather(&mine, (int)sizeof(path), MPI_BYTE, all, (int)sizeof(path), MPI_BYTE, 0, MPI_COMM_WORLD);
  return all;
}

/* The direct computation: the value the subtree of `members` (ascending ranks, all in one depth-d communicator)
 * carries up, into out. Children are taken in the order of their first rank, as the roots communicators are. */
static void direct_value(const path *paths, const int *members, int n, int d, int v, double *out) {
  double *gathered = malloc(sizeof(double) * (size_t)n * v);
  int children = 0;
  if (paths[members[0]].depth == d) { /* a leaf communicator: every member's own data */
    if (n == 1) {
      for (int i = 0; i < v; ++i) out[i] = data_at(members[0], i);
      free(gathered);
      return;
    }
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < v; ++i) gathered[(size_t)k * v + i] = data_at(members[k], i);
    children = n;
  } else {
    int *child = malloc(sizeof(int) * (size_t)n), *done = calloc((size_t)n, sizeof(int));
    for (int first = 0; first < n; ++first) {
      if (done[first]) continue;
      int m = 0;
      for (int k = first; k < n; ++k)
        if (!done[k] && paths[members[k]].key[d] == paths[members[first]].key[d]) child[m++] = members[k], done[k] = 1;
      direct_value(paths, child, m, d + 1, v, gathered + (size_t)children++ * v);
    }
    free(child), free(done);
  }
  func(gathered, children, v, members[0], out);
  free(gathered);
}

/* Rank 0: the elements of result that differ from the direct computation on the tree of `paths`. */
static long direct_check(const path *paths, int p, int v, const double *result) {
  int *all = malloc(sizeof(int) * (size_t)p);
  double *expect = malloc(sizeof(double) * (size_t)v);
  for (int r = 0; r < p; ++r) all[r] = r;
  direct_value(paths, all, p, 0, v, expect);
  long wrong = 0;
  for (int i = 0; i < v; ++i) wrong += memcmp(&expect[i], &result[i], sizeof(double)) != 0;
  free(all), free(expect);
  return wrong;
}

/* The levels where the hierarchy made by hand differs from the hardware one (on this process). */
static long compare_hierarchies(const hier_levels *hw, const hier_levels *hand) {
  if (hw->depth != hand->depth) return 1;
  long differ = 0;
  for (int d = 0; d < hw->depth; ++d) {
    int level, roots = MPI_CONGRUENT;
    MPI_Comm_compare(hw->level[d], hand->level[d], &level);
    if ((hw->roots[d] == MPI_COMM_NULL) != (hand->roots[d] == MPI_COMM_NULL))
      roots = MPI_UNEQUAL;
    else if (hw->roots[d] != MPI_COMM_NULL)
      MPI_Comm_compare(hw->roots[d], hand->roots[d], &roots);
    differ += level != MPI_CONGRUENT || roots != MPI_CONGRUENT;
  }
  return differ;
}

/* The oblivious hierarchy takes the fan-outs of rank 0's branch of the hardware one (how many communicators each
 * split made), so that only the placement of the ranks differs. */
static void oblivious_levels(const hier_levels *hw, int rank, hier_levels *oblivious) {
  int fanout[HIER_MAX_DEPTH + 1] = {0};
  if (rank == 0) {
    fanout[0] = hw->depth;
    for (int d = 0; d < hw->depth; ++d) {
      int index, len;
      char type[MPI_MAX_INFO_VAL + 1];
      MPIX_Comm_get_hlevel_info(hw->level[d], &fanout[d + 1], &index, type, &len);
    }
  }
  MPI_Bcast(fanout, HIER_MAX_DEPTH + 1, MPI_INT, 0, MPI_COMM_WORLD);
  hier_levels_round_robin(MPI_COMM_WORLD, fanout[0], fanout + 1, oblivious);
}

/* Rank 0: the lowest level holding all of its depth-0 communicator (MPIX_Comm_get_min_hlevel). */
static void top_group_span(const hier_levels *h, char *type) {
  int len, n;
  strcpy(type, "-");
  if (h->depth == 0) return;
  MPI_Comm_size(h->level[0], &n);
  int *mine = malloc(sizeof(int) * (size_t)n), *world = malloc(sizeof(int) * (size_t)n);
  MPI_Group group, world_group;
  MPI_Comm_group(h->level[0], &group);
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  for (int r = 0; r < n; ++r) mine[r] = r;
  MPI_Group_translate_ranks(group, n, mine, world_group, world);
  MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, n, world, type, &len);
  MPI_Group_free(&group), MPI_Group_free(&world_group);
  free(mine), free(world);
}

static double least(double a, double b) { return a < b ? a : b; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int max_v = argc > 1 ? atoi(argv[1]) : 65536;
  if (max_v < 1) max_v = 1;

  hier_levels h[FORMS];
  long failures = hier_total_failures(MPI_COMM_WORLD, hier_levels_from_hardware(MPI_COMM_WORLD, &h[HARDWARE]));
  if (failures) {
    MPI_Finalize();
    return 1;
  }
  hier_levels_from_placement(MPI_COMM_WORLD, &h[BY_HAND]);
  oblivious_levels(&h[HARDWARE], rank, &h[OBLIVIOUS]);
  long mismatched = hier_total_failures(MPI_COMM_WORLD, compare_hierarchies(&h[HARDWARE], &h[BY_HAND]));
  failures += mismatched;
  int nodes = hier_node_count(MPI_COMM_WORLD);
  path *paths[FORMS];
  for (int f = 0; f < FORMS; ++f) paths[f] = gather_paths(&h[f], rank, p);
  if (rank == 0) {
    char levels[512], span_hw[MPI_MAX_INFO_VAL + 1], span_oblivious[MPI_MAX_INFO_VAL + 1];
    hier_describe(h[HARDWARE].level, h[HARDWARE].depth, levels, sizeof levels);
    top_group_span(&h[HARDWARE], span_hw);
    top_group_span(&h[OBLIVIOUS], span_oblivious);
    printf("hier_vector: %d rank(s) on %d node(s), hierarchy (rank 0's branch): %s\n", p, nodes, levels);
    printf("hier_vector: hierarchy by hand: %s\n",
           mismatched ? "FAILED, differs from the hardware one" : "congruent with the hardware one at every level");
    printf("hier_vector: rank 0's top communicator lies within: hardware %s, oblivious %s\n", span_hw,
           span_oblivious);
    printf("%9s %5s %12s %12s %12s %12s\n", "doubles", "reps", "hardware us", "by hand us", "oblivious us",
           "obliv/hw");
  }

  double *vec = malloc(sizeof(double) * (size_t)max_v), *result = malloc(sizeof(double) * (size_t)max_v);
  double *gathered = malloc(sizeof(double) * (size_t)max_v * p);
  long wrong[FORMS] = {0, 0, 0};
  int nsizes = 0;
  for (int v = 16 < max_v ? 16 : max_v; v <= max_v; v *= 16, ++nsizes) {
    /* Checks: each tree's result against the direct computation, and by hand against hardware bitwise. */
    for (int f = 0; f < FORMS; ++f) {
      for (int i = 0; i < v; ++i) vec[i] = data_at(rank, i);
      process(&h[f], vec, gathered, v, rank);
      if (rank != 0) continue;
      wrong[f] += direct_check(paths[f], p, v, vec) != 0;
      if (f == HARDWARE) memcpy(result, vec, sizeof(double) * (size_t)v);
      if (f == BY_HAND) wrong[f] += memcmp(result, vec, sizeof(double) * (size_t)v) != 0;
    }
    /* Timing: the best of a few trials, the forms alternating (the test machines are shared). */
    int reps = v <= 256 ? 20 : v <= 4096 ? 10 : 3;
    double best[FORMS] = {1e30, 1e30, 1e30};
    for (int trial = 0; trial < TRIALS; ++trial)
      for (int f = 0; f < FORMS; ++f) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int rep = 0; rep < reps; ++rep) {
          for (int i = 0; i < v; ++i) vec[i] = data_at(rank, i);
          process(&h[f], vec, gathered, v, rank);
        }
        best[f] = least(best[f], hier_max_elapsed(MPI_COMM_WORLD, t0) / reps);
      }
    if (rank == 0)
      printf("%9d %5d %12.1f %12.1f %12.1f %12.2f\n", v, reps, best[HARDWARE] * 1e6, best[BY_HAND] * 1e6,
             best[OBLIVIOUS] * 1e6, best[OBLIVIOUS] / best[HARDWARE]);
  }

  failures += hier_total_failures(MPI_COMM_WORLD, wrong[0] + wrong[1] + wrong[2]);
  if (rank == 0) {
    for (int f = 0; f < FORMS; ++f)
      printf("hier_vector: %s hierarchy: %s for %d sizes\n", form_name[f],
             wrong[f] ? "FAILED, wrong result"
                      : f == BY_HAND ? "bitwise equal to the hardware one and to the direct computation"
                                     : "bitwise equal to the direct computation",
             nsizes);
    printf("hier_vector: %s\n", failures ? "FAILED" : "PASSED");
  }
  for (int f = 0; f < FORMS; ++f) {
    hier_levels_free(&h[f]);
    free(paths[f]);
  }
  free(vec), free(result), free(gathered);
  MPI_Finalize();
  return failures ? 1 : 0;
}
