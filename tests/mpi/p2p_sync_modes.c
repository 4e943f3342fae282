/* Send modes (MPI-4.0 3.4) and combined send-receive (3.10):
 * - Issend/Ssend complete only once the matching receive has started. The check uses no timing: the receiver
 *   first sees the message with Iprobe (it has arrived, unmatched) and says so; until the sender then allows the
 *   receive to be posted, the Issend must stay incomplete however often it is tested.
 * - Rsend/Irsend with a receive known to be posted (the receiver says "ready" after posting).
 * - Sendrecv and Sendrecv_replace, including MPI_PROC_NULL ends.
 * Ring pattern: each rank sends to its right neighbour and receives from its left one (itself on one rank). */
#include "test_util.h"

enum { TAG_DATA = 1, TAG_SEEN = 2, TAG_GO = 3, TAG_READY = 4, TAG_R = 5, TAG_SR = 6 };
static const int sizes[] = {0, 8, 4097, 1048583}; /* bytes */
enum { NSIZES = sizeof sizes / sizeof sizes[0], EXTRA_TESTS = 200 };

static void check_incomplete(MPI_Request *req) {
  int flag = 1;
  CHECK_MPI(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
  CHECK(!flag); /* Issend completed although its receive has not been posted */
}

static void test_issend(int rank, int left, int right, int n) {
  unsigned char *out = test_malloc(n), *in = test_malloc(n);
  int seen_out = 0, seen_in = 0, go_out = 0, go_in = 0, flag = 0;
  MPI_Request sreq, seen_rreq, seen_sreq, go_sreq;
  MPI_Status st;
  test_fill(out, MPI_BYTE, n, rank, right, TAG_DATA);

  CHECK_MPI(MPI_Issend(out, n, MPI_BYTE, right, TAG_DATA, MPI_COMM_WORLD, &sreq));
  CHECK_MPI(MPI_Irecv(&seen_in, 1, MPI_INT, right, TAG_SEEN, MPI_COMM_WORLD, &seen_rreq));

  /* Receiver side: wait until the left neighbour's message is visible, then tell it. */
  while (!flag) {
    check_incomplete(&sreq);
    CHECK_MPI(MPI_Iprobe(left, TAG_DATA, MPI_COMM_WORLD, &flag, &st));
  }
  CHECK(test_count(&st, MPI_BYTE) == n);
  CHECK_MPI(MPI_Isend(&seen_out, 1, MPI_INT, left, TAG_SEEN, MPI_COMM_WORLD, &seen_sreq));

  /* Sender side: our message has reached the right neighbour, which has not posted its receive. */
  flag = 0;
  while (!flag) {
    check_incomplete(&sreq);
    CHECK_MPI(MPI_Test(&seen_rreq, &flag, MPI_STATUS_IGNORE));
  }
  for (int i = 0; i < EXTRA_TESTS; ++i) check_incomplete(&sreq);

  /* Now let the right neighbour receive; our Issend completes once it has. */
  CHECK_MPI(MPI_Isend(&go_out, 1, MPI_INT, right, TAG_GO, MPI_COMM_WORLD, &go_sreq));
  CHECK_MPI(MPI_Recv(&go_in, 1, MPI_INT, left, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Recv(in, n, MPI_BYTE, left, TAG_DATA, MPI_COMM_WORLD, &st));
  CHECK(st.MPI_SOURCE == left && test_count(&st, MPI_BYTE) == n);
  CHECK(test_verify(in, MPI_BYTE, n, left, rank, TAG_DATA) == -1);
  CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&seen_sreq, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&go_sreq, MPI_STATUS_IGNORE));
  free(out);
  free(in);
}

/* Blocking Ssend against a pre-posted receive (posting first avoids the ring deadlock Ssend would cause). */
static void test_ssend(int rank, int left, int right, int n) {
  unsigned char *out = test_malloc(n), *in = test_malloc(n);
  MPI_Request rreq;
  MPI_Status st;
  test_fill(out, MPI_BYTE, n, rank, right, TAG_DATA);
  CHECK_MPI(MPI_Irecv(in, n, MPI_BYTE, left, TAG_DATA, MPI_COMM_WORLD, &rreq));
  CHECK_MPI(MPI_Ssend(out, n, MPI_BYTE, right, TAG_DATA, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&rreq, &st));
  CHECK(st.MPI_SOURCE == left && test_count(&st, MPI_BYTE) == n);
  CHECK(test_verify(in, MPI_BYTE, n, left, rank, TAG_DATA) == -1);
  free(out);
  free(in);
}

/* Ready mode: legal only when the receive is already posted, which the "ready" message guarantees. */
static void test_rsend(int rank, int left, int right, int n, int nonblocking) {
  unsigned char *out = test_malloc(n), *in = test_malloc(n);
  int ready_out = 0, ready_in = 0;
  MPI_Request rreq, ready_req;
  MPI_Status st;
  test_fill(out, MPI_BYTE, n, rank, right, TAG_R);
  CHECK_MPI(MPI_Irecv(in, n, MPI_BYTE, left, TAG_R, MPI_COMM_WORLD, &rreq));
  CHECK_MPI(MPI_Isend(&ready_out, 1, MPI_INT, left, TAG_READY, MPI_COMM_WORLD, &ready_req));
  CHECK_MPI(MPI_Recv(&ready_in, 1, MPI_INT, right, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  if (nonblocking) {
    MPI_Request sreq;
    CHECK_MPI(MPI_Irsend(out, n, MPI_BYTE, right, TAG_R, MPI_COMM_WORLD, &sreq));
    CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
  } else {
    CHECK_MPI(MPI_Rsend(out, n, MPI_BYTE, right, TAG_R, MPI_COMM_WORLD));
  }
  CHECK_MPI(MPI_Wait(&rreq, &st));
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == TAG_R && test_count(&st, MPI_BYTE) == n);
  CHECK(test_verify(in, MPI_BYTE, n, left, rank, TAG_R) == -1);
  CHECK_MPI(MPI_Wait(&ready_req, MPI_STATUS_IGNORE));
  free(out);
  free(in);
}

/* Sendrecv around the ring with different send and receive types/counts; the receive buffer is larger than the
 * message and the receive uses MPI_ANY_SOURCE on odd sizes. */
static void test_sendrecv(int rank, int left, int right, int k) {
  int n = sizes[k], ints = n / 4 + 1;
  unsigned char *out = test_malloc(n);
  int *in_ints = test_malloc(ints * sizeof(int)), *out_ints = test_malloc(ints * sizeof(int));
  unsigned char *in = test_malloc(n + 16);
  MPI_Status st;
  test_fill(out, MPI_BYTE, n, rank, right, TAG_SR);
  CHECK_MPI(MPI_Sendrecv(out, n, MPI_BYTE, right, TAG_SR + k, in, n + 16, MPI_BYTE, k % 2 ? MPI_ANY_SOURCE : left,
                         TAG_SR + k, MPI_COMM_WORLD, &st));
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == TAG_SR + k && test_count(&st, MPI_BYTE) == n);
  CHECK(test_verify(in, MPI_BYTE, n, left, rank, TAG_SR) == -1);

  /* Opposite direction, MPI_INT: send left, receive from the right. */
  test_fill(out_ints, MPI_INT, ints, rank, left, TAG_SR);
  CHECK_MPI(MPI_Sendrecv(out_ints, ints, MPI_INT, left, 50, in_ints, ints, MPI_INT, right, 50, MPI_COMM_WORLD, &st));
  CHECK(st.MPI_SOURCE == right && test_count(&st, MPI_INT) == ints);
  CHECK(test_verify(in_ints, MPI_INT, ints, right, rank, TAG_SR) == -1);

  /* PROC_NULL ends: nothing sent, nothing received, buffer untouched. */
  memset(in, 0x3c, n + 16);
  CHECK_MPI(MPI_Sendrecv(out, n, MPI_BYTE, MPI_PROC_NULL, 70, in, n + 16, MPI_BYTE, MPI_PROC_NULL, 70, MPI_COMM_WORLD,
                         &st));
  CHECK(test_status_is_proc_null(&st));
  for (int i = 0; i < n + 16; ++i) CHECK(in[i] == 0x3c);
  free(out);
  free(in);
  free(in_ints);
  free(out_ints);
}

/* Sendrecv_replace: the buffer goes right and is replaced by what comes from the left. */
static void test_sendrecv_replace(int rank, int left, int right, int n) {
  double *buf = test_malloc((size_t)n * sizeof(double) + 1);
  MPI_Status st;
  test_fill(buf, MPI_DOUBLE, n, rank, right, 60);
  CHECK_MPI(MPI_Sendrecv_replace(buf, n, MPI_DOUBLE, right, 60, left, 60, MPI_COMM_WORLD, &st));
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 60 && test_count(&st, MPI_DOUBLE) == n);
  CHECK(test_verify(buf, MPI_DOUBLE, n, left, rank, 60) == -1);

  /* Receiving from MPI_PROC_NULL leaves the buffer as it was (the send to the right still happens). */
  test_fill(buf, MPI_DOUBLE, n, rank, right, 61);
  MPI_Request rreq;
  double *in = test_malloc((size_t)n * sizeof(double) + 1);
  CHECK_MPI(MPI_Irecv(in, n, MPI_DOUBLE, left, 61, MPI_COMM_WORLD, &rreq));
  CHECK_MPI(MPI_Sendrecv_replace(buf, n, MPI_DOUBLE, right, 61, MPI_PROC_NULL, 61, MPI_COMM_WORLD, &st));
  CHECK(test_status_is_proc_null(&st));
  CHECK(test_verify(buf, MPI_DOUBLE, n, rank, right, 61) == -1);
  CHECK_MPI(MPI_Wait(&rreq, &st));
  CHECK(test_verify(in, MPI_DOUBLE, n, left, rank, 61) == -1);
  free(buf);
  free(in);
}

int main(int argc, char **argv) {
  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  int left = (rank - 1 + size) % size, right = (rank + 1) % size;

  for (int k = 0; k < NSIZES; ++k) {
    test_issend(rank, left, right, sizes[k]);
    test_ssend(rank, left, right, sizes[k]);
    test_rsend(rank, left, right, sizes[k], 0);
    test_rsend(rank, left, right, sizes[k], 1);
    test_sendrecv(rank, left, right, k);
    test_sendrecv_replace(rank, left, right, sizes[k] / 8 + 1);
    test_barrier();
  }
  CHECK_MPI(MPI_Finalize());
  return 0;
}
