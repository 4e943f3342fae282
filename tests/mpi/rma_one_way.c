/* One-sided traffic in one direction only, as benchmarks run it (OSU's put latency and bandwidth): the even ranks
 * put to (and get from) their odd partner under each synchronisation mode, and the partner takes part only through
 * the synchronisation calls, so it has no receive of its own posted while the operations arrive. Sizes from 1 int to
 * 400 KB cross every path a message may take (eager, eager held back, rendezvous); each size gets a new window, as in
 * OSU. The partner checks every int it received, the origin every int it read. An odd last rank only synchronises
 * with itself. */
#include "test_util.h"

enum { MODE_PSCW, MODE_LOCK, MODE_FLUSH, MODE_LOCK_ALL, MODE_FENCE, MODES };

static int expected(int origin, int n, int i) { return origin * 1000003 + n * 7 + i; }

static void one_size(int rank, int partner, int n, int mode, MPI_Group pair) {
  const int origin = rank % 2 == 0 && partner >= 0;
  int *base = NULL, *src = malloc(sizeof(int) * (size_t)n), *back = malloc(sizeof(int) * (size_t)n);
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate((MPI_Aint)(sizeof(int) * (size_t)n), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                             &win));
  for (int i = 0; i < n; ++i) base[i] = -1, src[i] = expected(rank, n, i), back[i] = -2;
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  const int repeats = 3;
  for (int r = 0; r < repeats; ++r) {
    if (mode == MODE_FENCE) CHECK_MPI(MPI_Win_fence(0, win));
    if (origin) {
      if (mode == MODE_PSCW) CHECK_MPI(MPI_Win_start(pair, 0, win));
      if (mode == MODE_LOCK || mode == MODE_FLUSH) CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, partner, 0, win));
      if (mode == MODE_LOCK_ALL) CHECK_MPI(MPI_Win_lock_all(0, win));
      CHECK_MPI(MPI_Put(src, n, MPI_INT, partner, 0, n, MPI_INT, win));
      if (mode == MODE_FLUSH || mode == MODE_LOCK_ALL) {
        CHECK_MPI(MPI_Win_flush(partner, win));
        CHECK_MPI(MPI_Get(back, n, MPI_INT, partner, 0, n, MPI_INT, win));
        CHECK_MPI(MPI_Win_flush(partner, win));
        for (int i = 0; i < n; ++i) CHECK(back[i] == expected(rank, n, i));
      }
      if (mode == MODE_PSCW) CHECK_MPI(MPI_Win_complete(win));
      if (mode == MODE_LOCK || mode == MODE_FLUSH) CHECK_MPI(MPI_Win_unlock(partner, win));
      if (mode == MODE_LOCK_ALL) CHECK_MPI(MPI_Win_unlock_all(win));
    } else if (partner >= 0 && mode == MODE_PSCW) {
      CHECK_MPI(MPI_Win_post(pair, 0, win));
      CHECK_MPI(MPI_Win_wait(win));
    }
    if (mode == MODE_FENCE) CHECK_MPI(MPI_Win_fence(0, win));
    /* The partner's own memory: read after its epoch ended (wait, fence) or, for passive target, after a barrier
     * that follows the origin's unlock, inside a lock on itself (MPI-4.0 12.7, separate-model rules). */
    if (mode != MODE_PSCW && mode != MODE_FENCE) CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (!origin && partner >= 0) {
      if (mode != MODE_PSCW && mode != MODE_FENCE) CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
      for (int i = 0; i < n; ++i) CHECK(base[i] == expected(partner, n, i));
      if (mode != MODE_PSCW && mode != MODE_FENCE) CHECK_MPI(MPI_Win_unlock(rank, win));
    }
  }
  CHECK_MPI(MPI_Win_free(&win));
  free(src);
  free(back);
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank, size;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const int partner = (rank ^ 1) < size ? rank ^ 1 : -1;
  MPI_Group world, pair = MPI_GROUP_EMPTY;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  if (partner >= 0) CHECK_MPI(MPI_Group_incl(world, 1, &partner, &pair));
  static const int sizes[] = {1, 1024, 4096, 8000, 16384, 100000};
  for (int mode = 0; mode < MODES; ++mode)
    for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); ++s) one_size(rank, partner, sizes[s], mode, pair);
  if (pair != MPI_GROUP_EMPTY) CHECK_MPI(MPI_Group_free(&pair));
  CHECK_MPI(MPI_Group_free(&world));
  if (rank == 0) printf("rma_one_way: %d ranks OK\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
