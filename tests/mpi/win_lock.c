/* MPI_Win_lock / MPI_Win_unlock on a shared window: exclusive locks exclude each other (every process increments
 * a counter in rank 0's part, read-modify-write with a yield in between, under MPI_LOCK_EXCLUSIVE: the count must
 * be exact and no two processes inside at once), shared locks coexist (all processes hold one on the same target
 * across a barrier), an exclusive lock holds shared lockers off until it is released, a lock on every target at
 * once, MPI_MODE_NOCHECK, and MPI_PROC_NULL targets. Runs on any number of ranks of one node. */
#include <sched.h>

#include "win_util.h"

enum { INCREMENTS = 200 };

typedef struct {
  volatile long counter;
  volatile int inside;
  volatile int released;
} Shared;

int main(int argc, char **argv) {
  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  Shared *mine = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate_shared((MPI_Aint)sizeof(Shared), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win));
  Shared **part = test_malloc(sizeof(Shared *) * (size_t)size);
  for (int r = 0; r < size; ++r) {
    MPI_Aint sz;
    int du;
    CHECK_MPI(MPI_Win_shared_query(win, r, &sz, &du, &part[r]));
  }
  CHECK_MPI(MPI_Win_fence(0, win));
  mine->counter = 0;
  mine->inside = 0;
  mine->released = 0;
  CHECK_MPI(MPI_Win_fence(0, win));

  /* Exclusive: a counter that only survives if no two increments overlap. */
  for (int i = 0; i < INCREMENTS; ++i) {
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
    CHECK(part[0]->inside == 0);
    part[0]->inside = 1;
    long v = part[0]->counter;
    if (i % 8 == 0) sched_yield(); /* invite another process in, if the lock let it */
    part[0]->counter = v + 1;
    part[0]->inside = 0;
    CHECK_MPI(MPI_Win_unlock(0, win));
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
  CHECK(part[0]->counter == (long)INCREMENTS * size);
  CHECK_MPI(MPI_Win_unlock(0, win));

  /* Shared: every process holds a shared lock on the last rank while all meet in a barrier. */
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, size - 1, 0, win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_flush(size - 1, win));
  CHECK_MPI(MPI_Win_unlock(size - 1, win));

  /* An exclusive lock keeps shared lockers out until it is released (and what it wrote is seen after). */
  const int target = size - 1;
  if (rank == 0) {
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    usleep(20000); /* the others are trying to lock by now */
    part[target]->released = 1;
    CHECK_MPI(MPI_Win_unlock(target, win));
  } else {
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
    CHECK(part[target]->released == 1);
    CHECK_MPI(MPI_Win_unlock(target, win));
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* Every target at once (taken in one order everywhere, so exclusive ones cannot deadlock), then unlocked in
   * another order; flush_all covers them. */
  for (int r = 0; r < size; ++r)
    CHECK_MPI(MPI_Win_lock((r + rank) % 2 ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, r, 0, win));
  CHECK_MPI(MPI_Win_flush_all(win));
  for (int r = size - 1; r >= 0; --r) CHECK_MPI(MPI_Win_unlock(r, win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* MPI_MODE_NOCHECK takes no lock word: my own part, which nobody else locks meanwhile. */
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, MPI_MODE_NOCHECK, win));
  mine->released = 2;
  CHECK_MPI(MPI_Win_unlock(rank, win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, (rank + 1) % size, 0, win)); /* the lock words are still sound */
  CHECK(part[(rank + 1) % size]->released == 2);
  CHECK_MPI(MPI_Win_unlock((rank + 1) % size, win));

  /* MPI_PROC_NULL: accepted, nothing happens (no epoch opens). */
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, MPI_PROC_NULL, 0, win));
  CHECK_MPI(MPI_Win_flush(MPI_PROC_NULL, win));
  CHECK_MPI(MPI_Win_flush_local(MPI_PROC_NULL, win));
  CHECK_MPI(MPI_Win_unlock(MPI_PROC_NULL, win));

  CHECK_MPI(MPI_Win_free(&win));
  free(part);
  if (rank == 0) printf("win_lock: %d ranks OK\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
