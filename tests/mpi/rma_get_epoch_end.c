/* A get reads the target's memory as it was during the epoch, even when the target changes that memory as soon as
 * its side of the epoch ends (MPICH's rma/at_complete does this under PSCW). Pairs of ranks (even origin, odd
 * target; an odd last rank sits out) on an MPI_Win_create window of 100,000 ints, large enough for a rendezvous:
 *  - fence: the target writes after its closing MPI_Win_fence;
 *  - PSCW: after MPI_Win_wait;
 *  - lock: the target's own exclusive lock waits behind the origin's (the origin says when it holds it), then it
 *    writes; the lock passes on at the origin's MPI_Win_unlock.
 * The origin checks every int it read against the values before the write. 20 rounds each, values new each round. */
#include "test_util.h"

enum { kInts = 100000, kRounds = 20 };
enum { MODE_FENCE, MODE_PSCW, MODE_LOCK, MODES };
static const char *mode_name[MODES] = {"fence", "PSCW", "lock"};

static int value(int round, int i, int overwritten) { return round * 1000003 + i * 3 + overwritten; }

static void target_overwrites(int *mem, int round) {
  for (int i = 0; i < kInts; ++i) mem[i] = value(round, i, 1);
}

static void one_round(MPI_Win win, int *mem, int *got, int mode, int round, int rank, int partner, MPI_Group pair) {
  const int origin = rank % 2 == 0;
  for (int i = 0; i < kInts; ++i) mem[i] = value(round, i, 0), got[i] = -1;
  test_barrier();
  if (mode == MODE_FENCE) {
    CHECK_MPI(MPI_Win_fence(0, win));
    if (origin) CHECK_MPI(MPI_Get(got, kInts, MPI_INT, partner, 0, kInts, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    if (!origin) target_overwrites(mem, round);
  } else if (mode == MODE_PSCW && origin) {
    CHECK_MPI(MPI_Win_start(pair, 0, win));
    CHECK_MPI(MPI_Get(got, kInts, MPI_INT, partner, 0, kInts, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
  } else if (mode == MODE_PSCW) {
    CHECK_MPI(MPI_Win_post(pair, 0, win));
    CHECK_MPI(MPI_Win_wait(win));
    target_overwrites(mem, round);
  } else if (origin) {
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, partner, 0, win));
    CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, partner, 0, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Get(got, kInts, MPI_INT, partner, 0, kInts, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(partner, win));
  } else {
    CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    target_overwrites(mem, round);
    CHECK_MPI(MPI_Win_unlock(rank, win));
  }
  if (!origin) return;
  for (int i = 0; i < kInts; ++i)
    if (got[i] != value(round, i, 0)) {
      char detail[160];
      snprintf(detail, sizeof detail, ": %s, round %d, int %d read %d, expected %d (%d once overwritten)",
               mode_name[mode], round, i, got[i], value(round, i, 0), value(round, i, 1));
      test_fail(__FILE__, __LINE__, "get result", detail);
    }
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank, size;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const int partner = rank % 2 == 0 ? (rank + 1 < size ? rank + 1 : -1) : rank - 1;
  int *mem = test_malloc(sizeof(int) * kInts), *got = test_malloc(sizeof(int) * kInts);
  MPI_Win win;
  CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)sizeof(int) * kInts, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  MPI_Group world, pair = MPI_GROUP_NULL;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  CHECK_MPI(MPI_Group_incl(world, 1, partner >= 0 ? &partner : &rank, &pair));
  for (int mode = 0; mode < MODES; ++mode)
    for (int round = 0; round < kRounds; ++round) {
      if (partner >= 0 || mode == MODE_FENCE)
        one_round(win, mem, got, mode, round, rank, partner >= 0 ? partner : rank, pair);
      else
        test_barrier(); /* the odd last rank: only fence is collective over the window */
    }
  CHECK_MPI(MPI_Group_free(&pair));
  CHECK_MPI(MPI_Group_free(&world));
  CHECK_MPI(MPI_Win_free(&win));
  free(mem), free(got);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
