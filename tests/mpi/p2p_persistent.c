/* Persistent point-to-point requests (MPI-4.0 3.9): Send_init / Ssend_init / Rsend_init / Recv_init, started many
 * times with Start and Startall; the send buffer is read anew at every start. After completion a persistent
 * request is inactive, not freed: Wait/Test on it return at once with an empty status, Request_get_status says
 * complete, and Request_free releases it. Ring pattern (itself on one rank); PROC_NULL ends too. */
#include "test_util.h"

enum { TAG_P = 20, TAG_READY = 21 };
static const int sizes[] = {0, 5, 4097, 1048579}; /* bytes */
enum { NSIZES = sizeof sizes / sizeof sizes[0] };

static int iterations(int n) { return n > 100000 ? 8 : 40; }

/* An inactive (or null) request: every completion call returns at once with an empty status. */
static void check_inactive(MPI_Request *req) {
  MPI_Request before = *req;
  MPI_Status st;
  int flag = 0;
  test_poison_status(&st);
  CHECK_MPI(MPI_Wait(req, &st));
  CHECK(*req == before);
  CHECK(test_status_is_empty(&st));
  test_poison_status(&st);
  CHECK_MPI(MPI_Test(req, &flag, &st));
  CHECK(flag && *req == before);
  CHECK(test_status_is_empty(&st));
  test_poison_status(&st);
  flag = 0;
  CHECK_MPI(MPI_Request_get_status(*req, &flag, &st));
  CHECK(flag);
  CHECK(test_status_is_empty(&st));
}

/* mode 0: Send_init, 1: Ssend_init, 2: Rsend_init (receive is started and announced before the send starts). */
static void ring_persistent(int rank, int left, int right, int n, int mode) {
  unsigned char *out = test_malloc(n), *in = test_malloc(n);
  int ready_out = 0, ready_in = 0;
  MPI_Request reqs[2]; /* [0] receive, [1] send */
  int src = mode == 1 ? MPI_ANY_SOURCE : left;
  CHECK_MPI(MPI_Recv_init(in, n, MPI_BYTE, src, TAG_P, MPI_COMM_WORLD, &reqs[0]));
  if (mode == 0) CHECK_MPI(MPI_Send_init(out, n, MPI_BYTE, right, TAG_P, MPI_COMM_WORLD, &reqs[1]));
  if (mode == 1) CHECK_MPI(MPI_Ssend_init(out, n, MPI_BYTE, right, TAG_P, MPI_COMM_WORLD, &reqs[1]));
  if (mode == 2) CHECK_MPI(MPI_Rsend_init(out, n, MPI_BYTE, right, TAG_P, MPI_COMM_WORLD, &reqs[1]));
  CHECK(reqs[0] != MPI_REQUEST_NULL && reqs[1] != MPI_REQUEST_NULL);
  check_inactive(&reqs[0]); /* created inactive */
  check_inactive(&reqs[1]);

  for (int it = 0; it < iterations(n); ++it) {
    /* New content every round: the request must read the buffer at start time, not at init time. */
    test_fill(out, MPI_BYTE, n, rank, right, it);
    memset(in, 0, n);
    MPI_Status sts[2];
    if (mode == 2) {
      MPI_Request ready_req;
      CHECK_MPI(MPI_Start(&reqs[0]));
      CHECK_MPI(MPI_Isend(&ready_out, 1, MPI_INT, left, TAG_READY, MPI_COMM_WORLD, &ready_req));
      CHECK_MPI(MPI_Recv(&ready_in, 1, MPI_INT, right, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CHECK_MPI(MPI_Start(&reqs[1]));
      CHECK_MPI(MPI_Wait(&ready_req, MPI_STATUS_IGNORE));
    } else if (it % 2) {
      CHECK_MPI(MPI_Startall(2, reqs));
    } else {
      CHECK_MPI(MPI_Start(&reqs[0]));
      CHECK_MPI(MPI_Start(&reqs[1]));
    }
    /* Vary the completion call. */
    switch (it % 3) {
      case 0:
        CHECK_MPI(MPI_Waitall(2, reqs, sts));
        break;
      case 1:
        CHECK_MPI(MPI_Wait(&reqs[1], &sts[1]));
        CHECK_MPI(MPI_Wait(&reqs[0], &sts[0]));
        break;
      default: {
        int flag = 0;
        while (!flag) CHECK_MPI(MPI_Testall(2, reqs, &flag, sts));
      }
    }
    CHECK(reqs[0] != MPI_REQUEST_NULL && reqs[1] != MPI_REQUEST_NULL); /* inactive, not freed */
    CHECK(sts[0].MPI_SOURCE == left && sts[0].MPI_TAG == TAG_P && test_count(&sts[0], MPI_BYTE) == n);
    CHECK(test_verify(in, MPI_BYTE, n, left, rank, it) == -1);
  }
  check_inactive(&reqs[0]);
  check_inactive(&reqs[1]);
  CHECK_MPI(MPI_Request_free(&reqs[0]));
  CHECK_MPI(MPI_Request_free(&reqs[1]));
  CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL);
  free(out);
  free(in);
}

/* Persistent requests with MPI_PROC_NULL ends complete at once; the receive reports the PROC_NULL status. */
static void proc_null_persistent(void) {
  int buf[3] = {1, 2, 3};
  MPI_Request reqs[2];
  MPI_Status sts[2];
  CHECK_MPI(MPI_Recv_init(buf, 3, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &reqs[0]));
  CHECK_MPI(MPI_Send_init(buf, 3, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &reqs[1]));
  for (int it = 0; it < 3; ++it) {
    CHECK_MPI(MPI_Startall(2, reqs));
    CHECK_MPI(MPI_Waitall(2, reqs, sts));
    CHECK(test_status_is_proc_null(&sts[0]));
    CHECK(buf[0] == 1 && buf[2] == 3);
  }
  CHECK_MPI(MPI_Request_free(&reqs[0]));
  CHECK_MPI(MPI_Request_free(&reqs[1]));
}

int main(int argc, char **argv) {
  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  int left = (rank - 1 + size) % size, right = (rank + 1) % size;

  /* MPI_REQUEST_NULL behaves like an inactive request for Wait/Test/Request_get_status. */
  MPI_Request null_req = MPI_REQUEST_NULL;
  check_inactive(&null_req);
  proc_null_persistent();

  for (int k = 0; k < NSIZES; ++k)
    for (int mode = 0; mode < 3; ++mode) {
      ring_persistent(rank, left, right, sizes[k], mode);
      test_barrier();
    }
  CHECK_MPI(MPI_Finalize());
  return 0;
}
