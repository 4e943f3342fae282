/* Matched probe and receive (MPI-4.0 3.8.2, 3.8.3): MPI_Mprobe / MPI_Improbe remove the matched message from the
 * matching queue — later probes and receives can no longer see it — and MPI_Mrecv / MPI_Imrecv receive exactly
 * that message, then set the handle to MPI_MESSAGE_NULL. Probing MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC, and
 * receiving that returns the PROC_NULL status at once.
 *
 * Multi-rank phases: a root matches messages of all other ranks with wildcards, eager and rendezvous sizes, on
 * both simulated nodes under --nodes 2. Senders wait for "go" and for "done" as in p2p_any_source. */
#include "test_util.h"

enum { MSGS = 5, TAG_GO = 500, TAG_DONE = 501, NCOUNTS = 5 };
static const int counts[NCOUNTS] = {1, 0, 70001, 1025, 300007}; /* MPI_DOUBLE elements */

static int msg_tag(int s, int i) { return 30 + (s * 3 + i) % 4; }
static int msg_count(int s, int i) { return counts[(s + i) % NCOUNTS]; }

static void release(int rank, int size, int tag) {
  int token = 0;
  for (int s = 0; s < size; ++s)
    if (s != rank) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, s, tag, MPI_COMM_WORLD));
}

static void phase_no_proc(void) {
  MPI_Message msg = MPI_MESSAGE_NULL;
  MPI_Status st;
  MPI_Request req;
  int flag = 0, buf[2] = {7, 8};

  test_poison_status(&st);
  CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 1, MPI_COMM_WORLD, &msg, &st));
  CHECK(msg == MPI_MESSAGE_NO_PROC);
  CHECK(test_status_is_proc_null(&st));
  test_poison_status(&st);
  CHECK_MPI(MPI_Mrecv(buf, 2, MPI_INT, &msg, &st));
  CHECK(test_status_is_proc_null(&st));
  CHECK(buf[0] == 7 && buf[1] == 8);

  msg = MPI_MESSAGE_NULL;
  test_poison_status(&st);
  CHECK_MPI(MPI_Improbe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
  CHECK(flag);
  CHECK(msg == MPI_MESSAGE_NO_PROC);
  CHECK(test_status_is_proc_null(&st));
  CHECK_MPI(MPI_Imrecv(buf, 2, MPI_INT, &msg, &req));
  test_poison_status(&st);
  CHECK_MPI(MPI_Wait(&req, &st));
  CHECK(test_status_is_proc_null(&st));
  CHECK(buf[0] == 7 && buf[1] == 8);
}

/* Two messages with the same signature to oneself: Mprobe takes the first; a plain receive then gets the second;
 * Mrecv still delivers the first. */
static void phase_self(int rank) {
  enum { A = 5, B = 200003 };
  double *a = test_malloc(A * sizeof(double)), *b = test_malloc(B * sizeof(double));
  double *rb = test_malloc(B * sizeof(double)), *ra = test_malloc(B * sizeof(double));
  MPI_Request reqs[2];
  MPI_Message msg = MPI_MESSAGE_NULL;
  MPI_Status st;
  int flag = 0;
  test_fill(a, MPI_DOUBLE, A, rank, rank, 1);
  test_fill(b, MPI_DOUBLE, B, rank, rank, 2);
  CHECK_MPI(MPI_Isend(a, A, MPI_DOUBLE, rank, 5, MPI_COMM_WORLD, &reqs[0]));
  CHECK_MPI(MPI_Isend(b, B, MPI_DOUBLE, rank, 5, MPI_COMM_WORLD, &reqs[1]));

  CHECK_MPI(MPI_Mprobe(rank, 5, MPI_COMM_WORLD, &msg, &st));
  CHECK(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC);
  CHECK(st.MPI_SOURCE == rank && st.MPI_TAG == 5 && test_count(&st, MPI_DOUBLE) == A);
  while (!flag) CHECK_MPI(MPI_Iprobe(rank, 5, MPI_COMM_WORLD, &flag, &st));
  CHECK(test_count(&st, MPI_DOUBLE) == B); /* the first one is no longer visible */
  CHECK_MPI(MPI_Recv(rb, B, MPI_DOUBLE, rank, 5, MPI_COMM_WORLD, &st));
  CHECK(test_count(&st, MPI_DOUBLE) == B && test_verify(rb, MPI_DOUBLE, B, rank, rank, 2) == -1);

  /* A buffer larger than the message: the count must be the message's. */
  CHECK_MPI(MPI_Mrecv(ra, B, MPI_DOUBLE, &msg, &st));
  CHECK(msg == MPI_MESSAGE_NULL);
  CHECK(st.MPI_SOURCE == rank && st.MPI_TAG == 5 && test_count(&st, MPI_DOUBLE) == A);
  CHECK(test_verify(ra, MPI_DOUBLE, A, rank, rank, 1) == -1);
  CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
  free(a);
  free(b);
  free(ra);
  free(rb);
}

static void send_all(int rank, int root) {
  int token;
  MPI_Request reqs[MSGS];
  double *bufs[MSGS];
  CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, root, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  for (int i = 0; i < MSGS; ++i) {
    bufs[i] = test_malloc(msg_count(rank, i) * sizeof(double));
    test_fill(bufs[i], MPI_DOUBLE, msg_count(rank, i), rank, root, 1000 + i);
    CHECK_MPI(
        MPI_Isend(bufs[i], msg_count(rank, i), MPI_DOUBLE, root, msg_tag(rank, i), MPI_COMM_WORLD, &reqs[i]));
  }
  CHECK_MPI(MPI_Waitall(MSGS, reqs, MPI_STATUSES_IGNORE));
  for (int i = 0; i < MSGS; ++i) free(bufs[i]);
  CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, root, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

/* The root first matches every message (Mprobe and Improbe, both wildcards) without receiving any; then nothing
 * may be left to probe. Then it receives them all, alternating Mrecv and Imrecv, newest match first. */
static void phase_match_all(int rank, int size, int root) {
  if (rank != root) {
    send_all(rank, root);
    return;
  }
  int n = (size - 1) * MSGS;
  MPI_Message *msgs = calloc(n, sizeof *msgs);
  int *src = calloc(n, sizeof *src), *idx = calloc(n, sizeof *idx), *next = calloc(size, sizeof *next);
  release(rank, size, TAG_GO);
  for (int k = 0; k < n; ++k) {
    MPI_Status st;
    test_poison_status(&st);
    if (k % 2) {
      CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msgs[k], &st));
    } else {
      int flag = 0;
      while (!flag) CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msgs[k], &st));
    }
    int s = st.MPI_SOURCE;
    CHECK(s >= 0 && s < size && s != root);
    CHECK(msgs[k] != MPI_MESSAGE_NULL && msgs[k] != MPI_MESSAGE_NO_PROC);
    src[k] = s;
    idx[k] = next[s]++; /* matched in send order */
    CHECK(idx[k] < MSGS);
    CHECK(st.MPI_TAG == msg_tag(s, idx[k]));
    CHECK(test_count(&st, MPI_DOUBLE) == msg_count(s, idx[k]));
  }
  int flag = 1;
  CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
  CHECK(!flag); /* every message is matched: none left in the queue */

  for (int k = n - 1; k >= 0; --k) {
    int count = msg_count(src[k], idx[k]);
    double *buf = test_malloc(count * sizeof(double));
    MPI_Status st;
    if (k % 2) {
      CHECK_MPI(MPI_Mrecv(buf, count, MPI_DOUBLE, &msgs[k], &st));
    } else {
      MPI_Request req;
      CHECK_MPI(MPI_Imrecv(buf, count, MPI_DOUBLE, &msgs[k], &req));
      CHECK(msgs[k] == MPI_MESSAGE_NULL);
      CHECK_MPI(MPI_Wait(&req, &st));
    }
    CHECK(msgs[k] == MPI_MESSAGE_NULL);
    CHECK(st.MPI_SOURCE == src[k] && st.MPI_TAG == msg_tag(src[k], idx[k]));
    CHECK(test_count(&st, MPI_DOUBLE) == count);
    CHECK(test_verify(buf, MPI_DOUBLE, count, src[k], root, 1000 + idx[k]) == -1);
    free(buf);
  }
  release(rank, size, TAG_DONE);
  free(msgs);
  free(src);
  free(idx);
  free(next);
}

/* Exclusivity against a later receive: each sender sends two messages with tag 60 (rendezvous-sized, then
 * small); the root Mprobes one sender's first message, then a plain receive for that sender and tag must get the
 * second, and Imrecv the first. */
static void phase_steal(int rank, int size, int root) {
  enum { BIG = 150001, SMALL = 9 };
  if (rank != root) {
    int token;
    double *big = test_malloc(BIG * sizeof(double)), small[SMALL];
    MPI_Request reqs[2];
    CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, root, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    test_fill(big, MPI_DOUBLE, BIG, rank, root, 60);
    test_fill(small, MPI_DOUBLE, SMALL, rank, root, 61);
    CHECK_MPI(MPI_Isend(big, BIG, MPI_DOUBLE, root, 60, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Isend(small, SMALL, MPI_DOUBLE, root, 60, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    free(big);
    CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, root, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    return;
  }
  release(rank, size, TAG_GO);
  double *big = test_malloc(BIG * sizeof(double)), small[SMALL];
  for (int s = 0; s < size; ++s) {
    if (s == root) continue;
    MPI_Message msg;
    MPI_Status st;
    MPI_Request req;
    CHECK_MPI(MPI_Mprobe(s, 60, MPI_COMM_WORLD, &msg, &st));
    CHECK(test_count(&st, MPI_DOUBLE) == BIG);
    CHECK_MPI(MPI_Recv(small, SMALL, MPI_DOUBLE, s, 60, MPI_COMM_WORLD, &st));
    CHECK(test_count(&st, MPI_DOUBLE) == SMALL && test_verify(small, MPI_DOUBLE, SMALL, s, root, 61) == -1);
    CHECK_MPI(MPI_Imrecv(big, BIG, MPI_DOUBLE, &msg, &req));
    CHECK_MPI(MPI_Wait(&req, &st));
    CHECK(st.MPI_SOURCE == s && st.MPI_TAG == 60 && test_count(&st, MPI_DOUBLE) == BIG);
    CHECK(test_verify(big, MPI_DOUBLE, BIG, s, root, 60) == -1);
  }
  free(big);
  release(rank, size, TAG_DONE);
}

int main(int argc, char **argv) {
  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

  phase_no_proc();
  phase_self(rank);
  test_barrier();
  int roots[2] = {0, size - 1};
  for (int r = 0; r < (size > 1 ? 2 : 1); ++r) {
    phase_match_all(rank, size, roots[r]);
    phase_steal(rank, size, roots[r]);
  }
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
