/* Cancelling receives and sends (MPI-4.0 3.8.4): a cancelled request still has to be completed (Wait/Test), and
 * then MPI_Test_cancelled tells whether the cancel took effect. Either the cancel succeeds and no message went, or
 * the operation completed normally — never both. A receive that already completed is not cancelled; a send that
 * waits for a receive that never comes must complete once cancelled ("irrespective of the activities of other
 * processes").
 *
 * Ring pattern: each rank receives from its left neighbour and sends to its right one (on one rank both are
 * itself), so with --nodes 2 both transports are involved. */
#include "test_util.h"

enum {
  TAG_NEVER = 77, TAG_AFTER = 78, TAG_GO = 79, TAG_MATCHED = 80, TAG_NOTICE = 81, TAG_RACE = 82,
  TAG_PERSISTENT = 83, TAG_SEND = 84 /* to 84 + 2 NSIZES */
};
static const int sizes[] = {1, 4097, 1048583}; /* bytes: eager and rendezvous */
enum { NSIZES = sizeof sizes / sizeof sizes[0] };

static int test_cancelled(const MPI_Status *st) {
  int flag = -1;
  CHECK_MPI(MPI_Test_cancelled(st, &flag));
  CHECK(flag == 0 || flag == 1);
  return flag;
}

/* A receive nobody will ever match: cancel, complete with Wait or a Test loop, status says cancelled. */
static void cancel_unmatched(int rank, int size) {
  int right = (rank + 1) % size;
  unsigned char *buf = test_malloc(1 << 20);
  for (int variant = 0; variant < 4; ++variant) {
    MPI_Request req;
    MPI_Status st;
    int src = (variant % 2) ? MPI_ANY_SOURCE : right; /* right never sends to us with this tag */
    CHECK_MPI(MPI_Irecv(buf, 1 << 20, MPI_BYTE, src, TAG_NEVER, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Cancel(&req));
    CHECK(req != MPI_REQUEST_NULL); /* Cancel marks; completion comes from Wait/Test */
    test_poison_status(&st);
    if (variant < 2) {
      CHECK_MPI(MPI_Wait(&req, &st));
    } else {
      int flag = 0;
      while (!flag) CHECK_MPI(MPI_Test(&req, &flag, &st));
    }
    CHECK(req == MPI_REQUEST_NULL);
    CHECK(test_cancelled(&st));
  }

  /* Persistent receive: cancel an active instance; the request becomes inactive and can be started again. */
  MPI_Request preq;
  MPI_Status st;
  int value = 0, sent = rank * 3 + 1;
  CHECK_MPI(MPI_Recv_init(&value, 1, MPI_INT, rank, TAG_NEVER, MPI_COMM_WORLD, &preq));
  CHECK_MPI(MPI_Start(&preq));
  CHECK_MPI(MPI_Cancel(&preq));
  CHECK_MPI(MPI_Wait(&preq, &st));
  CHECK(preq != MPI_REQUEST_NULL);
  CHECK(test_cancelled(&st));
  CHECK_MPI(MPI_Start(&preq));
  MPI_Request sreq;
  CHECK_MPI(MPI_Isend(&sent, 1, MPI_INT, rank, TAG_NEVER, MPI_COMM_WORLD, &sreq));
  CHECK_MPI(MPI_Wait(&preq, &st));
  CHECK(!test_cancelled(&st));
  CHECK(value == sent && st.MPI_SOURCE == rank && st.MPI_TAG == TAG_NEVER);
  CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Request_free(&preq));
  CHECK(preq == MPI_REQUEST_NULL);
  free(buf);
}

/* A cancelled wildcard receive must not swallow a message sent afterwards: the message goes to the next
 * receive. The left neighbour sends only after our "go", which follows the completed cancel. */
static void cancel_then_send(int rank, int size) {
  int left = (rank - 1 + size) % size, right = (rank + 1) % size;
  for (int k = 0; k < NSIZES; ++k) {
    int n = sizes[k], go_out = 0, go_in = 0; /* separate: on one rank both ends are this process */
    unsigned char *in = test_malloc(n), *out = test_malloc(n);
    MPI_Request req, sreqs[2];
    MPI_Status st;
    test_fill(out, MPI_BYTE, n, rank, right, TAG_AFTER);
    CHECK_MPI(MPI_Irecv(in, n, MPI_BYTE, MPI_ANY_SOURCE, TAG_AFTER, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Cancel(&req));
    CHECK_MPI(MPI_Wait(&req, &st));
    CHECK(test_cancelled(&st));

    CHECK_MPI(MPI_Isend(&go_out, 1, MPI_INT, left, TAG_GO, MPI_COMM_WORLD, &sreqs[0]));
    CHECK_MPI(MPI_Recv(&go_in, 1, MPI_INT, right, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Isend(out, n, MPI_BYTE, right, TAG_AFTER, MPI_COMM_WORLD, &sreqs[1]));
    CHECK_MPI(MPI_Recv(in, n, MPI_BYTE, MPI_ANY_SOURCE, TAG_AFTER, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == left && test_count(&st, MPI_BYTE) == n);
    CHECK(test_verify(in, MPI_BYTE, n, left, rank, TAG_AFTER) == -1);
    CHECK_MPI(MPI_Waitall(2, sreqs, MPI_STATUSES_IGNORE));
    free(in);
    free(out);
  }
}

/* A receive that completed (seen through MPI_Request_get_status, which leaves the request alive) cannot be
 * cancelled any more: the data is there and Test_cancelled is false. */
static void cancel_after_match(int rank, int size) {
  int left = (rank - 1 + size) % size, right = (rank + 1) % size;
  for (int k = 0; k < NSIZES; ++k) {
    int n = sizes[k], flag = 0;
    unsigned char *in = test_malloc(n), *out = test_malloc(n);
    MPI_Request rreq, sreq;
    MPI_Status st;
    test_fill(out, MPI_BYTE, n, rank, right, TAG_MATCHED);
    CHECK_MPI(MPI_Irecv(in, n, MPI_BYTE, left, TAG_MATCHED, MPI_COMM_WORLD, &rreq));
    CHECK_MPI(MPI_Isend(out, n, MPI_BYTE, right, TAG_MATCHED, MPI_COMM_WORLD, &sreq));
    while (!flag) CHECK_MPI(MPI_Request_get_status(rreq, &flag, MPI_STATUS_IGNORE));
    CHECK(rreq != MPI_REQUEST_NULL);
    CHECK_MPI(MPI_Cancel(&rreq));
    test_poison_status(&st);
    CHECK_MPI(MPI_Wait(&rreq, &st));
    CHECK(!test_cancelled(&st));
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == TAG_MATCHED && test_count(&st, MPI_BYTE) == n);
    CHECK(test_verify(in, MPI_BYTE, n, left, rank, TAG_MATCHED) == -1);
    CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    free(in);
    free(out);
  }
}

/* Cancel racing with an arriving message (sent before a notice on another tag): both outcomes are legal, but
 * if the cancel won, the message must still be there for a new receive; if it lost, the data is complete. */
static void cancel_race(int rank, int size) {
  int left = (rank - 1 + size) % size, right = (rank + 1) % size;
  for (int k = 0; k < NSIZES; ++k) {
    int n = sizes[k], notice_out = 0, notice_in = 0;
    unsigned char *in = test_malloc(n), *out = test_malloc(n);
    MPI_Request rreq, sreqs[2];
    MPI_Status st;
    test_fill(out, MPI_BYTE, n, rank, right, TAG_RACE);
    CHECK_MPI(MPI_Irecv(in, n, MPI_BYTE, left, TAG_RACE, MPI_COMM_WORLD, &rreq));
    CHECK_MPI(MPI_Isend(out, n, MPI_BYTE, right, TAG_RACE, MPI_COMM_WORLD, &sreqs[0]));
    CHECK_MPI(MPI_Isend(&notice_out, 1, MPI_INT, right, TAG_NOTICE, MPI_COMM_WORLD, &sreqs[1]));
    CHECK_MPI(MPI_Recv(&notice_in, 1, MPI_INT, left, TAG_NOTICE, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Cancel(&rreq));
    CHECK_MPI(MPI_Wait(&rreq, &st));
    if (test_cancelled(&st)) {
      CHECK_MPI(MPI_Recv(in, n, MPI_BYTE, left, TAG_RACE, MPI_COMM_WORLD, &st));
      CHECK(!test_cancelled(&st));
    }
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == TAG_RACE && test_count(&st, MPI_BYTE) == n);
    CHECK(test_verify(in, MPI_BYTE, n, left, rank, TAG_RACE) == -1);
    CHECK_MPI(MPI_Waitall(2, sreqs, MPI_STATUSES_IGNORE));
    free(in);
    free(out);
  }
}

/* A send whose receive is not posted: cancel, complete, then tell the right neighbour whether it went. A
 * synchronous send, or one too large to go eagerly, cannot have completed without a receive, so the cancel must
 * succeed (Strata sends up to 64 KiB eagerly); if it did not, the message is there and must be received whole. */
static void cancel_unmatched_send(int rank, int size) {
  int left = (rank - 1 + size) % size, right = (rank + 1) % size;
  for (int sync = 0; sync < 2; ++sync) {
    for (int k = 0; k < NSIZES; ++k) {
      /* A tag per case: the left neighbour's next send may come before this probe. */
      int n = sizes[k], tag = TAG_SEND + sync * NSIZES + k, went_out = 0, went_in = 0, flag = 1;
      unsigned char *in = test_malloc(n), *out = test_malloc(n);
      MPI_Request sreq;
      MPI_Status st;
      test_fill(out, MPI_BYTE, n, rank, right, tag);
      if (sync)
        CHECK_MPI(MPI_Issend(out, n, MPI_BYTE, right, tag, MPI_COMM_WORLD, &sreq));
      else
        CHECK_MPI(MPI_Isend(out, n, MPI_BYTE, right, tag, MPI_COMM_WORLD, &sreq));
      CHECK_MPI(MPI_Cancel(&sreq));
      test_poison_status(&st);
      CHECK_MPI(MPI_Wait(&sreq, &st));
      went_out = !test_cancelled(&st);
      if (sync || n > 65536) CHECK(!went_out);
      CHECK_MPI(MPI_Sendrecv(&went_out, 1, MPI_INT, right, TAG_NOTICE, &went_in, 1, MPI_INT, left, TAG_NOTICE,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      if (went_in) {
        CHECK_MPI(MPI_Recv(in, n, MPI_BYTE, left, tag, MPI_COMM_WORLD, &st));
        CHECK(test_count(&st, MPI_BYTE) == n && test_verify(in, MPI_BYTE, n, left, rank, tag) == -1);
      }
      /* The notice came after the cancel on the same channel: a cancelled message is gone for good. */
      CHECK_MPI(MPI_Iprobe(left, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
      CHECK(!flag);
      free(in);
      free(out);
    }
  }

  /* Persistent: a cancelled start leaves the request inactive, and the next start goes through. */
  int n = sizes[NSIZES - 1];
  unsigned char *in = test_malloc(n), *out = test_malloc(n);
  MPI_Request preq, rreq;
  MPI_Status st;
  test_fill(out, MPI_BYTE, n, rank, right, TAG_PERSISTENT);
  CHECK_MPI(MPI_Send_init(out, n, MPI_BYTE, right, TAG_PERSISTENT, MPI_COMM_WORLD, &preq));
  CHECK_MPI(MPI_Start(&preq));
  CHECK_MPI(MPI_Cancel(&preq));
  CHECK_MPI(MPI_Wait(&preq, &st));
  CHECK(preq != MPI_REQUEST_NULL && test_cancelled(&st));
  test_barrier();
  CHECK_MPI(MPI_Irecv(in, n, MPI_BYTE, left, TAG_PERSISTENT, MPI_COMM_WORLD, &rreq));
  CHECK_MPI(MPI_Start(&preq));
  CHECK_MPI(MPI_Wait(&preq, &st));
  CHECK(!test_cancelled(&st));
  CHECK_MPI(MPI_Wait(&rreq, &st));
  CHECK(test_count(&st, MPI_BYTE) == n && test_verify(in, MPI_BYTE, n, left, rank, TAG_PERSISTENT) == -1);
  CHECK_MPI(MPI_Request_free(&preq));
  free(in);
  free(out);
}

int main(int argc, char **argv) {
  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

  cancel_unmatched(rank, size);
  test_barrier();
  cancel_then_send(rank, size);
  test_barrier();
  cancel_after_match(rank, size);
  test_barrier();
  cancel_race(rank, size);
  test_barrier();
  cancel_unmatched_send(rank, size);
  test_barrier();

  /* Nothing may be left over: every message above was received exactly once. */
  int flag = 1;
  CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
  CHECK(!flag);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
