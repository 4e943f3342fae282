/* MPI_Probe / MPI_Iprobe (MPI-4.0 3.8.1): a probe reports source, tag and count of a pending message without
 * receiving it; probing twice sees the same message; a receive with the probed source and tag then gets exactly
 * that message. Iprobe says "nothing" when nothing was sent. Probing MPI_PROC_NULL returns at once with the
 * PROC_NULL status.
 *
 * A root probes messages of every other rank with wildcards (both simulated nodes under --nodes 2). As in
 * p2p_any_source, senders wait for "go" and a phase ends with "done", so wildcard probes see only test data. */
#include "test_util.h"

enum { MSGS = 6, TAG_GO = 500, TAG_DONE = 501, NCOUNTS = 6 };
static const int counts[NCOUNTS] = {0, 1, 1023, 1025, 65539, 262147}; /* MPI_INT elements */

static int msg_tag(int s, int i) { return 20 + (s + i) % 3; }
static int msg_count(int s, int i) { return counts[(s * 5 + i) % NCOUNTS]; }

static void send_all(int rank, int root) {
  int token;
  MPI_Request reqs[MSGS];
  int *bufs[MSGS];
  CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, root, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  for (int i = 0; i < MSGS; ++i) {
    bufs[i] = test_malloc(msg_count(rank, i) * sizeof(int));
    test_fill(bufs[i], MPI_INT, msg_count(rank, i), rank, root, 1000 + i);
    CHECK_MPI(MPI_Isend(bufs[i], msg_count(rank, i), MPI_INT, root, msg_tag(rank, i), MPI_COMM_WORLD, &reqs[i]));
  }
  CHECK_MPI(MPI_Waitall(MSGS, reqs, MPI_STATUSES_IGNORE));
  for (int i = 0; i < MSGS; ++i) free(bufs[i]);
  CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, root, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

static void release(int rank, int size, int tag) {
  int token = 0;
  for (int s = 0; s < size; ++s)
    if (s != rank) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, s, tag, MPI_COMM_WORLD));
}

/* A probe returned `st`: check it against the next expected message of its source, probe that source and tag
 * again (same answer), then receive exactly the announced count with the announced source and tag. */
static void receive_probed(int root, int size, const MPI_Status *st, int *next) {
  int s = st->MPI_SOURCE, tag = st->MPI_TAG;
  CHECK(s >= 0 && s < size && s != root);
  int i = next[s]++;
  CHECK(i < MSGS);
  CHECK(tag == msg_tag(s, i));
  int count = test_count(st, MPI_INT);
  CHECK(count == msg_count(s, i));

  MPI_Status again;
  test_poison_status(&again);
  CHECK_MPI(MPI_Probe(s, tag, MPI_COMM_WORLD, &again));
  CHECK(again.MPI_SOURCE == s && again.MPI_TAG == tag && test_count(&again, MPI_INT) == count);

  int *buf = test_malloc(count * sizeof(int));
  MPI_Status rst;
  CHECK_MPI(MPI_Recv(buf, count, MPI_INT, s, tag, MPI_COMM_WORLD, &rst));
  CHECK(rst.MPI_SOURCE == s && rst.MPI_TAG == tag && test_count(&rst, MPI_INT) == count);
  CHECK(test_verify(buf, MPI_INT, count, s, root, 1000 + i) == -1);
  free(buf);
}

/* Blocking Probe with both wildcards. */
static void phase_probe(int rank, int size, int root) {
  if (rank != root) {
    send_all(rank, root);
    return;
  }
  int *next = calloc(size, sizeof *next);
  release(rank, size, TAG_GO);
  for (int k = 0; k < (size - 1) * MSGS; ++k) {
    MPI_Status st;
    test_poison_status(&st);
    CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    receive_probed(root, size, &st, next);
  }
  for (int s = 0; s < size; ++s) CHECK(s == root || next[s] == MSGS);
  release(rank, size, TAG_DONE);
  free(next);
}

/* Iprobe: nothing pending before "go"; afterwards poll until every message was seen. Odd sources are polled
 * by exact source with MPI_ANY_TAG, the rest with MPI_ANY_SOURCE. */
static void phase_iprobe(int rank, int size, int root) {
  if (rank != root) {
    send_all(rank, root);
    return;
  }
  int flag = 1;
  CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
  CHECK(!flag); /* every sender is still waiting for "go" */

  int *next = calloc(size, sizeof *next);
  release(rank, size, TAG_GO);
  int done = 0, turn = 0;
  while (done < (size - 1) * MSGS) {
    int src = (turn++ % 2) ? MPI_ANY_SOURCE : (turn / 2) % size;
    if (src == root) continue;
    MPI_Status st;
    test_poison_status(&st);
    CHECK_MPI(MPI_Iprobe(src, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    if (!flag) continue;
    CHECK(src == MPI_ANY_SOURCE || st.MPI_SOURCE == src);
    receive_probed(root, size, &st, next);
    ++done;
  }
  for (int s = 0; s < size; ++s) CHECK(s == root || next[s] == MSGS);
  CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
  CHECK(!flag); /* all consumed; senders wait for "done" */
  release(rank, size, TAG_DONE);
  free(next);
}

/* A probe for a specific tag skips earlier messages with other tags; those stay pending. Uses oneself, so it
 * also runs on one rank: a small message with tag 41, then a rendezvous-sized one with tag 42. */
static void phase_self_tags(int rank) {
  enum { SMALL = 3, BIG = 300001 };
  int *a = test_malloc(SMALL * sizeof(int)), *b = test_malloc(BIG * sizeof(int));
  int *ra = test_malloc(SMALL * sizeof(int)), *rb = test_malloc(BIG * sizeof(int));
  MPI_Request reqs[2];
  MPI_Status st;
  test_fill(a, MPI_INT, SMALL, rank, rank, 41);
  test_fill(b, MPI_INT, BIG, rank, rank, 42);
  CHECK_MPI(MPI_Isend(a, SMALL, MPI_INT, rank, 41, MPI_COMM_WORLD, &reqs[0]));
  CHECK_MPI(MPI_Isend(b, BIG, MPI_INT, rank, 42, MPI_COMM_WORLD, &reqs[1]));

  CHECK_MPI(MPI_Probe(rank, 42, MPI_COMM_WORLD, &st));
  CHECK(st.MPI_SOURCE == rank && st.MPI_TAG == 42 && test_count(&st, MPI_INT) == BIG);
  CHECK_MPI(MPI_Probe(rank, MPI_ANY_TAG, MPI_COMM_WORLD, &st)); /* the earliest one: tag 41 */
  CHECK(st.MPI_TAG == 41 && test_count(&st, MPI_INT) == SMALL);
  CHECK_MPI(MPI_Recv(rb, BIG, MPI_INT, rank, 42, MPI_COMM_WORLD, &st));
  CHECK(test_count(&st, MPI_INT) == BIG && test_verify(rb, MPI_INT, BIG, rank, rank, 42) == -1);

  int flag = 0;
  CHECK_MPI(MPI_Iprobe(rank, 42, MPI_COMM_WORLD, &flag, &st));
  CHECK(!flag); /* received */
  while (!flag) CHECK_MPI(MPI_Iprobe(rank, 41, MPI_COMM_WORLD, &flag, &st));
  CHECK(st.MPI_TAG == 41 && test_count(&st, MPI_INT) == SMALL);
  CHECK_MPI(MPI_Recv(ra, SMALL, MPI_INT, rank, 41, MPI_COMM_WORLD, &st));
  CHECK(test_verify(ra, MPI_INT, SMALL, rank, rank, 41) == -1);
  CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
  free(a);
  free(b);
  free(ra);
  free(rb);
}

static void phase_proc_null(void) {
  MPI_Status st;
  int flag = 0;
  test_poison_status(&st);
  CHECK_MPI(MPI_Probe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st));
  CHECK(test_status_is_proc_null(&st));
  test_poison_status(&st);
  CHECK_MPI(MPI_Iprobe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
  CHECK(flag);
  CHECK(test_status_is_proc_null(&st));
}

int main(int argc, char **argv) {
  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

  phase_proc_null();
  phase_self_tags(rank);
  test_barrier();
  int roots[2] = {0, size - 1};
  for (int r = 0; r < (size > 1 ? 2 : 1); ++r) {
    phase_probe(rank, size, roots[r]);
    phase_iprobe(rank, size, roots[r]);
  }
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
