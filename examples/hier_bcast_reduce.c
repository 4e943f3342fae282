/* hier_bcast_reduce: broadcast and reduce as a loop over the levels of the hardware hierarchy, against the native
 * MPI_Bcast and MPI_Reduce (Goglin et al. 2018, section 7.2: "a loop over the levels of the hierarchy calling the
 * [native] version of the collective").
 *
 *   mpiexec -n 8 --nodes 4 --topology synthetic:"pack:2 core:2 pu:1" --bind-to core ./hier_bcast_reduce [max_bytes]
 *
 * The hierarchy is the paper's: MPIX_Comm_hsplit_with_roots from MPI_COMM_WORLD, then from each new communicator,
 * down to single processes (hier_common.c). roots[d] joins the first processes of the depth-d communicators of one
 * parent, and its rank 0 is the parent's rank 0. So, for root 0:
 *   broadcast  goes down: roots[0], roots[1], ... each broadcasts from its rank 0, which received at the level above;
 *              then the deepest communicator, when the hardware could not split it down to single processes;
 *   reduce     goes up the same way: the deepest communicator, then roots[depth-1], ..., roots[0], each reducing its
 *              members' partial results into its rank 0, which carries them up one level.
 * MPI_INT sums are exact in any order, so both collectives are checked for equality with the native ones and with
 * the values computed directly, for every size (4 bytes, then x16 up to max_bytes, default 256 KiB). Rank 0 then
 * prints, per size, the time of one call in each form (the largest over the ranks, best of 3 trials) and
 * native/hierarchical (the paper's enhancement factor). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hier_common.h"

enum { TRIALS = 3 };

/* Each rank's contribution to the reduce, and the root's broadcast data: small, so that sums of ints stay exact. */
static int contribution(int rank, int i) { return (rank * 7 + i * 3) % 11 - 5; }
static int broadcast_value(int i) { return i * 31 % 1009; }

/* Paper section 7.2, broadcast from rank 0 of the hierarchy's communicator: level by level down the roots. */
static void hier_bcast(int *buf, int count, const hier_levels *h) {
  for (int d = 0; d < h->depth; ++d)
    if (h->roots[d] != MPI_COMM_NULL) MPI_Bcast(buf, count, MPI_INT, 0, h->roots[d]);
  MPI_Bcast(buf, count, MPI_INT, 0, h->leaf);
}

/* One reduce step: the members' partial sums into rank 0's, in place there (its partial holds its own subtree). */
static void reduce_into_rank0(int *partial, int count, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  MPI_Reduce(rank == 0 ? MPI_IN_PLACE : partial, partial, count, MPI_INT, MPI_SUM, 0, comm);
}

/* Reduce (sum) of every process's `send` into `partial` on rank 0, up the same levels: the deepest communicator,
 * then the roots from the deepest to roots[0]. */
static void hier_reduce(const int *send, int *partial, int count, const hier_levels *h) {
  memcpy(partial, send, sizeof(int) * (size_t)count);
  reduce_into_rank0(partial, count, h->leaf);
  for (int d = h->depth - 1; d >= 0; --d)
    if (h->roots[d] != MPI_COMM_NULL) reduce_into_rank0(partial, count, h->roots[d]);
}

/* The ranks (of world) whose buffer differs from the root's data after each broadcast. */
static long check_bcast(int hierarchical, int *buf, int count, const hier_levels *h, int rank) {
  for (int i = 0; i < count; ++i) buf[i] = rank == 0 ? broadcast_value(i) : -1;
  if (hierarchical)
    hier_bcast(buf, count, h);
  else
    MPI_Bcast(buf, count, MPI_INT, 0, MPI_COMM_WORLD);
  for (int i = 0; i < count; ++i)
    if (buf[i] != broadcast_value(i)) return 1;
  return 0;
}

/* Rank 0: the elements where the hierarchical or the native sum differs from the direct sum over the ranks. */
static long check_reduce(int *send, int *hier, int *native, int count, const hier_levels *h, int rank, int size) {
  for (int i = 0; i < count; ++i) send[i] = contribution(rank, i);
  MPI_Reduce(send, native, count, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  hier_reduce(send, hier, count, h);
  long wrong = 0;
  if (rank != 0) return 0;
  for (int i = 0; i < count; ++i) {
    int direct = 0;
    for (int r = 0; r < size; ++r) direct += contribution(r, i);
    wrong += hier[i] != direct || native[i] != direct;
  }
  return wrong;
}

/* Time per call, the largest over the ranks: reps calls of one form after a barrier. */
static double time_bcast(int hierarchical, int *buf, int count, int reps, const hier_levels *h) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int rep = 0; rep < reps; ++rep)
    if (hierarchical)
      hier_bcast(buf, count, h);
    else
      MPI_Bcast(buf, count, MPI_INT, 0, MPI_COMM_WORLD);
  return hier_max_elapsed(MPI_COMM_WORLD, t0) / reps;
}

static double time_reduce(int hierarchical, const int *send, int *out, int count, int reps, const hier_levels *h) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int rep = 0; rep < reps; ++rep)
    if (hierarchical)
      hier_reduce(send, out, count, h);
    else
      MPI_Reduce(send, out, count, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  return hier_max_elapsed(MPI_COMM_WORLD, t0) / reps;
}

static double least(double a, double b) { return a < b ? a : b; }

static void print_row(const char *op, int bytes, int reps, double hier_s, double native_s) {
  printf("%8s %9d %5d %11.1f %11.1f %12.2f\n", op, bytes, reps, hier_s * 1e6, native_s * 1e6, native_s / hier_s);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int max_bytes = argc > 1 ? atoi(argv[1]) : 256 * 1024;
  if (max_bytes < (int)sizeof(int)) max_bytes = sizeof(int);

  hier_levels h;
  long failures = hier_total_failures(MPI_COMM_WORLD, hier_levels_from_hardware(MPI_COMM_WORLD, &h));
  int nodes = hier_node_count(MPI_COMM_WORLD);
  if (rank == 0) {
    char levels[512];
    hier_describe(h.level, h.depth, levels, sizeof levels);
    printf("hier_bcast_reduce: %d rank(s) on %d node(s), hierarchy (rank 0's branch): %s\n", size, nodes, levels);
  }
  int max_count = max_bytes / (int)sizeof(int);
  int *buf = malloc(sizeof(int) * (size_t)max_count), *out = malloc(sizeof(int) * (size_t)max_count);
  int *native = malloc(sizeof(int) * (size_t)max_count);

  long bcast_wrong[2] = {0, 0}, reduce_wrong = 0;
  int nsizes = 0;
  if (failures == 0) {
    if (rank == 0) printf("%8s %9s %5s %11s %11s %12s\n", "op", "bytes", "reps", "hier us", "native us",
                          "native/hier");
    for (int count = 1; count <= max_count; count *= 16, ++nsizes) {
      int bytes = count * (int)sizeof(int), reps = bytes <= 1024 ? 20 : bytes <= 16384 ? 10 : 3;
      for (int hierarchical = 0; hierarchical < 2; ++hierarchical)
        bcast_wrong[hierarchical] += hier_total_failures(MPI_COMM_WORLD, check_bcast(hierarchical, buf, count, &h,
                                                                                     rank));
      reduce_wrong += hier_total_failures(MPI_COMM_WORLD, check_reduce(buf, out, native, count, &h, rank, size));
      /* The best of a few trials, the forms alternating: the test machines are shared and oversubscribed. */
      double hier_bcast_s = 1e30, native_bcast_s = 1e30, hier_reduce_s = 1e30, native_reduce_s = 1e30;
      for (int trial = 0; trial < TRIALS; ++trial) {
        hier_bcast_s = least(hier_bcast_s, time_bcast(1, buf, count, reps, &h));
        native_bcast_s = least(native_bcast_s, time_bcast(0, buf, count, reps, &h));
        hier_reduce_s = least(hier_reduce_s, time_reduce(1, buf, out, count, reps, &h));
        native_reduce_s = least(native_reduce_s, time_reduce(0, buf, out, count, reps, &h));
      }
      if (rank == 0) {
        print_row("bcast", bytes, reps, hier_bcast_s, native_bcast_s);
        print_row("reduce", bytes, reps, hier_reduce_s, native_reduce_s);
      }
    }
  }

  failures += bcast_wrong[0] + bcast_wrong[1] + reduce_wrong;
  if (rank == 0 && nsizes > 0) {
    if (bcast_wrong[0] + bcast_wrong[1])
      printf("FAILED: bcast: %ld (rank, size) pairs wrong in hierarchical form, %ld in native form\n", bcast_wrong[1],
             bcast_wrong[0]);
    else
      printf("hier_bcast_reduce: bcast: every rank got the root's data in both forms for %d sizes\n", nsizes);
    if (reduce_wrong)
      printf("FAILED: reduce: %ld elements differ from the direct sum\n", reduce_wrong);
    else
      printf("hier_bcast_reduce: reduce: hierarchical = native = direct MPI_INT sum for %d sizes\n", nsizes);
  }
  if (rank == 0) printf("hier_bcast_reduce: %s\n", failures ? "FAILED" : "PASSED");
  hier_levels_free(&h);
  free(buf), free(out), free(native);
  MPI_Finalize();
  return failures ? 1 : 0;
}
