/* The completion family (MPI-4.0 3.7.3 - 3.7.6): Waitany / Testany / Waitsome / Testsome / Waitall / Testall over
 * arrays mixing active requests with MPI_REQUEST_NULL and inactive persistent requests; Request_get_status, which
 * does not free; MPI_Get_count, including MPI_UNDEFINED.
 *
 * Ring pattern: each rank receives from its left neighbour and sends to its right one. The left neighbour only
 * sends after our "go", so before it the receives are known to be incomplete. */
#include "test_util.h"

enum { NREQ = 20, TAG_GO = 90, TAG_BASE = 100 }; /* more slots than the 16 the calls keep on the stack */

static int rank, size, left, right;

/* Message for slot i of a round: its size in bytes (slot 5 is rendezvous-sized) and tag. */
static int slot_size(int i) { return i == 5 ? 300007 : 3 + 10 * i; }

/* Array layout of every round: active receives at the slots where `active[i]`, MPI_REQUEST_NULL at slots 0 and 4,
 * an inactive persistent receive at slot 2. */
static const int active[NREQ] = {0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
enum { NACTIVE = NREQ - 3 };

typedef struct {
  MPI_Request reqs[NREQ];
  unsigned char *bufs[NREQ];
  MPI_Request persistent, sends[NREQ];
  unsigned char *out[NREQ];
  int nsends, go_out, go_in;
} round_state;

static void round_post(round_state *r, int round) {
  memset(r, 0, sizeof *r);
  for (int i = 0; i < NREQ; ++i) {
    r->reqs[i] = MPI_REQUEST_NULL;
    r->bufs[i] = test_malloc(slot_size(i));
    if (active[i])
      CHECK_MPI(MPI_Irecv(r->bufs[i], slot_size(i), MPI_BYTE, left, TAG_BASE + round * NREQ + i, MPI_COMM_WORLD,
                          &r->reqs[i]));
  }
  CHECK_MPI(MPI_Recv_init(r->bufs[2], slot_size(2), MPI_BYTE, left, 1, MPI_COMM_WORLD, &r->persistent));
  r->reqs[2] = r->persistent;
}

/* Let the left neighbour send, and send our messages to the right one once it lets us. */
static void round_go(round_state *r, int round) {
  MPI_Request go_req;
  CHECK_MPI(MPI_Isend(&r->go_out, 1, MPI_INT, left, TAG_GO, MPI_COMM_WORLD, &go_req));
  CHECK_MPI(MPI_Recv(&r->go_in, 1, MPI_INT, right, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&go_req, MPI_STATUS_IGNORE));
  for (int i = 0; i < NREQ; ++i) {
    if (!active[i]) continue;
    r->out[i] = test_malloc(slot_size(i));
    test_fill(r->out[i], MPI_BYTE, slot_size(i), rank, right, TAG_BASE + round * NREQ + i);
    CHECK_MPI(MPI_Isend(r->out[i], slot_size(i), MPI_BYTE, right, TAG_BASE + round * NREQ + i, MPI_COMM_WORLD,
                        &r->sends[r->nsends++]));
  }
}

static void check_slot(const round_state *r, int round, int i, const MPI_Status *st) {
  CHECK(i >= 0 && i < NREQ && active[i]);
  CHECK(st->MPI_SOURCE == left && st->MPI_TAG == TAG_BASE + round * NREQ + i);
  CHECK(test_count(st, MPI_BYTE) == slot_size(i));
  CHECK(test_verify(r->bufs[i], MPI_BYTE, slot_size(i), left, rank, TAG_BASE + round * NREQ + i) == -1);
}

static void round_finish(round_state *r) {
  for (int i = 0; i < NREQ; ++i) CHECK(r->reqs[i] == MPI_REQUEST_NULL || i == 2);
  CHECK(r->reqs[2] == r->persistent); /* inactive persistent requests are left alone */
  CHECK_MPI(MPI_Request_free(&r->persistent));
  CHECK_MPI(MPI_Waitall(r->nsends, r->sends, MPI_STATUSES_IGNORE));
  for (int i = 0; i < NREQ; ++i) {
    free(r->bufs[i]);
    free(r->out[i]);
  }
  test_barrier();
}

/* Nothing can complete before "go": the Test calls report so, and Testall modifies no request. */
static void check_nothing_done(round_state *r) {
  int flag = 1, index = 0, outcount = -1, indices[NREQ];
  MPI_Status st, sts[NREQ];
  CHECK_MPI(MPI_Testany(NREQ, r->reqs, &index, &flag, &st));
  CHECK(!flag && index == MPI_UNDEFINED);
  CHECK_MPI(MPI_Testsome(NREQ, r->reqs, &outcount, indices, sts));
  CHECK(outcount == 0);
  MPI_Request copy[NREQ];
  memcpy(copy, r->reqs, sizeof copy);
  flag = 1;
  CHECK_MPI(MPI_Testall(NREQ, r->reqs, &flag, sts));
  CHECK(!flag);
  CHECK(memcmp(copy, r->reqs, sizeof copy) == 0);
}

static void round_waitany(void) {
  round_state r;
  round_post(&r, 0);
  check_nothing_done(&r);
  round_go(&r, 0);
  int seen[NREQ] = {0};
  for (int k = 0; k < NACTIVE; ++k) {
    int index = -1;
    MPI_Status st;
    test_poison_status(&st);
    CHECK_MPI(MPI_Waitany(NREQ, r.reqs, &index, &st));
    check_slot(&r, 0, index, &st);
    CHECK(!seen[index]++);
    CHECK(r.reqs[index] == MPI_REQUEST_NULL);
  }
  int index = 0;
  MPI_Status st;
  test_poison_status(&st);
  CHECK_MPI(MPI_Waitany(NREQ, r.reqs, &index, &st)); /* no active request left */
  CHECK(index == MPI_UNDEFINED);
  CHECK(test_status_is_empty(&st));
  round_finish(&r);
}

static void round_testany(void) {
  round_state r;
  round_post(&r, 1);
  round_go(&r, 1);
  int seen[NREQ] = {0}, done = 0;
  while (done < NACTIVE) {
    int index = -1, flag = 0;
    MPI_Status st;
    CHECK_MPI(MPI_Testany(NREQ, r.reqs, &index, &flag, &st));
    if (!flag) {
      CHECK(index == MPI_UNDEFINED);
      continue;
    }
    check_slot(&r, 1, index, &st);
    CHECK(!seen[index]++);
    ++done;
  }
  int index = 0, flag = 0;
  MPI_Status st;
  test_poison_status(&st);
  CHECK_MPI(MPI_Testany(NREQ, r.reqs, &index, &flag, &st));
  CHECK(flag && index == MPI_UNDEFINED);
  CHECK(test_status_is_empty(&st));
  round_finish(&r);
}

/* Waitsome (testing = 0) or Testsome (testing = 1) until MPI_UNDEFINED: each active request reported once. */
static void round_some(int round, int testing) {
  round_state r;
  round_post(&r, round);
  check_nothing_done(&r);
  round_go(&r, round);
  int seen[NREQ] = {0}, done = 0;
  for (;;) {
    int outcount = -1, indices[NREQ];
    MPI_Status sts[NREQ];
    if (testing)
      CHECK_MPI(MPI_Testsome(NREQ, r.reqs, &outcount, indices, sts));
    else
      CHECK_MPI(MPI_Waitsome(NREQ, r.reqs, &outcount, indices, sts));
    if (outcount == MPI_UNDEFINED) break;
    CHECK(outcount >= (testing ? 0 : 1) && outcount <= NREQ);
    for (int k = 0; k < outcount; ++k) {
      check_slot(&r, round, indices[k], &sts[k]);
      CHECK(!seen[indices[k]]++);
      CHECK(r.reqs[indices[k]] == MPI_REQUEST_NULL);
      ++done;
    }
  }
  CHECK(done == NACTIVE);
  round_finish(&r);
}

/* Waitall/Testall: statuses of null and inactive entries are empty. */
static void round_all(int round, int testing) {
  round_state r;
  round_post(&r, round);
  check_nothing_done(&r);
  round_go(&r, round);
  MPI_Status sts[NREQ];
  for (int i = 0; i < NREQ; ++i) test_poison_status(&sts[i]);
  if (testing) {
    int flag = 0;
    while (!flag) CHECK_MPI(MPI_Testall(NREQ, r.reqs, &flag, sts));
  } else {
    CHECK_MPI(MPI_Waitall(NREQ, r.reqs, sts));
  }
  for (int i = 0; i < NREQ; ++i) {
    if (active[i])
      check_slot(&r, round, i, &sts[i]);
    else
      CHECK(test_status_is_empty(&sts[i]));
  }
  round_finish(&r);
}

/* Arrays without any active request. */
static void all_inactive(void) {
  MPI_Request reqs[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int buf = 0, index = 0, flag = 0, outcount = 0, indices[3];
  MPI_Status st, sts[3];
  CHECK_MPI(MPI_Recv_init(&buf, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &reqs[1]));

  CHECK_MPI(MPI_Waitany(3, reqs, &index, &st));
  CHECK(index == MPI_UNDEFINED && test_status_is_empty(&st));
  CHECK_MPI(MPI_Testany(3, reqs, &index, &flag, &st));
  CHECK(flag && index == MPI_UNDEFINED && test_status_is_empty(&st));
  CHECK_MPI(MPI_Waitsome(3, reqs, &outcount, indices, sts));
  CHECK(outcount == MPI_UNDEFINED);
  CHECK_MPI(MPI_Testsome(3, reqs, &outcount, indices, sts));
  CHECK(outcount == MPI_UNDEFINED);
  flag = 0;
  CHECK_MPI(MPI_Testall(3, reqs, &flag, sts));
  CHECK(flag);
  for (int i = 0; i < 3; ++i) CHECK(test_status_is_empty(&sts[i]));
  CHECK_MPI(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE));
  CHECK_MPI(MPI_Waitall(0, reqs, sts)); /* empty list */
  CHECK_MPI(MPI_Waitany(0, reqs, &index, &st));
  CHECK(index == MPI_UNDEFINED);
  CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] != MPI_REQUEST_NULL && reqs[2] == MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Request_free(&reqs[1]));
}

/* Request_get_status reports completion without freeing; a later Wait frees and returns the same status. */
static void get_status_keeps_request(void) {
  enum { N = 70001 };
  unsigned char *in = test_malloc(N), *out = test_malloc(N);
  int go_out = 0, go_in = 0, flag = 0;
  MPI_Request rreq, sreq;
  MPI_Status st1, st2;
  CHECK_MPI(MPI_Irecv(in, N, MPI_BYTE, left, 3, MPI_COMM_WORLD, &rreq));
  CHECK_MPI(MPI_Request_get_status(rreq, &flag, &st1));
  CHECK(!flag); /* the left neighbour waits for our go */
  MPI_Request go_req;
  CHECK_MPI(MPI_Isend(&go_out, 1, MPI_INT, left, TAG_GO, MPI_COMM_WORLD, &go_req));
  CHECK_MPI(MPI_Recv(&go_in, 1, MPI_INT, right, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&go_req, MPI_STATUS_IGNORE));
  test_fill(out, MPI_BYTE, N, rank, right, 3);
  CHECK_MPI(MPI_Isend(out, N, MPI_BYTE, right, 3, MPI_COMM_WORLD, &sreq));
  while (!flag) CHECK_MPI(MPI_Request_get_status(rreq, &flag, &st1));
  CHECK(rreq != MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Request_get_status(rreq, &flag, &st2)); /* still there, still complete */
  CHECK(flag && rreq != MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Wait(&rreq, &st2));
  CHECK(rreq == MPI_REQUEST_NULL);
  CHECK(st1.MPI_SOURCE == left && st1.MPI_TAG == 3 && test_count(&st1, MPI_BYTE) == N);
  CHECK(st2.MPI_SOURCE == left && st2.MPI_TAG == 3 && test_count(&st2, MPI_BYTE) == N);
  CHECK(test_verify(in, MPI_BYTE, N, left, rank, 3) == -1);
  CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
  free(in);
  free(out);
  test_barrier();
}

/* MPI_Get_count (3.2.5) converts the received byte count to elements of the given type, MPI_UNDEFINED when it is
 * not a whole number. The standard asks for the receive's datatype; asking with a different predefined type, as
 * below, is how the "not a multiple" case is reached without derived datatypes. */
static void get_count(void) {
  unsigned char out[8] = {1, 2, 3, 4, 5, 6, 7, 8}, in[8];
  MPI_Request sreq;
  MPI_Status st;
  CHECK_MPI(MPI_Isend(out, 8, MPI_BYTE, rank, 4, MPI_COMM_WORLD, &sreq));
  CHECK_MPI(MPI_Recv(in, 8, MPI_BYTE, rank, 4, MPI_COMM_WORLD, &st));
  CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
  CHECK(test_count(&st, MPI_BYTE) == 8);
  CHECK(test_count(&st, MPI_CHAR) == 8);
  CHECK(test_count(&st, MPI_INT) == 8 / (int)sizeof(int));
  CHECK(test_count(&st, MPI_DOUBLE) == 1);

  CHECK_MPI(MPI_Isend(out, 7, MPI_BYTE, rank, 4, MPI_COMM_WORLD, &sreq));
  CHECK_MPI(MPI_Recv(in, 8, MPI_BYTE, rank, 4, MPI_COMM_WORLD, &st));
  CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
  CHECK(test_count(&st, MPI_BYTE) == 7);
  CHECK(test_count(&st, MPI_INT) == MPI_UNDEFINED);
  CHECK(test_count(&st, MPI_DOUBLE) == MPI_UNDEFINED);

  CHECK_MPI(MPI_Isend(out, 0, MPI_BYTE, rank, 4, MPI_COMM_WORLD, &sreq));
  CHECK_MPI(MPI_Recv(in, 8, MPI_BYTE, rank, 4, MPI_COMM_WORLD, &st));
  CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
  CHECK(test_count(&st, MPI_INT) == 0 && test_count(&st, MPI_DOUBLE) == 0);
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  left = (rank - 1 + size) % size;
  right = (rank + 1) % size;

  get_count();
  all_inactive();
  round_waitany();
  round_testany();
  round_some(2, 0);
  round_some(3, 1);
  round_all(4, 0);
  round_all(5, 1);
  get_status_keeps_request();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
