/* A dynamic window (MPI-4.0 12.2.4) whose memory is several regions attached side by side: every byte an access
 * covers is attached, so a put or get that crosses from one region into the next is correct (as MPICH's
 * win_dynamic_rma_flush_get runs it). Each rank attaches the two halves of one buffer as two regions, and each of
 * three more buffers' thirds as three; then, under MPI_Win_lock_all, puts to its right neighbour a run that starts in
 * the first region and ends in the last, reads it back with MPI_Get, and accumulates (MPI_SUM) over the same span.
 * The target checks its buffers after a barrier: the run's ints and nothing outside it.
 *
 * Then, into a third buffer of which only the middle is attached: a put, then an accumulate (MPI_SUM) of the same
 * data, through derived types on both sides (every other int of the origin into an indexed target of two blocks),
 * large enough that Strata sends their data in messages of their own (rma/channel.cpp); and, with Strata only (an
 * erroneous program, MPI-4.0 12.2.4), a large and a small put and a large accumulate whose bytes start in the
 * attached middle and end past it, and a get of the same span: the target drops them, the get returns, nothing
 * past the attached bytes changes, and a put after them lands. Any number of ranks. */
#include "test_util.h"

enum { HALF = 5000, RUN_START = 1000, RUN = 2 * HALF - 2000, THIRD = 1200, PIECES = 3 };
/* The third buffer: GUARD ints, MIDDLE attached, GUARD; the typed put's two blocks of BLOCK ints, GAP apart. */
enum { GUARD = 64, MIDDLE = 40000, BLOCK = 12000, GAP = 5000, POISON = -5 };

static int expected_typed(int origin, int i) { return origin * 7919 + 3 * i + 1; }

/* The middle of the third buffer once the left neighbour's typed put and accumulate and (with Strata) its accesses
 * past the end are done: the blocks at 0 and BLOCK + GAP, doubled, and the last put after the dropped ones at the
 * end. */
static int expected_middle(int left, int i) {
  if (i < BLOCK) return 2 * expected_typed(left, i);
  if (i >= BLOCK + GAP && i < 2 * BLOCK + GAP) return 2 * expected_typed(left, i - GAP);
#ifdef STRATA
  if (i == MIDDLE - 1) return left + 1;
#endif
  return 0;
}

/* Derived types on both sides, then the accesses past the attached memory (Strata only), to the right neighbour,
 * whose middle starts at `at`. */
static void put_typed(MPI_Win win, int rank, int right, MPI_Aint at) {
  int *src = malloc(sizeof(int) * 4 * BLOCK);
  for (int i = 0; i < 4 * BLOCK; ++i) src[i] = i % 2 ? POISON : expected_typed(rank, i / 2);
  MPI_Datatype every_other, two_blocks;
  CHECK_MPI(MPI_Type_vector(2 * BLOCK, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  const int lengths[2] = {BLOCK, BLOCK}, displs[2] = {0, BLOCK + GAP};
  CHECK_MPI(MPI_Type_indexed(2, lengths, displs, MPI_INT, &two_blocks));
  CHECK_MPI(MPI_Type_commit(&two_blocks));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
  CHECK_MPI(MPI_Put(src, 1, every_other, right, at, 1, two_blocks, win));
  CHECK_MPI(MPI_Win_flush(right, win));
  CHECK_MPI(MPI_Accumulate(src, 1, every_other, right, at, 1, two_blocks, MPI_SUM, win));
#ifdef STRATA
  int *got = malloc(sizeof(int) * 2 * GUARD);
  for (int i = 0; i < 2 * GUARD; ++i) got[i] = POISON;
  const MPI_Aint near_end = MPI_Aint_add(at, (MPI_Aint)(MIDDLE - GUARD) * (MPI_Aint)sizeof(int));
  CHECK_MPI(MPI_Put(src, 3 * BLOCK, MPI_INT, right, near_end, 3 * BLOCK, MPI_INT, win));
  CHECK_MPI(MPI_Put(src, 2 * GUARD, MPI_INT, right, near_end, 2 * GUARD, MPI_INT, win));
  CHECK_MPI(MPI_Accumulate(src, 3 * BLOCK, MPI_INT, right, near_end, 3 * BLOCK, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Get(got, 2 * GUARD, MPI_INT, right, near_end, 2 * GUARD, MPI_INT, win));
  CHECK_MPI(MPI_Win_flush(right, win));
  for (int i = 0; i < 2 * GUARD; ++i) CHECK(got[i] == POISON);
  const int last = rank + 1;
  const MPI_Aint last_at = MPI_Aint_add(at, (MPI_Aint)(MIDDLE - 1) * (MPI_Aint)sizeof(int));
  CHECK_MPI(MPI_Put(&last, 1, MPI_INT, right, last_at, 1, MPI_INT, win));
  free(got);
#endif
  CHECK_MPI(MPI_Win_unlock(right, win));
  CHECK_MPI(MPI_Type_free(&every_other));
  CHECK_MPI(MPI_Type_free(&two_blocks));
  free(src);
}

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

  int *guarded = calloc(MIDDLE + 2 * GUARD, sizeof(int));
  CHECK_MPI(MPI_Win_attach(win, guarded + GUARD, sizeof(int) * MIDDLE));
  MPI_Aint middle = 0;
  CHECK_MPI(MPI_Get_address(guarded + GUARD, &middle));
  CHECK_MPI(MPI_Allgather(&middle, 1, MPI_AINT, theirs, 1, MPI_AINT, MPI_COMM_WORLD));
  put_typed(win, rank, right, theirs[right]);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
  for (int i = 0; i < MIDDLE + 2 * GUARD; ++i) {
    const int in_middle = i >= GUARD && i < GUARD + MIDDLE;
    CHECK(guarded[i] == (in_middle ? expected_middle(left, i - GUARD) : 0));
  }
  CHECK_MPI(MPI_Win_unlock(rank, win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_detach(win, guarded + GUARD));
  free(guarded);
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
