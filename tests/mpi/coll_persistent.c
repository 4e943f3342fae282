/* Persistent collectives (MPI-4.0 6.13), with the cases and checks of coll_all.c (included below: the expected
 * buffers, sentinels and sequential references; ccase_call with an info makes the init call):
 *  - restarts: every persistent collective (MPI_Barrier_init ... MPI_Exscan_init) on the three communicators of
 *    coll_all.c, each made once and started 1, 2 or 20 times (past the 16 node areas a persistent slot takes in
 *    turn), its buffers refilled with other data before every start (a start must use the contents of that moment,
 *    never data seen at init), each run checked; counts 0, 1, 7 and large, rows, roots and MPI_IN_PLACE rotating.
 *    Strata only: the v and w variants' count arrays are overwritten right after the init (Strata reads them then);
 *  - orders: one of each persistent collective plus persistent point-to-point requests on one communicator, started
 *    by one MPI_Startall in an order that differs per rank (allowed for persistent collectives: the init calls fix
 *    their matching, not the starts), completed by MPI_Waitall, three times;
 *  - states: inactive after init and after completion (MPI_Wait, MPI_Test and MPI_Request_get_status return at once
 *    with an empty status); MPI_Start of an active request, MPI_Request_free and MPI_Cancel of an active one fail with
 *    MPI_ERR_REQUEST and change nothing (the run still completes right); MPI_Request_free of an inactive one;
 *  - info: an algorithm named by strata_coll_<operation> on the init runs (Strata: MPIX_Request_get_algorithm).
 *
 * A plain MPI-4.0 program: it also builds with mpicc.mpich. MPICH 4.0.2's Allgather_init, Gather_init and
 * Scatter_init deliver wrong data when restarted; those restarts are checked for Strata only. */
#define COLL_ALL_NO_MAIN
#include "coll_all.c"

enum { TAG_P2P = 200 };

/* Whether a persistent case can be run and checked under this library (see the header; MPICH's three also use the
 * data of the init call's moment). */
static int restartable(int op) {
#ifdef STRATA
  (void)op;
  return 1;
#else
  return op != C_ALLGATHER && op != C_GATHER && op != C_SCATTER;
#endif
}

static void init_case(ccase *c, MPI_Request *req, MPI_Info info) {
  *req = MPI_REQUEST_NULL;
  expect_success(c, ccase_call(c, req, &info), __LINE__);
  CHECK(*req != MPI_REQUEST_NULL);
#ifdef STRATA
  /* Strata copies the count and displacement arrays at init, so they may be freed right after it: poisoned here. */
  int *arrays[] = {c->sc, c->sd, c->rc, c->rd};
  for (int a = 0; a < 4; ++a)
    for (int i = 0; arrays[a] && i < c->cc->size; ++i) arrays[a][i] = -1;
#endif
}

/* The same case with the data of another seed, written into this case's buffers (a persistent collective is bound to
 * them): the send data, the receive buffer's starting image, and what the call must produce. */
static void ccase_refill(ccase *c, int seed) {
  ccase fresh = ccase_make(c->cc, c->op, c->row, c->count, c->root, c->inplace, seed);
  if (c->sbuf.raw) memcpy(c->sbuf.raw, fresh.sbuf.raw, c->sbuf.bytes);
  if (c->rbuf.raw) memcpy(c->rbuf.raw, fresh.rbuf.raw, c->rbuf.bytes);
  if (c->want.raw) memcpy(c->want.raw, fresh.want.raw, c->want.bytes);
  if (c->sorig) memcpy(c->sorig, fresh.sorig, c->sbuf.bytes);
  c->seed = seed;
  ccase_free(&fresh);
}

/* Inactive: Wait, Test and Request_get_status return at once with an empty status, the handle unchanged. (MPICH
 * 4.0.2 hangs in MPI_Wait on an inactive persistent collective: checked for Strata only.) */
static void expect_inactive(MPI_Request req) {
#ifndef STRATA
  (void)req;
#else
  MPI_Request copy = req;
  MPI_Status st;
  int flag = 0;
  CHECK_MPI(MPI_Wait(&copy, &st));
  CHECK(copy == req && test_status_is_empty(&st));
  CHECK_MPI(MPI_Test(&copy, &flag, &st));
  CHECK(flag && copy == req && test_status_is_empty(&st));
  flag = 0;
  CHECK_MPI(MPI_Request_get_status(req, &flag, &st));
  CHECK(flag && test_status_is_empty(&st));
#endif
}

/* ---- Restarts --------------------------------------------------------------------------------------------------- */

static void run_restarts(const comm_ctx *cc) {
  static const int cis[] = {0, 1, CI_FULL, CI_FULL, CI_LARGE};
  static const int starts[] = {1, 2, 20, 2, 2};
  for (int op = 0; op < NCOLLS; ++op)
    for (int i = 0; i < 5; ++i) {
      ccase c;
      const int inplace = cis[i] == CI_FULL ? i == 3 : (op + i) % 2;
      if (!restartable(op) || !make_case(&c, cc, op, op + i + cc->id, cis[i], op + i, inplace, 8, 1)) continue;
      const int n = starts[i];
      MPI_Request req; /* the data at init is never used: every start's data is written after it */
      init_case(&c, &req, MPI_INFO_NULL);
      expect_inactive(req);
      for (int s = 0; s < n; ++s) {
        ccase_refill(&c, c.seed + 7919 * (s + 1));
        ccase_before(&c);
        CHECK_MPI(MPI_Start(&req));
        MPI_Status st;
        if (s % 2 == 0) {
          CHECK_MPI(MPI_Wait(&req, &st));
        } else {
          int flag = 0;
          while (!flag) CHECK_MPI(MPI_Test(&req, &flag, &st));
        }
        CHECK(req != MPI_REQUEST_NULL); /* persistent: the handle stays */
        ccase_check(&c);
        expect_inactive(req);
      }
      CHECK_MPI(MPI_Request_free(&req));
      CHECK(req == MPI_REQUEST_NULL);
      ccase_free(&c);
    }
}

/* ---- Orders ----------------------------------------------------------------------------------------------------- */

/* Case k: requests 3k (a persistent receive from the left), 3k + 1 (a persistent send to the right), 3k + 2 (the
 * collective). Every rank starts them in its own order, all in one MPI_Startall. */
static void run_orders(const comm_ctx *cc) {
  const int n = cc->size, me = cc->rank, right = (me + 1) % n, left = (me + n - 1) % n, nreq = 3 * NCOLLS;
  ccase cases[NCOLLS];
  int made[NCOLLS], out[NCOLLS], in[NCOLLS];
  MPI_Request reqs[3 * NCOLLS], started[3 * NCOLLS];
  for (int k = 0; k < NCOLLS; ++k) {
    CHECK_MPI(MPI_Recv_init(&in[k], 1, MPI_INT, left, TAG_P2P + k, cc->comm, &reqs[3 * k]));
    CHECK_MPI(MPI_Send_init(&out[k], 1, MPI_INT, right, TAG_P2P + k, cc->comm, &reqs[3 * k + 1]));
    reqs[3 * k + 2] = MPI_REQUEST_NULL;
    made[k] = restartable(k) && make_case(&cases[k], cc, k, k + 1, k % 2 ? CI_FULL : 1, k, k % 2, 9, 1);
    if (made[k]) init_case(&cases[k], &reqs[3 * k + 2], MPI_INFO_NULL);
  }
  for (int round = 0; round < 3; ++round) {
    for (int k = 0; k < NCOLLS; ++k) {
      in[k] = -1;
      out[k] = 1000 * round + 10 * cc->world[me] + k;
      if (made[k]) ccase_refill(&cases[k], cases[k].seed + 31 * (round + 1));
    }
    int m = 0;
    for (int i = 0; i < nreq; ++i) { /* reversed on odd ranks, rotated by the rank and round on even ones */
      const int j = cc->rank % 2 ? nreq - 1 - i : (i + 5 * cc->rank + round) % nreq;
      if (reqs[j] != MPI_REQUEST_NULL) started[m++] = reqs[j];
    }
    /* A barrier's late rank must see nobody out before it starts: there is none here, every rank is late. */
    CHECK_MPI(MPI_Startall(m, started));
    CHECK_MPI(MPI_Waitall(m, started, MPI_STATUSES_IGNORE));
    for (int k = 0; k < NCOLLS; ++k) {
      CHECK(in[k] == 1000 * round + 10 * cc->world[left] + k);
      if (made[k] && k != C_BARRIER) ccase_check(&cases[k]);
    }
  }
  for (int i = 0; i < nreq; ++i)
    if (reqs[i] != MPI_REQUEST_NULL) CHECK_MPI(MPI_Request_free(&reqs[i]));
  for (int k = 0; k < NCOLLS; ++k)
    if (made[k]) ccase_free(&cases[k]);
}

/* ---- States and errors ------------------------------------------------------------------------------------------ */

static void expect_request_error(int err, const char *what) {
  int cls = -1;
  if (err != MPI_SUCCESS) CHECK_MPI(MPI_Error_class(err, &cls));
  if (cls != MPI_ERR_REQUEST) test_fail(__FILE__, __LINE__, what, ": expected an MPI_ERR_REQUEST error");
}

/* While an Allreduce_init request is active: Start, Request_free and Cancel fail and change nothing. */
static void run_errors(const comm_ctx *cc) {
  ccase c;
  MPI_Request req;
  CHECK(make_case(&c, cc, C_ALLREDUCE, 0, CI_LARGE, 0, 0, 10, 1));
  init_case(&c, &req, MPI_INFO_NULL);
  ccase_refill(&c, c.seed + 1);
  CHECK_MPI(MPI_Start(&req));
#ifdef STRATA /* erroneous calls: the standard does not oblige MPICH to detect them, and it does not */
  expect_request_error(MPI_Start(&req), "MPI_Start of an active persistent collective");
  MPI_Request same = req;
  expect_request_error(MPI_Request_free(&same), "MPI_Request_free of an active persistent collective");
  CHECK(same == req);
  expect_request_error(MPI_Cancel(&same), "MPI_Cancel of an active persistent collective");
#endif
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  ccase_check(&c);
  CHECK_MPI(MPI_Request_free(&req));
  ccase_free(&c);
}

/* An algorithm named on the init's info runs, and the result is right. */
static void run_info(const comm_ctx *cc) {
  ccase c;
  MPI_Request req;
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "strata_coll_bcast", "linear"));
  CHECK(make_case(&c, cc, C_BCAST, 0, CI_FULL, 1, 0, 11, 1));
  init_case(&c, &req, info);
  CHECK_MPI(MPI_Info_free(&info)); /* the request does not depend on it */
#ifdef STRATA
  char name[MPI_MAX_OBJECT_NAME];
  int len = 0;
  CHECK_MPI(MPIX_Request_get_algorithm(req, name, &len));
  CHECK(strcmp(name, "linear") == 0 && len == 6);
#endif
  for (int s = 0; s < 3; ++s) {
    ccase_refill(&c, c.seed + s + 1);
    CHECK_MPI(MPI_Start(&req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    ccase_check(&c);
  }
  CHECK_MPI(MPI_Request_free(&req));
  ccase_free(&c);
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &wrank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &wsize));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  make_layouts();
  comm_ctx cc[NCOMMS];
  for (int id = 0; id < NCOMMS; ++id) cc[id] = comm_make(id);

  for (int id = 0; id < NCOMMS; ++id) run_restarts(&cc[id]);
  for (int id = 0; id < NCOMMS; ++id) run_orders(&cc[id]);
  run_errors(&cc[COMM_WORLD]);
  run_info(&cc[COMM_PERMUTED]);

  test_barrier();
  for (int id = 0; id < NCOMMS; ++id) comm_free(&cc[id]);
  free_layouts();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
