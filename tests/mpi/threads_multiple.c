/* MPI_THREAD_MULTIPLE (MPI-4.0 11.6): THREADS threads per process in MPI at once (the main thread is one of them),
 * each on work another thread's progress depends on:
 *   - a chain of receives from this process itself: thread t waits (in MPI_Recv, an MPI_Iprobe loop or an MPI_Test
 *     loop) for thread t-1's send, so a thread waiting in a call, or looping on one, has to let the others into the
 *     library;
 *   - collectives on each thread's own communicator, all at the same time;
 *   - communicator creation in every thread at once (MPI_Comm_dup of the thread's communicator and of
 *     MPI_COMM_SELF, MPI_Comm_split), the ranks starting in different orders, which is how context-id agreements
 *     starve each other, and MPICH's comm_dup_deadlock pattern; each new communicator is used (an allreduce checked
 *     against its closed form);
 *   - matched probes on MPI_COMM_WORLD, each thread with its own tag, so the threads share one matching queue.
 * A broken library hangs (mpiexec's limit fails the test), crashes, or delivers wrong values. */
#include "test_util.h"

#include <pthread.h>
#include <unistd.h>

enum { THREADS = 3, CREATIONS = 12, PROBES = 50 };

static int rank, size;
static MPI_Comm parents[THREADS];

static void self_chain(int t) {
  int value = -1;
  if (t == 0) {  /* starts the chain late, so the others are already blocked in MPI_Recv */
    usleep(20000);
    value = 0;
    CHECK_MPI(MPI_Send(&value, 1, MPI_INT, rank, 100 + 1, MPI_COMM_WORLD));
    MPI_Request request; /* a test loop, which must let the other threads in as a blocking wait does */
    int done = 0;
    CHECK_MPI(MPI_Irecv(&value, 1, MPI_INT, rank, 100, MPI_COMM_WORLD, &request));
    while (!done) CHECK_MPI(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
    CHECK(value == THREADS * (THREADS - 1) / 2); /* every thread added its number once */
  } else {
    int arrived = 0; /* and a probe loop */
    while (t == 1 && !arrived) CHECK_MPI(MPI_Iprobe(rank, 100 + t, MPI_COMM_WORLD, &arrived, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Recv(&value, 1, MPI_INT, rank, 100 + t, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    value += t;
    CHECK_MPI(MPI_Send(&value, 1, MPI_INT, rank, 100 + (t + 1) % THREADS, MPI_COMM_WORLD));
  }
}

/* sum over ranks r of (r * THREADS + t) */
static void check_allreduce(MPI_Comm comm, int t) {
  int members = 0, mine = 0, sum = -1;
  CHECK_MPI(MPI_Comm_size(comm, &members));
  CHECK_MPI(MPI_Comm_rank(comm, &mine));
  int contribution = mine * THREADS + t;
  CHECK_MPI(MPI_Allreduce(&contribution, &sum, 1, MPI_INT, MPI_SUM, comm));
  CHECK(sum == THREADS * members * (members - 1) / 2 + t * members);
}

static void creations(int t) {
  for (int i = 0; i < CREATIONS; ++i) {
    if ((rank + t + i) % 2) usleep(500); /* different orders on different ranks */
    MPI_Comm dup, self_dup, half;
    CHECK_MPI(MPI_Comm_dup(parents[t], &dup));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &self_dup));
    CHECK_MPI(MPI_Comm_split(parents[t], rank % 2, size - rank, &half));
    check_allreduce(dup, t);
    check_allreduce(self_dup, t);
    int half_size = -1, half_rank = -1;
    CHECK_MPI(MPI_Comm_size(half, &half_size));
    CHECK_MPI(MPI_Comm_rank(half, &half_rank));
    CHECK(half_size == (size - rank % 2 + 1) / 2);
    CHECK(half_rank == (size - 1 - rank) / 2); /* keys size - rank: the highest rank comes first */
    check_allreduce(half, t);
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Comm_free(&self_dup));
    CHECK_MPI(MPI_Comm_free(&dup));
  }
}

/* MPICH's comm_dup_deadlock pattern: on each rank one thread starts late, so when it dups MPI_COMM_SELF another
 * thread's dup over all ranks is halfway through agreeing on a context id, and that agreement waits for a rank
 * whose late thread is itself in MPI_COMM_SELF's dup. A one-process communicator must not wait for it. */
static pthread_mutex_t self_dup_lock = PTHREAD_MUTEX_INITIALIZER;

static void late_creations(int t) {
  if (t == rank) usleep(100000);
  MPI_Comm self_dup, dup;
  CHECK(pthread_mutex_lock(&self_dup_lock) == 0);
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &self_dup));
  CHECK(pthread_mutex_unlock(&self_dup_lock) == 0);
  CHECK_MPI(MPI_Comm_free(&self_dup));
  CHECK_MPI(MPI_Comm_dup(parents[t], &dup));
  check_allreduce(dup, t);
  CHECK_MPI(MPI_Comm_free(&dup));
}

static void matched_probes(int t) {
  int right = (rank + 1) % size, left = (rank - 1 + size) % size, tag = 200 + t;
  for (int i = 0; i < PROBES; ++i) {
    int out = (rank * THREADS + t) * 1000 + i, in = -1;
    MPI_Request request;
    MPI_Message message;
    MPI_Status status;
    CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, right, tag, MPI_COMM_WORLD, &request));
    CHECK_MPI(MPI_Mprobe(left, tag, MPI_COMM_WORLD, &message, &status));
    CHECK(status.MPI_SOURCE == left && status.MPI_TAG == tag);
    CHECK_MPI(MPI_Mrecv(&in, 1, MPI_INT, &message, &status));
    CHECK(message == MPI_MESSAGE_NULL);
    CHECK(in == (left * THREADS + t) * 1000 + i);
    CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  }
}

static void *worker(void *arg) {
  int t = (int)(intptr_t)arg;
  self_chain(t);
  check_allreduce(parents[t], t);
  if (t < 2) late_creations(t);
  creations(t);
  matched_probes(t);
  return NULL;
}

int main(void) {
  int provided = -1;
  CHECK_MPI(MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided));
  CHECK(provided == MPI_THREAD_MULTIPLE);
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  for (int t = 0; t < THREADS; ++t) CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parents[t]));

  pthread_t threads[THREADS];
  for (int t = 1; t < THREADS; ++t) CHECK(pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t) == 0);
  worker((void *)(intptr_t)0);
  for (int t = 1; t < THREADS; ++t) CHECK(pthread_join(threads[t], NULL) == 0);

  for (int t = 0; t < THREADS; ++t) CHECK_MPI(MPI_Comm_free(&parents[t]));
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
