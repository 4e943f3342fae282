/* Truncation (MPI-4.0 3.2.4): a message longer than the receive buffer is an overflow error, MPI_ERR_TRUNCATE,
 * returned to the receiver when MPI_ERRORS_RETURN is set. Only the receive buffer may be written (guard bytes
 * around it stay intact), the message is consumed (the next receive gets the next message), the sender completes
 * normally, and the communicator keeps working.
 *
 * Ring: each rank sends to its right neighbour and receives from its left one (itself on one rank). */
#include "test_util.h"

enum { TAG = 11, GUARD_BYTE = 0xA5, FRONT = 64 };

typedef struct {
  MPI_Datatype type;
  int msg_count, buf_count;
} trunc_case;

static const trunc_case cases[] = {
    {MPI_BYTE, 10, 4},           {MPI_BYTE, 1, 0},         {MPI_BYTE, 4097, 4096},     {MPI_BYTE, 65539, 100},
    {MPI_BYTE, 1048577, 1048576}, {MPI_BYTE, 4194304, 1000}, {MPI_INT, 1000, 999},       {MPI_INT, 300000, 7},
    {MPI_DOUBLE, 2, 1},           {MPI_BYTE, 40000, 20000}, /* eager, in three pieces between nodes */
};
enum { NCASES = sizeof cases / sizeof cases[0] };
enum { RECV_BLOCKING, RECV_WAIT, RECV_TEST, RECV_WAITALL, NMODES };

static int error_class(int err) {
  int cls = -1;
  CHECK_MPI(MPI_Error_class(err, &cls));
  return cls;
}

/* One truncated receive from `left` in the given mode; then the follow-up message must still be received. */
static void receive_truncated(int rank, int left, int c, int mode) {
  size_t esize = test_type_size(cases[c].type);
  size_t inside = (size_t)cases[c].buf_count * esize;
  size_t msg = (size_t)cases[c].msg_count * esize;
  size_t back = msg - inside + 64; /* large enough to catch an overrun by the whole message */
  unsigned char *raw = test_malloc(FRONT + inside + back);
  memset(raw, GUARD_BYTE, FRONT + inside + back);
  void *buf = raw + FRONT;
  int follow[4] = {0, 0, 0, 0};
  MPI_Status st;
  int err;

  if (mode == RECV_BLOCKING) {
    err = MPI_Recv(buf, cases[c].buf_count, cases[c].type, left, TAG, MPI_COMM_WORLD, &st);
    CHECK(err != MPI_SUCCESS && error_class(err) == MPI_ERR_TRUNCATE);
  } else if (mode == RECV_WAIT || mode == RECV_TEST) {
    MPI_Request req;
    CHECK_MPI(MPI_Irecv(buf, cases[c].buf_count, cases[c].type, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &req));
    if (mode == RECV_WAIT) {
      err = MPI_Wait(&req, &st);
    } else {
      int flag = 0;
      do {
        err = MPI_Test(&req, &flag, &st);
      } while (err == MPI_SUCCESS && !flag);
    }
    CHECK(err != MPI_SUCCESS && error_class(err) == MPI_ERR_TRUNCATE);
  } else {
    /* Multiple completion (3.7.5): Waitall returns the error code MPI_ERR_IN_STATUS itself (programs compare
     * against it) and puts the truncation error into the failed request's status. The error is raised on the
     * requests' communicator, whose handler returns. The second receive (posted later, so it matches the
     * follow-up) either completed (MPI_SUCCESS) or is still pending (MPI_ERR_PENDING). */
    MPI_Request reqs[2];
    MPI_Status sts[2];
    CHECK_MPI(MPI_Irecv(buf, cases[c].buf_count, cases[c].type, left, TAG, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Irecv(follow, 4, MPI_INT, left, TAG, MPI_COMM_WORLD, &reqs[1]));
    err = MPI_Waitall(2, reqs, sts);
    CHECK(err == MPI_ERR_IN_STATUS);
    CHECK(error_class(sts[0].MPI_ERROR) == MPI_ERR_TRUNCATE);
    CHECK(sts[1].MPI_ERROR == MPI_SUCCESS || sts[1].MPI_ERROR == MPI_ERR_PENDING);
    if (sts[1].MPI_ERROR == MPI_ERR_PENDING) CHECK_MPI(MPI_Wait(&reqs[1], &sts[1]));
    st = sts[1];
  }
  char msgtext[MPI_MAX_ERROR_STRING];
  int len = 0;
  CHECK_MPI(MPI_Error_string(err, msgtext, &len));
  CHECK(len > 0 && len == (int)strlen(msgtext));

  for (size_t i = 0; i < FRONT; ++i) CHECK(raw[i] == GUARD_BYTE);
  for (size_t i = 0; i < back; ++i) CHECK(raw[FRONT + inside + i] == GUARD_BYTE);

  /* The truncated message was consumed: the next receive on the same tag gets the follow-up. */
  if (mode != RECV_WAITALL) CHECK_MPI(MPI_Recv(follow, 4, MPI_INT, left, TAG, MPI_COMM_WORLD, &st));
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == TAG && test_count(&st, MPI_INT) == 2);
  CHECK(follow[0] == left && follow[1] == c * 10 + mode);
  (void)rank;
  free(raw);
}

int main(int argc, char **argv) {
  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  int left = (rank - 1 + size) % size, right = (rank + 1) % size;

  for (int c = 0; c < NCASES; ++c)
    for (int mode = 0; mode < NMODES; ++mode) {
      /* Send the long message and a two-int follow-up on the same tag; the receive side truncates the first. */
      size_t bytes = (size_t)cases[c].msg_count * test_type_size(cases[c].type);
      void *out = test_malloc(bytes);
      int follow[2] = {rank, c * 10 + mode};
      MPI_Request sreqs[2];
      test_fill(out, cases[c].type, cases[c].msg_count, rank, right, TAG);
      CHECK_MPI(MPI_Isend(out, cases[c].msg_count, cases[c].type, right, TAG, MPI_COMM_WORLD, &sreqs[0]));
      CHECK_MPI(MPI_Isend(follow, 2, MPI_INT, right, TAG, MPI_COMM_WORLD, &sreqs[1]));
      receive_truncated(rank, left, c, mode);
      CHECK_MPI(MPI_Waitall(2, sreqs, MPI_STATUSES_IGNORE)); /* the sender sees no error */
      free(out);
      test_barrier(); /* the ANY_SOURCE receive of the next round must only see this ring's messages */
    }

  /* The communicator still works: a full-size exchange around the ring, eager and rendezvous. */
  for (int n = 1; n <= (1 << 21); n *= 64) {
    unsigned char *out = test_malloc(n), *in = test_malloc(n);
    MPI_Status st;
    test_fill(out, MPI_BYTE, n, rank, right, 12);
    CHECK_MPI(MPI_Sendrecv(out, n, MPI_BYTE, right, 12, in, n, MPI_BYTE, left, 12, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == left && test_count(&st, MPI_BYTE) == n);
    CHECK(test_verify(in, MPI_BYTE, n, left, rank, 12) == -1);
    free(out);
    free(in);
  }
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
