/* MPI_Init_thread (MPI-4.0 11.2.1): `provided` is a valid level, MPI_Query_thread returns it, the calling thread
 * is the main thread, and the level is honest — if the library claims MPI_THREAD_SERIALIZED, another thread may
 * call MPI while the main one does not; if it claims MPI_THREAD_MULTIPLE, two threads per process communicate
 * at the same time. Init_thread also accepts NULL argc/argv.
 *
 * Usage: env_init_thread single|funneled|serialized|multiple  (the required level) */
#include "test_util.h"

#include <pthread.h>

enum { ITERS = 200, N = 5000 };

static int rank, size;

typedef struct {
  int id;
  int is_main;
} thread_arg;

/* Ring exchange on a tag of its own, so concurrent threads never match each other's messages. */
static void *ring_worker(void *p) {
  thread_arg *arg = p;
  int left = (rank - 1 + size) % size, right = (rank + 1) % size, tag = 100 + arg->id;
  int *out = test_malloc(N * sizeof(int)), *in = test_malloc(N * sizeof(int));
  CHECK_MPI(MPI_Is_thread_main(&arg->is_main));
  for (int it = 0; it < ITERS; ++it) {
    MPI_Status st;
    test_fill(out, MPI_INT, N, rank, right, tag * 1000 + it);
    CHECK_MPI(MPI_Sendrecv(out, N, MPI_INT, right, tag, in, N, MPI_INT, left, tag, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == tag && test_count(&st, MPI_INT) == N);
    CHECK(test_verify(in, MPI_INT, N, left, rank, tag * 1000 + it) == -1);
  }
  free(out);
  free(in);
  return NULL;
}

int main(int argc, char **argv) {
  static const char *names[] = {"single", "funneled", "serialized", "multiple"};
  int required = -1;
  for (int l = 0; l < 4 && argc > 1; ++l)
    if (strcmp(argv[1], names[l]) == 0) required = l;
  if (required < 0) {
    fprintf(stderr, "usage: env_init_thread single|funneled|serialized|multiple\n");
    return 2;
  }
  int levels[4] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE};
  CHECK(levels[0] < levels[1] && levels[1] < levels[2] && levels[2] < levels[3]); /* ordered, 11.2.1 */

  int provided = -1, queried = -1, is_main = -1;
  CHECK_MPI(MPI_Init_thread(NULL, NULL, levels[required], &provided));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE);
  CHECK_MPI(MPI_Query_thread(&queried));
  CHECK(queried == provided);
  CHECK_MPI(MPI_Is_thread_main(&is_main));
  CHECK(is_main == 1);

  /* All ranks of one job get the same answer (same library, same request). */
  if (rank == 0) {
    for (int r = 1; r < size; ++r) {
      int other = -1;
      CHECK_MPI(MPI_Recv(&other, 1, MPI_INT, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CHECK(other == provided);
    }
  } else {
    CHECK_MPI(MPI_Send(&provided, 1, MPI_INT, 0, 1, MPI_COMM_WORLD));
  }

  thread_arg args[2] = {{0, -1}, {1, -1}};
  if (provided >= MPI_THREAD_MULTIPLE) {
    /* Two threads per process in MPI at once, plus the main thread's own ring on a third tag. */
    pthread_t threads[2];
    for (int t = 0; t < 2; ++t) CHECK(pthread_create(&threads[t], NULL, ring_worker, &args[t]) == 0);
    thread_arg mine = {2, -1};
    ring_worker(&mine);
    for (int t = 0; t < 2; ++t) CHECK(pthread_join(threads[t], NULL) == 0);
    CHECK(mine.is_main == 1 && args[0].is_main == 0 && args[1].is_main == 0);
  } else if (provided >= MPI_THREAD_SERIALIZED) {
    /* One other thread uses MPI while the main thread waits for it. */
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, ring_worker, &args[0]) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK(args[0].is_main == 0);
  } else {
    ring_worker(&args[0]);
    CHECK(args[0].is_main == 1);
  }

  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
