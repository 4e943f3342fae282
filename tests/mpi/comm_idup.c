/* MPI_Comm_idup is nonblocking (MPI-4.0 7.4.2 and 6.12): the call returns before the other members have called it,
 * so programs that a blocking implementation would deadlock must complete:
 *  - a member waits for a message that another member sends only after its own MPI_Comm_idup;
 *  - an idup on one communicator is pending while a blocking dup runs on an overlapping one, started in different
 *    orders on different ranks (valid: the orders differ only between different communicators);
 *  - an idup pending while a blocking split runs on the same communicator;
 *  - hundreds of idups pending at once, completed in reverse order: each gets its own context (no message crosses
 *    between any two of them), and freed ids are reused over several rounds.
 *  - the parent freed while its idup is pending (MPI-4.0 7.4.3: pending operations complete), then a new
 *    communicator and an idup on it created while the first idup is still pending: the freed parent's context must
 *    not be reused before its idup is done, or the two idups' messages would meet.
 * MPI_Cancel and MPI_Request_free on an active idup request are errors (MPI-4.0 6.12), and leave it usable. */
#include "test_util.h"

static int rank, size;
static int *world_ids; /* world_ids[r] = r */

/* Every member sends `value` on `comm` to every member with tag `tag`; returns whether all sent a non-zero one. */
static int all_true(MPI_Comm comm, int value, int tag) {
  int n = 0;
  CHECK_MPI(MPI_Comm_size(comm, &n));
  int *in = test_malloc(sizeof(int) * (size_t)n);
  MPI_Request *reqs = test_malloc(sizeof(MPI_Request) * 2 * (size_t)n);
  for (int r = 0; r < n; ++r) {
    CHECK_MPI(MPI_Irecv(&in[r], 1, MPI_INT, r, tag, comm, &reqs[r]));
    CHECK_MPI(MPI_Isend(&value, 1, MPI_INT, r, tag, comm, &reqs[n + r]));
  }
  CHECK_MPI(MPI_Waitall(2 * n, reqs, MPI_STATUSES_IGNORE));
  int all = 1;
  for (int r = 0; r < n; ++r) all = all && in[r];
  free(in);
  free(reqs);
  return all;
}

/* Every member sends its rank on `comm` to every other member with tag `tag`; each receives them all. */
static void exchange(MPI_Comm comm, int tag) {
  int n = 0, me = 0;
  CHECK_MPI(MPI_Comm_size(comm, &n));
  CHECK_MPI(MPI_Comm_rank(comm, &me));
  int *in = test_malloc(sizeof(int) * (size_t)n);
  MPI_Request *reqs = test_malloc(sizeof(MPI_Request) * 2 * (size_t)n);
  for (int r = 0; r < n; ++r) {
    in[r] = -1;
    CHECK_MPI(MPI_Irecv(&in[r], 1, MPI_INT, r, tag, comm, &reqs[r]));
    CHECK_MPI(MPI_Isend(&me, 1, MPI_INT, r, tag, comm, &reqs[n + r]));
  }
  CHECK_MPI(MPI_Waitall(2 * n, reqs, MPI_STATUSES_IGNORE));
  for (int r = 0; r < n; ++r) CHECK(in[r] == r);
  free(in);
  free(reqs);
}

/* Each rank sends one message on each of `comms` to its right neighbour (on comms[i] with tag i) and receives
 * them with wildcards, posted in the opposite order: a message found on another communicator than the one it was
 * sent on means two of them share a context. */
static void check_all_isolated(MPI_Comm *comms, int n) {
  int right = (rank + 1) % size, left = (rank - 1 + size) % size;
  int *out = test_malloc(sizeof(int) * (size_t)n), *in = test_malloc(sizeof(int) * (size_t)n);
  MPI_Request *reqs = test_malloc(sizeof(MPI_Request) * 2 * (size_t)n);
  MPI_Status *st = test_malloc(sizeof(MPI_Status) * 2 * (size_t)n);
  for (int i = 0; i < n; ++i) {
    in[i] = -1;
    CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comms[n - 1 - i], &reqs[i]));
  }
  for (int i = 0; i < n; ++i) {
    out[i] = 1000 * rank + (n - 1 - i);
    CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, right, n - 1 - i, comms[n - 1 - i], &reqs[n + i]));
  }
  CHECK_MPI(MPI_Waitall(2 * n, reqs, st));
  for (int i = 0; i < n; ++i) {
    const int which = n - 1 - i;
    CHECK(st[i].MPI_TAG == which);
    CHECK(st[i].MPI_SOURCE == left);
    CHECK(in[i] == 1000 * left + which);
  }
  free(out);
  free(in);
  free(reqs);
  free(st);
}

static void check_congruent(MPI_Comm a, MPI_Comm b) {
  int result = -1;
  CHECK(a != b);
  CHECK_MPI(MPI_Comm_compare(a, b, &result));
  CHECK(result == MPI_CONGRUENT);
}

/* Even ranks: idup, then send to the odd neighbour; odd ranks: receive, then idup. Blocking would deadlock. */
static void test_idup_before_message(void) {
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Request req = MPI_REQUEST_NULL;
  int token = 0;
  const int partner = rank % 2 == 0 ? rank + 1 : rank - 1;
  if (rank % 2 == 0) {
    CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req));
    token = 4242 + rank;
    if (partner < size) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, partner, 5, MPI_COMM_WORLD));
  } else {
    CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, partner, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(token == 4242 + partner);
    CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req));
  }
  MPI_Status st;
  test_poison_status(&st);
  CHECK_MPI(MPI_Wait(&req, &st));
  CHECK(req == MPI_REQUEST_NULL);
#ifdef STRATA
  /* MPI-4.0 6.12 leaves MPI_SOURCE and MPI_TAG of a completed collective undefined; Strata returns an empty status. */
  CHECK(test_status_is_empty(&st));
#endif
  check_congruent(MPI_COMM_WORLD, dup);
  exchange(dup, 3);
  test_check_comm(dup, world_ids, size, 1, 9);
  CHECK_MPI(MPI_Comm_free(&dup));
}

/* Rank 0 starts an idup of WORLD and then a blocking dup of pair = {0, 1}; rank 1 does the dup first. */
static void test_idup_across_blocking_dup(void) {
  MPI_Comm pair = MPI_COMM_NULL, pair_dup = MPI_COMM_NULL, world_dup = MPI_COMM_NULL;
  MPI_Request req = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : 1, rank, &pair));
  if (rank == 1) {
    CHECK_MPI(MPI_Comm_dup(pair, &pair_dup));
    CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &world_dup, &req));
  } else {
    CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &world_dup, &req));
    CHECK_MPI(MPI_Comm_dup(pair, &pair_dup));
  }
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  check_congruent(MPI_COMM_WORLD, world_dup);
  check_congruent(pair, pair_dup);
  exchange(world_dup, 4);
  exchange(pair_dup, 4);
  /* Both new contexts differ from each other and from their parents': wildcard traffic on all four at once. */
  MPI_Comm four[4] = {MPI_COMM_WORLD, world_dup, pair, pair_dup};
  int in[4], out[4];
  MPI_Request reqs[8];
  MPI_Status st[8];
  for (int i = 0; i < 4; ++i) {
    in[i] = -1;
    CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, four[i], &reqs[i]));
  }
  for (int i = 0; i < 4; ++i) { /* to the right neighbour in each */
    int me = 0, n = 0;
    CHECK_MPI(MPI_Comm_rank(four[i], &me));
    CHECK_MPI(MPI_Comm_size(four[i], &n));
    out[i] = 100 + i;
    CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, (me + 1) % n, i, four[i], &reqs[4 + i]));
  }
  CHECK_MPI(MPI_Waitall(8, reqs, st));
  for (int i = 0; i < 4; ++i) {
    CHECK(in[i] == 100 + i);
    CHECK(st[i].MPI_TAG == i);
  }
  CHECK_MPI(MPI_Comm_free(&world_dup));
  CHECK_MPI(MPI_Comm_free(&pair_dup));
  CHECK_MPI(MPI_Comm_free(&pair));
}

/* Ranks 0 and 1 start idup(P) and free P at once, then make Q over just the two of them (MPI_Comm_create_group)
 * and start idup(Q); the other ranks call idup(P) only after a message sent once that has happened. So on ranks 0
 * and 1 both idups are pending together, and P's slot, free there, is the lowest one Q could take (this runs
 * first, with only WORLD and SELF below it): were it reused, both idups (first on their parent: the same tag) would
 * exchange their messages on the same context. Needs 3 ranks or more. */
static void test_free_parent_during_idup(void) {
  if (size < 3) return;
  MPI_Comm p, q = MPI_COMM_NULL, from_p, from_q = MPI_COMM_NULL;
  MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int go = 1;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &p));
  if (rank < 2) {
    MPI_Group world, pair;
    const int pair_ranks[2] = {0, 1};
    CHECK_MPI(MPI_Comm_idup(p, &from_p, &reqs[0]));
    CHECK_MPI(MPI_Comm_free(&p));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_MPI(MPI_Group_incl(world, 2, pair_ranks, &pair));
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, pair, 7, &q));
    CHECK_MPI(MPI_Comm_idup(q, &from_q, &reqs[1]));
    if (rank == 0)
      for (int r = 2; r < size; ++r) CHECK_MPI(MPI_Send(&go, 1, MPI_INT, r, 6, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Group_free(&world));
    CHECK_MPI(MPI_Group_free(&pair));
  } else {
    CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_idup(p, &from_p, &reqs[0]));
    CHECK_MPI(MPI_Comm_free(&p));
  }
  CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
  check_congruent(MPI_COMM_WORLD, from_p);
  exchange(from_p, 5);
  CHECK_MPI(MPI_Comm_free(&from_p));
  if (rank < 2) {
    check_congruent(q, from_q);
    exchange(from_q, 5);
    CHECK_MPI(MPI_Comm_free(&from_q));
    CHECK_MPI(MPI_Comm_free(&q));
  }
}

/* An idup pending while a blocking split runs on the same communicator (the same order on every rank). */
static void test_idup_then_split(void) {
  MPI_Comm dup = MPI_COMM_NULL, half = MPI_COMM_NULL;
  MPI_Request req = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req));
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half));
  int flag = 0;
  while (!flag) CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
  check_congruent(MPI_COMM_WORLD, dup);
  int half_rank = -1, half_size = -1;
  CHECK_MPI(MPI_Comm_rank(half, &half_rank));
  CHECK_MPI(MPI_Comm_size(half, &half_size));
  CHECK(half_size == (size - rank % 2 + 1) / 2);
  CHECK(half_rank == half_size - 1 - rank / 2); /* keys -rank: reversed order */
  exchange(dup, 6);
  exchange(half, 6);
  CHECK_MPI(MPI_Comm_free(&half));
  CHECK_MPI(MPI_Comm_free(&dup));
}

/* Many idups pending at once (alternately of WORLD and of a duplicate), completed in reverse order; repeated so
 * that the freed ids come back into use. */
static void test_many_pending(int n, int rounds) {
  MPI_Comm base = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &base));
  MPI_Comm *d = test_malloc(sizeof(MPI_Comm) * (size_t)n);
  MPI_Request *req = test_malloc(sizeof(MPI_Request) * (size_t)n);
  for (int round = 0; round < rounds; ++round) {
    for (int i = 0; i < n; ++i) CHECK_MPI(MPI_Comm_idup(i % 2 ? base : MPI_COMM_WORLD, &d[i], &req[i]));
    for (int i = n - 1; i >= 0; --i) {
      CHECK_MPI(MPI_Wait(&req[i], MPI_STATUS_IGNORE));
      CHECK(req[i] == MPI_REQUEST_NULL);
    }
    for (int i = 0; i < n; ++i) check_congruent(MPI_COMM_WORLD, d[i]);
    check_all_isolated(d, n);
    for (int i = 0; i < n; ++i) CHECK_MPI(MPI_Comm_free(&d[i]));
  }
  free(d);
  free(req);
  CHECK_MPI(MPI_Comm_free(&base));
}

/* Completion by MPI_Testall while point-to-point traffic runs on the parent: rounds of traffic go on until the
 * idups have completed everywhere (each round tells every rank whether the others are done). */
static void test_testall_with_traffic(void) {
  enum { N = 6 };
  MPI_Comm d[N];
  MPI_Request req[N];
  for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &d[i], &req[i]));
  int flag = 0, round = 0;
  do {
    exchange(MPI_COMM_WORLD, 20 + round % 5);
    ++round;
    if (!flag) CHECK_MPI(MPI_Testall(N, req, &flag, MPI_STATUSES_IGNORE));
  } while (!all_true(MPI_COMM_WORLD, flag, 19));
  check_all_isolated(d, N);
  for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Comm_free(&d[i]));
}

static void test_bad_requests(void) {
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Request req = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req));
  const MPI_Request kept = req;
#ifdef STRATA /* MPICH 4.0.2 answers MPI_Cancel with MPI_ERR_INTERN */
  TEST_EXPECT_ERROR(MPI_Cancel(&req), MPI_ERR_REQUEST, "MPI_Cancel");
  TEST_EXPECT_ERROR(MPI_Request_free(&req), MPI_ERR_REQUEST, "MPI_Request_free");
#endif
  CHECK(req == kept);
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  check_congruent(MPI_COMM_WORLD, dup);
  exchange(dup, 8);
  CHECK_MPI(MPI_Comm_free(&dup));
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  world_ids = test_malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) world_ids[r] = r;

  test_free_parent_during_idup(); /* first: it relies on the lowest free slot (see there) */
  test_idup_before_message();
  test_idup_across_blocking_dup();
  test_idup_then_split();
  test_many_pending(300, 3);
  test_testall_with_traffic();
  /* Errors on requests are raised on MPI_COMM_SELF (MPI-4.0 9.3: no communicator is involved). */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  test_bad_requests();

  free(world_ids);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
