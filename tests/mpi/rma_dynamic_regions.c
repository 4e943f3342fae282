/* A dynamic window (MPI-4.0 12.2.4) whose memory is several regions attached side by side: every byte an access
 * covers is attached, so a put or get that crosses from one region into the next is correct (as MPICH's
 * win_dynamic_rma_flush_get runs it). Each rank attaches the two halves of one buffer as two regions, and each of
 * three more buffers' thirds as three; then, under MPI_Win_lock_all, puts to its right neighbour a run that starts in
 * the first region and ends in the last, reads it back with MPI_Get, and accumulates (MPI_SUM) over the same span.
 * The target checks its buffers after a barrier: the run's ints and nothing outside it. Any number of ranks. */
#include "test_util.h"

enum { HALF = 5000, RUN_START = 1000, RUN = 2 * HALF - 2000, THIRD = 1200, PIECES = 3 };

static int expected_put(int origin, int i) { return origin * 100003 + i; }

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank, size;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int *two = calloc(2 * HALF, sizeof(int)), *three = calloc(PIECES * THIRD, sizeof(int));
  int *src = malloc(sizeof(int) * RUN), *back = malloc(sizeof(int) * RUN);
  MPI_Win win;
  CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  CHECK_MPI(MPI_Win_attach(win, two, sizeof(int) * HALF));
  CHECK_MPI(MPI_Win_attach(win, two + HALF, sizeof(int) * HALF));
  for (int p = 0; p < PIECES; ++p) CHECK_MPI(MPI_Win_attach(win, three + p * THIRD, sizeof(int) * THIRD));
  MPI_Aint mine[2], theirs[2 * 64];
  CHECK(size <= 64);
  CHECK_MPI(MPI_Get_address(two, &mine[0]));
  CHECK_MPI(MPI_Get_address(three, &mine[1]));
  CHECK_MPI(MPI_Allgather(mine, 2, MPI_AINT, theirs, 2, MPI_AINT, MPI_COMM_WORLD));
  const MPI_Aint two_at = MPI_Aint_add(theirs[2 * right], RUN_START * (MPI_Aint)sizeof(int));
  const MPI_Aint three_at = MPI_Aint_add(theirs[2 * right + 1], 10 * (MPI_Aint)sizeof(int));
  const int three_run = PIECES * THIRD - 20;
  for (int i = 0; i < RUN; ++i) src[i] = expected_put(rank, i), back[i] = -1;

  CHECK_MPI(MPI_Win_lock_all(0, win));
  CHECK_MPI(MPI_Put(src, RUN, MPI_INT, right, two_at, RUN, MPI_INT, win));
  CHECK_MPI(MPI_Win_flush(right, win));
  CHECK_MPI(MPI_Get(back, RUN, MPI_INT, right, two_at, RUN, MPI_INT, win));
  CHECK_MPI(MPI_Win_flush(right, win));
  for (int i = 0; i < RUN; ++i) CHECK(back[i] == expected_put(rank, i));
  CHECK_MPI(MPI_Accumulate(src, three_run, MPI_INT, right, three_at, three_run, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Accumulate(src, three_run, MPI_INT, right, three_at, three_run, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
  for (int i = 0; i < 2 * HALF; ++i) {
    const int in_run = i >= RUN_START && i < RUN_START + RUN;
    CHECK(two[i] == (in_run ? expected_put(left, i - RUN_START) : 0));
  }
  for (int i = 0; i < PIECES * THIRD; ++i) {
    const int in_run = i >= 10 && i < 10 + three_run;
    CHECK(three[i] == (in_run ? 2 * expected_put(left, i - 10) : 0));
  }
  CHECK_MPI(MPI_Win_unlock(rank, win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_detach(win, two));
  CHECK_MPI(MPI_Win_detach(win, two + HALF));
  for (int p = 0; p < PIECES; ++p) CHECK_MPI(MPI_Win_detach(win, three + p * THIRD));
  CHECK_MPI(MPI_Win_free(&win));
  free(two);
  free(three);
  free(src);
  free(back);
  if (rank == 0) printf("rma_dynamic_regions: %d ranks OK\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
