/* One-sided traffic in one direction only, as benchmarks run it (OSU's put latency and bandwidth): the even ranks
 * put to (and get from) their odd partner under each synchronisation mode, and the partner takes part only through
 * the synchronisation calls, so it has no receive of its own posted while the operations arrive. Sizes from 1 int to
 * 400 KB cross every path a message may take (eager, eager held back, rendezvous); each size gets a new window, as in
 * OSU. Two kinds of window: MPI_Win_allocate with contiguous origin buffers, and MPI_Win_create on malloc'd memory
 * with a strided origin (every other int of a buffer twice as long, through a vector type), which a library moving
 * the bytes straight into the target must pack and unpack on the way. The partner checks every int it received, the
 * origin every int it read (and that the gaps of its strided buffer stayed untouched). An odd last rank only
 * synchronises with itself. Passes with MPICH 4.0.2. */
#include "test_util.h"

enum { MODE_PSCW, MODE_LOCK, MODE_FLUSH, MODE_LOCK_ALL, MODE_FENCE, MODES };
enum { ALLOCATED, CREATED_STRIDED, KINDS };

static int expected(int origin, int n, int i) { return origin * 1000003 + n * 7 + i; }

static void one_size(int rank, int partner, int n, int mode, int kind, MPI_Group pair) {
  const int origin = rank % 2 == 0 && partner >= 0;
  const int stride = kind == CREATED_STRIDED ? 2 : 1;
  const size_t window_bytes = sizeof(int) * (size_t)n, origin_bytes = window_bytes * (size_t)stride;
  int *base = NULL, *src = malloc(origin_bytes), *back = malloc(origin_bytes);
  MPI_Win win;
  MPI_Datatype type = MPI_INT;
  int count = n;
  if (kind == CREATED_STRIDED) {
    base = malloc(window_bytes);
    CHECK_MPI(MPI_Win_create(base, (MPI_Aint)window_bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_INT, &type));
    CHECK_MPI(MPI_Type_commit(&type));
    count = 1;
  } else {
    /* Whole 16 bytes: MPICH 4.0.2's MPI_Win_allocate otherwise hands ranks above 0 a base 4 to 12 bytes below their
     * memory (as rma_ops.c notes). */
    const MPI_Aint rounded = (MPI_Aint)(window_bytes + 15) / 16 * 16;
    CHECK_MPI(MPI_Win_allocate(rounded, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
  }
  for (int i = 0; i < n; ++i) base[i] = -1;
  for (int i = 0; i < n * stride; ++i) src[i] = i % stride ? -3 : expected(rank, n, i / stride), back[i] = -2;
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  const int repeats = 3;
  for (int r = 0; r < repeats; ++r) {
    if (mode == MODE_FENCE) CHECK_MPI(MPI_Win_fence(0, win));
    if (origin) {
      if (mode == MODE_PSCW) CHECK_MPI(MPI_Win_start(pair, 0, win));
      if (mode == MODE_LOCK || mode == MODE_FLUSH) CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, partner, 0, win));
      if (mode == MODE_LOCK_ALL) CHECK_MPI(MPI_Win_lock_all(0, win));
      CHECK_MPI(MPI_Put(src, count, type, partner, 0, n, MPI_INT, win));
      if (mode == MODE_FLUSH || mode == MODE_LOCK_ALL) {
        CHECK_MPI(MPI_Win_flush(partner, win));
        CHECK_MPI(MPI_Get(back, count, type, partner, 0, n, MPI_INT, win));
        CHECK_MPI(MPI_Win_flush(partner, win));
        for (int i = 0; i < n * stride; ++i) CHECK(back[i] == (i % stride ? -2 : expected(rank, n, i / stride)));
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
  if (kind == CREATED_STRIDED) {
    CHECK_MPI(MPI_Type_free(&type));
    free(base);
  }
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
  for (int kind = 0; kind < KINDS; ++kind)
    for (int mode = 0; mode < MODES; ++mode)
      for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); ++s)
        one_size(rank, partner, sizes[s], mode, kind, pair);
  if (pair != MPI_GROUP_EMPTY) CHECK_MPI(MPI_Group_free(&pair));
  CHECK_MPI(MPI_Group_free(&world));
  if (rank == 0) printf("rma_one_way: %d ranks OK\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
