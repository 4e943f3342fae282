/* MPI_ANY_SOURCE and MPI_ANY_TAG (MPI-4.0 3.2.4, 3.5): a root receives from every other rank with wildcards,
 * posted after the messages were sent and posted before. Under `mpiexec --nodes 2` the senders sit on the root's
 * node (shared memory) and on the other node (network), so the wildcard spans both transports.
 *
 * Checked for every message: status source and tag, count, content; every message is received exactly once, and
 * the messages of one sender arrive in the order sent (non-overtaking, 3.5). Each phase ends with a "done" message
 * from the root, because a sender must not send anything else while the root's wildcard receives are posted. */
#include "test_util.h"

enum { MSGS = 20, TAG_GO = 500, TAG_DONE = 501, NSIZES = 7 };
static const int sizes[NSIZES] = {0, 1, 17, 4096, 4097, 65539, 262147};
static const int max_size = 262147;

/* Message i of sender s: its MPI tag and its size in bytes. Content is pattern(s, root, 1000 + i). */
static int msg_tag(int s, int i) { return (s * 7 + i) % 5; }
static int msg_size(int s, int i) { return sizes[(s + i) % NSIZES]; }

/* Checks one wildcard-received message against the next one expected from its source. */
static void accept(int root, const void *buf, const MPI_Status *st, int *next, int size) {
  int s = st->MPI_SOURCE;
  CHECK(s >= 0 && s < size && s != root);
  int i = next[s]++;
  CHECK(i < MSGS); /* received at most once */
  CHECK(st->MPI_TAG == msg_tag(s, i));
  CHECK(test_count(st, MPI_BYTE) == msg_size(s, i));
  CHECK(test_verify(buf, MPI_BYTE, msg_size(s, i), s, root, 1000 + i) == -1);
}

static void send_all(int rank, int root) {
  MPI_Request reqs[MSGS];
  unsigned char *bufs[MSGS];
  for (int i = 0; i < MSGS; ++i) {
    bufs[i] = test_malloc(msg_size(rank, i));
    test_fill(bufs[i], MPI_BYTE, msg_size(rank, i), rank, root, 1000 + i);
    CHECK_MPI(MPI_Isend(bufs[i], msg_size(rank, i), MPI_BYTE, root, msg_tag(rank, i), MPI_COMM_WORLD, &reqs[i]));
  }
  CHECK_MPI(MPI_Waitall(MSGS, reqs, MPI_STATUSES_IGNORE));
  for (int i = 0; i < MSGS; ++i) free(bufs[i]);
}

static void finish_phase(int rank, int size, int root) {
  int token = 0;
  if (rank == root)
    for (int s = 0; s < size; ++s) {
      if (s != root) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, s, TAG_DONE, MPI_COMM_WORLD));
    }
  else
    CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, root, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

/* Phase 1: blocking wildcard receives; messages may already have arrived. */
static void phase_blocking(int rank, int size, int root) {
  if (rank != root) {
    send_all(rank, root);
  } else {
    int *next = calloc(size, sizeof *next);
    unsigned char *buf = test_malloc(max_size);
    for (int k = 0; k < (size - 1) * MSGS; ++k) {
      MPI_Status st;
      test_poison_status(&st);
      CHECK_MPI(MPI_Recv(buf, max_size, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
      accept(root, buf, &st, next, size);
    }
    for (int s = 0; s < size; ++s) CHECK(s == root || next[s] == MSGS);
    free(next);
    free(buf);
  }
  finish_phase(rank, size, root);
}

/* Phase 2: all wildcard receives posted before any message is sent (senders wait for "go"). Posted receives
 * match in posting order, so walking the requests in that order must show each sender's messages in order. */
static void phase_preposted(int rank, int size, int root) {
  int token = 0;
  if (rank != root) {
    CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, root, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    send_all(rank, root);
  } else {
    int n = (size - 1) * MSGS;
    MPI_Request *reqs = calloc(n, sizeof *reqs);
    MPI_Status *sts = calloc(n, sizeof *sts);
    unsigned char **bufs = calloc(n, sizeof *bufs);
    int *next = calloc(size, sizeof *next);
    for (int k = 0; k < n; ++k) {
      bufs[k] = test_malloc(max_size);
      CHECK_MPI(MPI_Irecv(bufs[k], max_size, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &reqs[k]));
    }
    for (int s = 0; s < size; ++s)
      if (s != root) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, s, TAG_GO, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Waitall(n, reqs, sts));
    for (int k = 0; k < n; ++k) {
      accept(root, bufs[k], &sts[k], next, size);
      free(bufs[k]);
    }
    for (int s = 0; s < size; ++s) CHECK(s == root || next[s] == MSGS);
    free(reqs);
    free(sts);
    free(bufs);
    free(next);
  }
  finish_phase(rank, size, root);
}

/* Phase 3: ANY_SOURCE with a tag filter. Every sender sends tag 7 then tag 8 (alternating, several of each);
 * the root first drains tag 8 and then tag 7: the tag-7 messages must stay unmatched meanwhile. */
static void phase_tag_filter(int rank, int size, int root) {
  enum { PER_TAG = 6 };
  if (rank != root) {
    MPI_Request reqs[2 * PER_TAG];
    int vals[2 * PER_TAG];
    for (int i = 0; i < 2 * PER_TAG; ++i) {
      vals[i] = rank * 1000 + i;
      CHECK_MPI(MPI_Isend(&vals[i], 1, MPI_INT, root, 7 + i % 2, MPI_COMM_WORLD, &reqs[i]));
    }
    CHECK_MPI(MPI_Waitall(2 * PER_TAG, reqs, MPI_STATUSES_IGNORE));
  } else {
    int *next = calloc(size, sizeof *next);
    for (int tag = 8; tag >= 7; --tag) {
      for (int s = 0; s < size; ++s) next[s] = tag - 7; /* sender's message index: tag 7 even, tag 8 odd */
      for (int k = 0; k < (size - 1) * PER_TAG; ++k) {
        int v = -1;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st));
        int s = st.MPI_SOURCE;
        CHECK(s >= 0 && s < size && s != root);
        CHECK(st.MPI_TAG == tag);
        CHECK(v == s * 1000 + next[s]);
        next[s] += 2;
      }
      for (int s = 0; s < size; ++s) CHECK(s == root || next[s] == 2 * PER_TAG + tag - 7);
    }
    free(next);
  }
  finish_phase(rank, size, root);
}

/* Phase 4: a specific-source receive between two wildcard ones, all posted before the sends. Sender a (the
 * highest rank, on the other node under --nodes 2) sends two messages, sender b (rank 1 or 0) sends one. Every
 * message is received once, the specific receive gets one of a's, and a's first message lands in an earlier
 * posted receive than its second. */
static void phase_mixed(int rank, int size, int root) {
  if (size < 3) return;
  int a = root == size - 1 ? size - 2 : size - 1;
  int b = root == 0 ? 1 : 0;
  int token = 0;
  if (rank == a || rank == b) {
    CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, root, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    int v0 = rank * 10, v1 = rank * 10 + 1;
    CHECK_MPI(MPI_Send(&v0, 1, MPI_INT, root, 9, MPI_COMM_WORLD));
    if (rank == a) CHECK_MPI(MPI_Send(&v1, 1, MPI_INT, root, 9, MPI_COMM_WORLD));
  } else if (rank == root) {
    int v[3] = {-1, -1, -1};
    MPI_Request reqs[3];
    MPI_Status sts[3];
    CHECK_MPI(MPI_Irecv(&v[0], 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Irecv(&v[1], 1, MPI_INT, a, 9, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Irecv(&v[2], 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &reqs[2]));
    CHECK_MPI(MPI_Send(&token, 1, MPI_INT, a, TAG_GO, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(&token, 1, MPI_INT, b, TAG_GO, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Waitall(3, reqs, sts));
    CHECK(sts[1].MPI_SOURCE == a);
    int pos_a0 = -1, pos_a1 = -1, pos_b = -1;
    for (int k = 0; k < 3; ++k) {
      CHECK(sts[k].MPI_TAG == 9);
      CHECK(v[k] == sts[k].MPI_SOURCE * 10 + (v[k] % 10));
      if (v[k] == a * 10) pos_a0 = k;
      if (v[k] == a * 10 + 1) pos_a1 = k;
      if (v[k] == b * 10) pos_b = k;
    }
    CHECK(pos_a0 >= 0 && pos_a1 >= 0 && pos_b >= 0);
    CHECK(pos_a0 < pos_a1);
  }
  finish_phase(rank, size, root);
}

int main(int argc, char **argv) {
  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

  /* Two roots: rank 0 and the last rank, so both simulated nodes take the receiving side. */
  int roots[2] = {0, size - 1};
  for (int r = 0; r < (size > 1 ? 2 : 1); ++r) {
    phase_blocking(rank, size, roots[r]);
    phase_preposted(rank, size, roots[r]);
    phase_tag_filter(rank, size, roots[r]);
    phase_mixed(rank, size, roots[r]);
  }
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
