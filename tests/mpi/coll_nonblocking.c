/* Nonblocking collectives (MPI-4.0 6.12), with the cases and checks of coll_all.c (included below: the same
 * expected buffers, sentinels and rank-order reference, with ccase_start given a request):
 *  - alone: every nonblocking collective (MPI_Ibarrier ... MPI_Iexscan) on the three communicators of coll_all.c,
 *    counts 0, 7 and large, rows, roots and MPI_IN_PLACE rotating (count 7 with and without it); completed by
 *    MPI_Wait, or by an MPI_Test loop (MPI-4.0 3.7.3: a Test loop must complete the operation);
 *  - batch: one of each collective plus a few more of the same kinds outstanding on one communicator at once, started
 *    in the same order everywhere (6.12: the order of the starts must match), each start preceded by an MPI_Irecv
 *    from MPI_ANY_SOURCE with MPI_ANY_TAG and an MPI_Isend to the next rank on the same communicator: the receives
 *    must get exactly the point-to-point messages, in order (non-overtaking), and none of the collectives' traffic.
 *    Everything is completed by one MPI_Waitall whose array order differs from the start order, per rank;
 *  - overlap: a nonblocking collective pending on one communicator while blocking collectives run on another, odd
 *    world ranks starting it only after the first blocking one (valid: 6.12 only orders the collectives of one
 *    communicator; a start that blocked until the others started would deadlock here).
 * MPI_SOURCE and MPI_TAG of a completed nonblocking collective's status are undefined (6.12); Strata returns an empty
 * status, checked for Strata only.
 *
 * A plain MPI-4.0 program: it also builds with mpicc.mpich and passes. */
#define COLL_ALL_NO_MAIN
#include "coll_all.c"

enum { TAG_P2P = 100 };

static void check_coll_status(const MPI_Status *st) {
#ifdef STRATA
  CHECK(test_status_is_empty(st));
#else
  (void)st;
#endif
}

/* ---- Alone ------------------------------------------------------------------------------------------------------ */

static void run_alone(const comm_ctx *cc) {
  static const int cis[] = {0, CI_FULL, CI_FULL, CI_LARGE};
  int k = 0;
  for (int op = 0; op < NCOLLS; ++op)
    for (int i = 0; i < 4; ++i, ++k) {
      ccase c;
      /* count 7 twice: without and with MPI_IN_PLACE; the others in a rotating mode */
      const int inplace = cis[i] == CI_FULL ? i == 2 : (op + i) % 2;
      if (!make_case(&c, cc, op, op + i + cc->id, cis[i], op + i, inplace, 1, 1)) continue;
      MPI_Request req = MPI_REQUEST_NULL;
      MPI_Status st;
      expect_success(&c, ccase_start(&c, &req), __LINE__);
      CHECK(req != MPI_REQUEST_NULL);
      if (k % 2 == 0) {
        CHECK_MPI(MPI_Wait(&req, &st));
      } else {
        int flag = 0;
        while (!flag) CHECK_MPI(MPI_Test(&req, &flag, &st));
      }
      CHECK(req == MPI_REQUEST_NULL);
      check_coll_status(&st);
      ccase_finish(&c);
    }
}

/* ---- Batch ------------------------------------------------------------------------------------------------------ */

/* The extra cases of a batch, beyond one of each collective: (op, row, count column), several of the same kind. */
static const int extras[][3] = {
    {C_ALLREDUCE, NRROWS - 1, CI_LARGE},
    {C_ALLREDUCE, 0, CI_FULL},
    {C_ALLREDUCE, 2, 1},
    {C_BCAST, 2, CI_LARGE},
    {C_BCAST, 3, CI_FULL},
    {C_ALLTOALLW, 3, CI_FULL},
    {C_SCAN, NRROWS - 1, CI_FULL},
    {C_BARRIER, 0, 0},
};
enum { NEXTRAS = sizeof extras / sizeof extras[0], NBATCH = NCOLLS + NEXTRAS };

/* Case k of a batch gets requests 3k (its MPI_Irecv), 3k + 1 (its MPI_Isend) and 3k + 2 (the collective), and data
 * of its own (salt), so that data crossing between outstanding collectives of the same kind is seen. */
static void run_batch(const comm_ctx *cc, int round) {
  const int n = cc->size, me = cc->rank, right = (me + 1) % n, left = (me + n - 1) % n, nreq = 3 * NBATCH;
  ccase cases[NBATCH];
  int made[NBATCH], out[NBATCH][2], in[NBATCH][2], order[3 * NBATCH];
  MPI_Request reqs[3 * NBATCH], ordered[3 * NBATCH];
  MPI_Status st[3 * NBATCH], ordered_st[3 * NBATCH];
  for (int k = 0; k < NBATCH; ++k) {
    in[k][0] = in[k][1] = -1;
    out[k][0] = wrank;
    out[k][1] = k;
    CHECK_MPI(MPI_Irecv(in[k], 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, cc->comm, &reqs[3 * k]));
    CHECK_MPI(MPI_Isend(out[k], 2, MPI_INT, right, TAG_P2P + k, cc->comm, &reqs[3 * k + 1]));
    const int op = k < NCOLLS ? k : extras[k - NCOLLS][0], row = k < NCOLLS ? k + round : extras[k - NCOLLS][1];
    const int ci = k < NCOLLS ? (k % 2 ? CI_FULL : 1) : extras[k - NCOLLS][2];
    reqs[3 * k + 2] = MPI_REQUEST_NULL;
    made[k] = make_case(&cases[k], cc, op, row, ci, k + round, (k + round) % 2, (2 + round) * NBATCH + k, 1);
    if (made[k]) expect_success(&cases[k], ccase_start(&cases[k], &reqs[3 * k + 2]), __LINE__);
  }
  /* Completion order: reversed on odd world ranks, rotated by the rank on even ones. */
  for (int i = 0; i < nreq; ++i) {
    order[i] = wrank % 2 ? nreq - 1 - i : (i + 7 * wrank + 1) % nreq;
    ordered[i] = reqs[order[i]];
  }
  CHECK_MPI(MPI_Waitall(nreq, ordered, ordered_st));
  for (int i = 0; i < nreq; ++i) {
    CHECK(ordered[i] == MPI_REQUEST_NULL);
    st[order[i]] = ordered_st[i];
  }
  for (int k = 0; k < NBATCH; ++k) {
    /* Only the left neighbour sends to this rank, so the k-th receive gets its k-th message (3.5). */
    if (!(st[3 * k].MPI_SOURCE == left && st[3 * k].MPI_TAG == TAG_P2P + k && test_count(&st[3 * k], MPI_INT) == 2 &&
          in[k][0] == cc->world[left] && in[k][1] == k)) {
      char detail[200];
      snprintf(detail, sizeof detail, ": %s, receive %d: source %d tag %d, content {%d, %d}", cc->name, k,
               st[3 * k].MPI_SOURCE, st[3 * k].MPI_TAG, in[k][0], in[k][1]);
      test_fail(__FILE__, __LINE__, "a point-to-point receive got something else than the next p2p message", detail);
    }
    if (made[k]) {
      check_coll_status(&st[3 * k + 2]);
      ccase_finish(&cases[k]);
    }
  }
}

/* ---- Overlap ---------------------------------------------------------------------------------------------------- */

/* A large nonblocking matrix-product Iallreduce pending on nb while blocking collectives run on b: even world ranks
 * start it first, odd ones after the first blocking collective. */
static void run_overlap(const comm_ctx *nb, const comm_ctx *b, int salt) {
  static const int blocking[][3] = {
      {C_BCAST, 2, CI_LARGE}, {C_ALLREDUCE, 0, CI_FULL}, {C_ALLTOALLV, 3, CI_FULL}, {C_GATHERV, 2, CI_FULL}};
  ccase a;
  MPI_Request req = MPI_REQUEST_NULL;
  CHECK(make_case(&a, nb, C_ALLREDUCE, NRROWS - 1, CI_LARGE, 0, 0, salt, 1));
  if (wrank % 2 == 0) expect_success(&a, ccase_start(&a, &req), __LINE__);
  for (int i = 0; i < (int)(sizeof blocking / sizeof blocking[0]); ++i) {
    ccase c;
    if (make_case(&c, b, blocking[i][0], blocking[i][1], blocking[i][2], i, i % 2, salt, 0)) {
      expect_success(&c, ccase_start(&c, NULL), __LINE__);
      ccase_finish(&c);
    }
    if (wrank % 2 == 1 && i == 0) expect_success(&a, ccase_start(&a, &req), __LINE__);
  }
  MPI_Status st;
  CHECK_MPI(MPI_Wait(&req, &st));
  check_coll_status(&st);
  ccase_finish(&a);
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &wrank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &wsize));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  make_layouts();
  comm_ctx cc[NCOMMS];
  for (int id = 0; id < NCOMMS; ++id) cc[id] = comm_make(id);

  for (int id = 0; id < NCOMMS; ++id) run_alone(&cc[id]);
  for (int id = 0; id < NCOMMS; ++id) run_batch(&cc[id], 0);
  run_batch(&cc[COMM_WORLD], 1);
  run_overlap(&cc[COMM_PERMUTED], &cc[COMM_WORLD], 5);
  run_overlap(&cc[COMM_WORLD], &cc[COMM_PARITY], 6);
  run_overlap(&cc[COMM_PARITY], &cc[COMM_PERMUTED], 7);

  test_barrier();
  for (int id = 0; id < NCOMMS; ++id) comm_free(&cc[id]);
  free_layouts();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
