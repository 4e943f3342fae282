/* Bad input to the collectives, with MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF: each call returns an
 * error of the right class whose message names the call, and after every error valid collectives still work
 * (still_works: MPI_Allreduce and MPI_Bcast on MPI_COMM_WORLD, results checked).
 *
 * Every error here is one each rank detects from its own arguments (the bad root, count, type, operator, buffer,
 * request or communicator is bad at every rank), so every rank returns from the call and none waits in it for the
 * others.
 *
 * Classes (MPI-4.0 9.4): MPI_ERR_ROOT for a root outside 0 .. size - 1 (MPI_ROOT and MPI_PROC_NULL are roots of
 * intercommunicators only, 6.2.3); MPI_ERR_COUNT for a negative count; MPI_ERR_TYPE for MPI_DATATYPE_NULL and an
 * uncommitted type; MPI_ERR_OP for MPI_OP_NULL and for a predefined operator not defined on the type (6.9.2:
 * MPI_BAND and MPI_LXOR on MPI_DOUBLE, MPI_SUM on MPI_BYTE or on a derived type, MPI_MAXLOC on MPI_INT). A reduction
 * of MPI_DATATYPE_NULL with a predefined operator may give MPI_ERR_TYPE or MPI_ERR_OP (the operator is not defined on
 * it either); with a user operator only MPI_ERR_TYPE. MPI_ERR_BUFFER for NULL with a count > 0 and for MPI_IN_PLACE
 * where the standard does not provide it (6.2.1: it is a send buffer option of the calls and ranks that list it; the
 * standard names no class, MPI_ERR_BUFFER is "invalid buffer pointer"), and for the same buffer as send and receive
 * buffer with the same type (2.3: never aliased; MPI_IN_PLACE is the way), unless neither side moves data; an
 * MPI_Alltoallv whose displacements keep the two sides apart in one buffer is legal and works. MPI_ERR_ARG or
 * MPI_ERR_REQUEST for a NULL request pointer, MPI_ERR_COMM for MPI_COMM_NULL. MPI_Cancel and MPI_Request_free on an
 * active nonblocking collective request are erroneous (6.12) without a class named: any error naming the call is
 * accepted, and for Strata MPI_ERR_REQUEST (as for MPI_Comm_idup); the request stays usable and MPI_Wait completes
 * the operation.
 * The persistent collectives' init calls (6.13) get the same checks, plus their info and request arguments.
 *
 * A plain MPI-4.0 program: it also builds with mpicc.mpich and passes. Checks where MPICH 4.0.2 departs from the
 * standard are compiled for Strata only, each with the reason. */
#include "test_util.h"

static int rank, size;
static int *a, *b, *counts, *displs; /* buffers of 4 * size ints; counts 1 and displacements i for every rank */
static int *wdispls;                 /* byte displacements 4 * i (MPI_Alltoallw) */
static MPI_Datatype *types;          /* MPI_INT for every rank */
static MPI_Datatype uncommitted;     /* contiguous(2, MPI_INT), never committed */
static MPI_Datatype pair;            /* contiguous(2, MPI_INT), committed */
static MPI_Op user_op;               /* a user sum of ints, defined on any type */

/* Valid collectives still work after the error raised on `line`. */
static void still_works(int line) { test_collectives_still_work(__FILE__, line); }

/* EXPECT_FAILS and EXPECT_FAILS2 (test_util.h) call still_works() above after each error. */

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type) {
  int n = 0;
  CHECK_MPI(MPI_Type_size(*type, &n));
  for (int i = 0; i < *len * n / (int)sizeof(int); ++i) ((int *)inout)[i] += ((const int *)in)[i];
}

/* ---- Roots (MPI_ERR_ROOT) --------------------------------------------------------------------------------------- */

enum { R_BCAST, R_GATHER, R_GATHERV, R_SCATTER, R_SCATTERV, R_REDUCE, R_IBCAST, R_IGATHER, R_IREDUCE, NROOTED };
static const char *const rooted_names[NROOTED] = {"MPI_Bcast",   "MPI_Gather",   "MPI_Gatherv",
                                                  "MPI_Scatter", "MPI_Scatterv", "MPI_Reduce",
                                                  "MPI_Ibcast",  "MPI_Igather",  "MPI_Ireduce"};

/* A rooted collective, valid except for `root`. */
static int rooted_call(int which, int root) {
  MPI_Request req = MPI_REQUEST_NULL;
  switch (which) {
    case R_BCAST:
      return MPI_Bcast(a, 1, MPI_INT, root, MPI_COMM_WORLD);
    case R_GATHER:
      return MPI_Gather(a, 1, MPI_INT, b, 1, MPI_INT, root, MPI_COMM_WORLD);
    case R_GATHERV:
      return MPI_Gatherv(a, 1, MPI_INT, b, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
    case R_SCATTER:
      return MPI_Scatter(a, 1, MPI_INT, b, 1, MPI_INT, root, MPI_COMM_WORLD);
    case R_SCATTERV:
      return MPI_Scatterv(a, counts, displs, MPI_INT, b, 1, MPI_INT, root, MPI_COMM_WORLD);
    case R_REDUCE:
      return MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    case R_IBCAST:
      return MPI_Ibcast(a, 1, MPI_INT, root, MPI_COMM_WORLD, &req);
    case R_IGATHER:
      return MPI_Igather(a, 1, MPI_INT, b, 1, MPI_INT, root, MPI_COMM_WORLD, &req);
    default:
      return MPI_Ireduce(a, b, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, &req);
  }
}

static void bad_roots(void) {
  const int roots[] = {size, size + 5, -7, MPI_ROOT, MPI_PROC_NULL};
  for (int w = 0; w < NROOTED; ++w)
    for (int i = 0; i < (int)(sizeof roots / sizeof roots[0]); ++i)
      EXPECT_FAILS(rooted_call(w, roots[i]), MPI_ERR_ROOT, rooted_names[w]);
}

/* ---- Negative counts (MPI_ERR_COUNT), significant at every rank ------------------------------------------------- */
static void negative_counts(void) {
  MPI_Request req = MPI_REQUEST_NULL;
  EXPECT_FAILS(MPI_Bcast(a, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Bcast");
  EXPECT_FAILS(MPI_Gather(a, -1, MPI_INT, b, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Gather");
  EXPECT_FAILS(MPI_Scatter(a, 1, MPI_INT, b, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Scatter");
  EXPECT_FAILS(MPI_Allgather(a, -1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Allgather");
  EXPECT_FAILS(MPI_Allgather(a, 1, MPI_INT, b, -1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Allgather");
  EXPECT_FAILS(MPI_Alltoall(a, -1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Alltoall");
  EXPECT_FAILS(MPI_Iallgather(a, -1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD, &req), MPI_ERR_COUNT, "MPI_Iallgather");
  counts[size - 1] = -1;
  EXPECT_FAILS(MPI_Allgatherv(a, 1, MPI_INT, b, counts, displs, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT,
               "MPI_Allgatherv");
  EXPECT_FAILS(MPI_Alltoallv(a, counts, displs, MPI_INT, b, counts, displs, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT,
               "MPI_Alltoallv");
  EXPECT_FAILS(MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Reduce_scatter");
  counts[size - 1] = 1;
#ifdef STRATA /* MPICH 4.0.2 does not check the count of the reductions: SIGSEGV or an assertion in a memcpy of -4 \
                 bytes; the nonblocking ones give MPI_ERR_OTHER */
  EXPECT_FAILS(MPI_Reduce(a, b, -1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Reduce");
  EXPECT_FAILS(MPI_Allreduce(a, b, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Allreduce");
  EXPECT_FAILS(MPI_Reduce_scatter_block(a, b, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT,
               "MPI_Reduce_scatter_block");
  EXPECT_FAILS(MPI_Scan(a, b, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Scan");
  EXPECT_FAILS(MPI_Exscan(a, b, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Exscan");
  EXPECT_FAILS(MPI_Ireduce(a, b, -1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &req), MPI_ERR_COUNT, "MPI_Ireduce");
  EXPECT_FAILS(MPI_Iallreduce(a, b, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), MPI_ERR_COUNT, "MPI_Iallreduce");
#endif
}

/* ---- Datatypes (MPI_ERR_TYPE) ----------------------------------------------------------------------------------- */
static void bad_types(void) {
  MPI_Request req = MPI_REQUEST_NULL;
  const MPI_Datatype bad[2] = {MPI_DATATYPE_NULL, uncommitted};
  for (int i = 0; i < 2; ++i) {
    const MPI_Datatype t = bad[i];
    EXPECT_FAILS(MPI_Bcast(a, 1, t, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Bcast");
    EXPECT_FAILS(MPI_Gather(a, 1, t, b, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Gather");
    EXPECT_FAILS(MPI_Scatter(a, 1, MPI_INT, b, 1, t, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Scatter");
    EXPECT_FAILS(MPI_Allgather(a, 1, MPI_INT, b, 1, t, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Allgather");
    EXPECT_FAILS(MPI_Alltoall(a, 1, t, b, 1, t, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Alltoall");
    EXPECT_FAILS(MPI_Ibcast(a, 1, t, 0, MPI_COMM_WORLD, &req), MPI_ERR_TYPE, "MPI_Ibcast");
    types[size - 1] = t;
    EXPECT_FAILS(MPI_Alltoallw(a, counts, wdispls, types, b, counts, wdispls, types, MPI_COMM_WORLD), MPI_ERR_TYPE,
                 "MPI_Alltoallw");
    types[size - 1] = MPI_INT;
    /* A user operator is defined on every type: the type is the only error. */
    EXPECT_FAILS(MPI_Allreduce(a, b, 1, t, user_op, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Allreduce");
    EXPECT_FAILS(MPI_Reduce(a, b, 1, t, user_op, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Reduce");
    EXPECT_FAILS(MPI_Iallreduce(a, b, 1, t, user_op, MPI_COMM_WORLD, &req), MPI_ERR_TYPE, "MPI_Iallreduce");
  }
  EXPECT_FAILS2(MPI_Allreduce(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_TYPE, MPI_ERR_OP,
                "MPI_Allreduce");
}

/* ---- Operators (MPI_ERR_OP) ------------------------------------------------------------------------------------- */
static void bad_ops(void) {
  MPI_Request req = MPI_REQUEST_NULL;
  double *d = (double *)a, *e = (double *)b;
  EXPECT_FAILS(MPI_Allreduce(a, b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Allreduce");
  EXPECT_FAILS(MPI_Reduce(a, b, 1, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Reduce");
  EXPECT_FAILS(MPI_Scan(a, b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Scan");
  EXPECT_FAILS(MPI_Exscan(a, b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Exscan");
  EXPECT_FAILS(MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP,
               "MPI_Reduce_scatter");
  EXPECT_FAILS(MPI_Reduce_scatter_block(a, b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP,
               "MPI_Reduce_scatter_block");
  EXPECT_FAILS(MPI_Iallreduce(a, b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, &req), MPI_ERR_OP, "MPI_Iallreduce");
  /* Predefined operators on types they are not defined on (6.9.2). */
  EXPECT_FAILS(MPI_Allreduce(d, e, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Allreduce");
  EXPECT_FAILS(MPI_Reduce(d, e, 1, MPI_DOUBLE, MPI_BAND, 0, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Reduce");
  EXPECT_FAILS(MPI_Scan(d, e, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Scan");
  EXPECT_FAILS(MPI_Exscan(d, e, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Exscan");
  EXPECT_FAILS(MPI_Reduce_scatter_block(d, e, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD), MPI_ERR_OP,
               "MPI_Reduce_scatter_block");
  EXPECT_FAILS(MPI_Iallreduce(d, e, 1, MPI_DOUBLE, MPI_BOR, MPI_COMM_WORLD, &req), MPI_ERR_OP, "MPI_Iallreduce");
  EXPECT_FAILS(MPI_Allreduce(a, b, 4, MPI_BYTE, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Allreduce");
  EXPECT_FAILS(MPI_Allreduce(a, b, 1, pair, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Allreduce");
  EXPECT_FAILS(MPI_Allreduce(a, b, 1, MPI_INT, MPI_MAXLOC, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Allreduce");
#ifdef STRATA /* MPICH 4.0.2 MPI_Reduce does not check the operator against the type: MPI_SUCCESS */
  EXPECT_FAILS(MPI_Reduce(d, e, 1, MPI_DOUBLE, MPI_LXOR, 0, MPI_COMM_WORLD), MPI_ERR_OP, "MPI_Reduce");
#endif
}

/* ---- MPI_IN_PLACE where the standard does not provide it (MPI_ERR_BUFFER) --------------------------------------- */
static void misplaced_in_place(void) {
  MPI_Request req = MPI_REQUEST_NULL;
  /* As a receive buffer, at every rank. */
  EXPECT_FAILS(MPI_Allreduce(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Allreduce");
  EXPECT_FAILS(MPI_Allreduce(MPI_IN_PLACE, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER,
               "MPI_Allreduce");
  EXPECT_FAILS(MPI_Scan(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Scan");
  EXPECT_FAILS(MPI_Reduce_scatter_block(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER,
               "MPI_Reduce_scatter_block");
  EXPECT_FAILS(MPI_Allgather(a, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Allgather");
  EXPECT_FAILS(MPI_Alltoall(a, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Alltoall");
  EXPECT_FAILS(MPI_Alltoallv(a, counts, displs, MPI_INT, MPI_IN_PLACE, counts, displs, MPI_INT, MPI_COMM_WORLD),
               MPI_ERR_BUFFER, "MPI_Alltoallv");
  EXPECT_FAILS(MPI_Iallreduce(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), MPI_ERR_BUFFER,
               "MPI_Iallreduce");
#ifdef STRATA /* MPICH 4.0.2 does not check these: MPI_Bcast and the non-roots of MPI_Gather and MPI_Reduce use \
                 MPI_IN_PLACE as an address (SIGSEGV), the non-roots of MPI_Scatter wait in the call */
  EXPECT_FAILS(MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Bcast");
  /* Rooted calls: MPI_IN_PLACE where the call provides it, but at the wrong ranks or as the wrong buffer; the root
   * and the others each make one of the two mistakes, so every rank has an error. */
  EXPECT_FAILS(MPI_Gather(rank ? MPI_IN_PLACE : a, 1, MPI_INT, rank ? b : MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD),
               MPI_ERR_BUFFER, "MPI_Gather");
  EXPECT_FAILS(MPI_Reduce(rank ? MPI_IN_PLACE : a, rank ? b : MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD),
               MPI_ERR_BUFFER, "MPI_Reduce");
  EXPECT_FAILS(MPI_Scatter(rank ? a : MPI_IN_PLACE, 1, MPI_INT, rank ? MPI_IN_PLACE : b, 1, MPI_INT, 0, MPI_COMM_WORLD),
               MPI_ERR_BUFFER, "MPI_Scatter");
#endif
}

/* ---- One buffer as both send and receive buffer (MPI_ERR_BUFFER), at every rank ---------------------------------- */
static void aliased_buffers(void) {
  MPI_Request req = MPI_REQUEST_NULL;
  EXPECT_FAILS(MPI_Allreduce(a, a, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Allreduce");
#ifdef STRATA /* MPICH 4.0.2 detects these at rank 0 only: the other ranks wait in the call */
  EXPECT_FAILS(MPI_Allgather(a, 1, MPI_INT, a, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Allgather");
  EXPECT_FAILS(MPI_Alltoall(b, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Alltoall");
  EXPECT_FAILS(MPI_Iallreduce(a, a, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), MPI_ERR_BUFFER, "MPI_Iallreduce");
  CHECK(req == MPI_REQUEST_NULL);
  EXPECT_FAILS(MPI_Scan(a, a, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Scan");
  EXPECT_FAILS(MPI_Allreduce_init(a, a, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req), MPI_ERR_BUFFER,
               "MPI_Allreduce_init");
  CHECK(req == MPI_REQUEST_NULL);
  /* Nothing moves, so nothing is aliased; blocks placed apart by displacements in one buffer are legal. */
  CHECK_MPI(MPI_Allreduce(a, a, 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  int *sdispls = test_malloc(sizeof(int) * (size_t)size), *rdispls = test_malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) sdispls[r] = r, rdispls[r] = size + r, a[r] = 100 * rank + r;
  CHECK_MPI(MPI_Alltoallv(a, counts, sdispls, MPI_INT, a, counts, rdispls, MPI_INT, MPI_COMM_WORLD));
  for (int r = 0; r < size; ++r) CHECK(a[size + r] == 100 * r + rank);
  for (int i = 0; i < 2 * size; ++i) a[i] = 0;
  free(sdispls);
  free(rdispls);
#endif
  (void)req;
  still_works(__LINE__);
}

/* ---- NULL buffers with a count > 0 (MPI_ERR_BUFFER); with count 0 they are fine -------------------------------- */
static void null_buffers(void) {
  MPI_Request req = MPI_REQUEST_NULL;
  EXPECT_FAILS(MPI_Bcast(NULL, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Bcast");
  EXPECT_FAILS(MPI_Allreduce(NULL, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Allreduce");
  EXPECT_FAILS(MPI_Allreduce(a, NULL, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Allreduce");
  EXPECT_FAILS(MPI_Reduce(NULL, b, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Reduce");
  EXPECT_FAILS(MPI_Scan(a, NULL, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Scan");
  EXPECT_FAILS(MPI_Allgather(NULL, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Allgather");
  EXPECT_FAILS(MPI_Alltoall(a, 1, MPI_INT, NULL, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Alltoall");
  EXPECT_FAILS(MPI_Iallreduce(NULL, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), MPI_ERR_BUFFER, "MPI_Iallreduce");
  CHECK_MPI(MPI_Bcast(NULL, 0, MPI_INT, 0, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Allreduce(NULL, NULL, 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Alltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, MPI_COMM_WORLD));
  still_works(__LINE__);
}

/* ---- NULL request pointers (MPI_ERR_ARG or MPI_ERR_REQUEST) and MPI_COMM_NULL (MPI_ERR_COMM) -------------------- */
static void null_requests_and_comms(void) {
  MPI_Request req = MPI_REQUEST_NULL;
  EXPECT_FAILS2(MPI_Ibarrier(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, MPI_ERR_REQUEST, "MPI_Ibarrier");
  EXPECT_FAILS2(MPI_Ibcast(a, 1, MPI_INT, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG, MPI_ERR_REQUEST, "MPI_Ibcast");
  EXPECT_FAILS2(MPI_Iallreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, NULL), MPI_ERR_ARG, MPI_ERR_REQUEST,
                "MPI_Iallreduce");
  EXPECT_FAILS2(MPI_Ialltoallw(a, counts, wdispls, types, b, counts, wdispls, types, MPI_COMM_WORLD, NULL), MPI_ERR_ARG,
                MPI_ERR_REQUEST, "MPI_Ialltoallw");
  EXPECT_FAILS(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Barrier");
  EXPECT_FAILS(MPI_Bcast(a, 1, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Bcast");
  EXPECT_FAILS(MPI_Gather(a, 1, MPI_INT, b, 1, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Gather");
  EXPECT_FAILS(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Allreduce");
  EXPECT_FAILS(MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Alltoall");
  EXPECT_FAILS(MPI_Ibarrier(MPI_COMM_NULL, &req), MPI_ERR_COMM, "MPI_Ibarrier");
  EXPECT_FAILS(MPI_Iallreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL, &req), MPI_ERR_COMM, "MPI_Iallreduce");
}

/* ---- MPI_Cancel and MPI_Request_free on an active nonblocking collective (6.12: erroneous) ---------------------- */

/* An error naming the call; for Strata MPI_ERR_REQUEST. (MPICH 4.0.2: MPI_ERR_INTERN for MPI_Cancel, MPI_ERR_OTHER for
 * MPI_Request_free.) */
static void expect_request_error(int err, const char *name, const char *text, int line) {
  int cls = -1;
  if (err != MPI_SUCCESS) CHECK_MPI(MPI_Error_class(err, &cls));
#ifdef STRATA
  cls = MPI_ERR_REQUEST;
#endif
  test_expect_error_at(err, cls, name, text, __FILE__, line);
}

static void active_requests(void) {
  for (int k = 0; k < 2; ++k) {
    MPI_Request req = MPI_REQUEST_NULL;
    int sum = -1;
    if (k == 0)
      CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &req));
    else
      CHECK_MPI(MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
    const MPI_Request kept = req;
    expect_request_error(MPI_Cancel(&req), "MPI_Cancel", "MPI_Cancel(&req)", __LINE__);
    CHECK(req == kept);
    expect_request_error(MPI_Request_free(&req), "MPI_Request_free", "MPI_Request_free(&req)", __LINE__);
    CHECK(req == kept);
    MPI_Status st;
    CHECK_MPI(MPI_Wait(&req, &st));
    CHECK(req == MPI_REQUEST_NULL);
    int cancelled = 1;
    CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
    CHECK(!cancelled);
    if (k == 1) CHECK(sum == size * (size - 1) / 2);
    still_works(__LINE__);
  }
}

/* The persistent collectives' init calls (MPI-4.0 6.13) check what their blocking forms check, plus the info handle
 * and the request pointer; a failed init hands out no request. An unknown algorithm name in the info is Strata's
 * MPI_ERR_ARG (listing the valid names), as is MPIX_Request_get_algorithm of a request that is not a collective's. */
static void persistent_inits(void) {
  MPI_Request req = MPI_REQUEST_NULL;
  EXPECT_FAILS(MPI_Bcast_init(a, 1, MPI_INT, size, MPI_COMM_WORLD, MPI_INFO_NULL, &req), MPI_ERR_ROOT,
               "MPI_Bcast_init");
#ifdef STRATA /* MPICH 4.0.2 returns MPI_ERR_OTHER for a negative count here */
  EXPECT_FAILS(MPI_Reduce_init(a, b, -1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req), MPI_ERR_COUNT,
               "MPI_Reduce_init");
#endif
  EXPECT_FAILS2(MPI_Allreduce_init(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
                MPI_ERR_TYPE, MPI_ERR_OP, "MPI_Allreduce_init");
  EXPECT_FAILS(MPI_Allreduce_init(a, b, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD, MPI_INFO_NULL, &req), MPI_ERR_OP,
               "MPI_Allreduce_init");
  EXPECT_FAILS(MPI_Alltoall_init(a, 1, uncommitted, b, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
               MPI_ERR_TYPE, "MPI_Alltoall_init");
#ifdef STRATA /* MPICH 4.0.2 crashes on NULL sendcounts */
  EXPECT_FAILS(MPI_Alltoallv_init(a, NULL, displs, MPI_INT, b, counts, displs, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                                  &req),
               MPI_ERR_ARG, "MPI_Alltoallv_init");
#endif
  EXPECT_FAILS(MPI_Barrier_init(MPI_COMM_NULL, MPI_INFO_NULL, &req), MPI_ERR_COMM, "MPI_Barrier_init");
  EXPECT_FAILS2(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, NULL), MPI_ERR_ARG, MPI_ERR_REQUEST,
                "MPI_Barrier_init");
  CHECK(req == MPI_REQUEST_NULL);
#ifdef STRATA /* MPICH 4.0.2 crashes on an info handle that is not one */
  EXPECT_FAILS(MPI_Barrier_init(MPI_COMM_WORLD, (MPI_Info)12345, &req), MPI_ERR_INFO, "MPI_Barrier_init");
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "strata_coll_bcast", "no_such_algorithm"));
  EXPECT_FAILS(MPI_Bcast_init(a, 1, MPI_INT, 0, MPI_COMM_WORLD, info, &req), MPI_ERR_ARG, "binomial");
  CHECK_MPI(MPI_Info_free(&info));
  CHECK(req == MPI_REQUEST_NULL);
  char name[MPI_MAX_OBJECT_NAME];
  int len = 0;
  CHECK_MPI(MPI_Irecv(a, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req));
  EXPECT_FAILS(MPIX_Request_get_algorithm(req, name, &len), MPI_ERR_REQUEST, "MPIX_Request_get_algorithm");
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  EXPECT_FAILS(MPIX_Request_get_algorithm(MPI_REQUEST_NULL, name, &len), MPI_ERR_REQUEST,
               "MPIX_Request_get_algorithm");
#endif
}

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);
  a = test_malloc(sizeof(int) * 4 * (size_t)size);
  b = test_malloc(sizeof(int) * 4 * (size_t)size);
  counts = test_malloc(sizeof(int) * (size_t)size);
  displs = test_malloc(sizeof(int) * (size_t)size);
  types = test_malloc(sizeof(MPI_Datatype) * (size_t)size);
  wdispls = test_malloc(sizeof(int) * (size_t)size);
  for (int i = 0; i < 4 * size; ++i) a[i] = b[i] = 0;
  for (int i = 0; i < size; ++i) {
    counts[i] = 1;
    displs[i] = i;
    wdispls[i] = 4 * i;
    types[i] = MPI_INT;
  }
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  CHECK_MPI(MPI_Op_create(user_sum, 1, &user_op));

  bad_roots();
  negative_counts();
  bad_types();
  bad_ops();
  misplaced_in_place();
  aliased_buffers();
  null_buffers();
  null_requests_and_comms();
  active_requests();
  persistent_inits();

  CHECK_MPI(MPI_Op_free(&user_op));
  CHECK_MPI(MPI_Type_free(&uncommitted));
  CHECK_MPI(MPI_Type_free(&pair));
  free(a);
  free(b);
  free(counts);
  free(displs);
  free(types);
  free(wdispls);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
