/* The MPIX hybrid collectives (mpi.h; hybrid/): one copy of each result per node, checked against the standard
 * collectives on the same data.
 * - the node and bridge communicators: the node one is MPI_COMM_TYPE_SHARED's, the bridge holds one leader per node;
 * - allgather (in place and from a send buffer, a derived type, count 0), bcast from every root, allreduce (sum,
 *   max, a non-commutative operator; small, and large enough to be reduced in slices), each against
 *   MPI_Allgather / MPI_Bcast / MPI_Allreduce;
 * - on MPI_COMM_WORLD and on a communicator whose nodes interleave (ranks not in node order);
 * - bad input: each error class, and the object still works after.
 * Strata-only (MPIX). */
#include "test_util.h"

static int rank_of(MPI_Comm c) {
  int r;
  MPI_Comm_rank(c, &r);
  return r;
}
static int size_of(MPI_Comm c) {
  int s;
  MPI_Comm_size(c, &s);
  return s;
}

static double value(int rank, int i, int round) { return rank * 1000.0 + i * 0.5 + round; }

/* Node and bridge communicators against an independent split. */
static void check_comms(MPI_Comm comm, MPIX_Hybrid h) {
  MPI_Comm node, bridge, shared;
  CHECK_MPI(MPIX_Hybrid_get_comms(h, &node, &bridge));
  CHECK_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared));
  int cmp;
  CHECK_MPI(MPI_Comm_compare(node, shared, &cmp));
  CHECK(cmp == MPI_CONGRUENT);
  CHECK((bridge != MPI_COMM_NULL) == (rank_of(node) == 0));
  int leaders = rank_of(node) == 0, nodes;
  CHECK_MPI(MPI_Allreduce(&leaders, &nodes, 1, MPI_INT, MPI_SUM, comm));
  if (bridge != MPI_COMM_NULL) CHECK(size_of(bridge) == nodes);
  MPI_Comm_free(&shared);
}

static void check_allgather(MPI_Comm comm, MPIX_Hybrid h, MPI_Comm node) {
  const int size = size_of(comm), rank = rank_of(comm);
  for (int count = 0; count <= 700; count = count ? count * 7 : 1) {
    for (int in_place = 0; in_place < 2; ++in_place) {
      double *shared, *mine = malloc((size_t)count * sizeof *mine + 1);
      double *expect = malloc((size_t)(size * count) * sizeof *expect + 1);
      MPI_Win win;
      CHECK_MPI(MPIX_Hybrid_alloc(h, (MPI_Aint)(size * count) * (MPI_Aint)sizeof(double), &shared, &win));
      for (int i = 0; i < count; ++i) mine[i] = value(rank, i, in_place);
      if (in_place && count > 0) memcpy(shared + rank * count, mine, (size_t)count * sizeof *mine);
      CHECK_MPI(MPIX_Hybrid_allgather(in_place ? MPI_IN_PLACE : mine, count, MPI_DOUBLE, shared, h));
      CHECK_MPI(MPI_Allgather(mine, count, MPI_DOUBLE, expect, count, MPI_DOUBLE, comm));
      CHECK(count == 0 || memcmp(shared, expect, (size_t)(size * count) * sizeof *expect) == 0);
      CHECK_MPI(MPI_Barrier(node));  /* everyone has read before the window goes */
      CHECK_MPI(MPI_Win_free(&win));
      free(mine);
      free(expect);
    }
  }
  /* A derived type with gaps: every other int of a block of 6 (extent 5 ints), 3 of them per rank. */
  MPI_Datatype strided;
  CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &strided));
  CHECK_MPI(MPI_Type_commit(&strided));
  const int per_rank = 5 * 3; /* ints a rank's 3 elements span, extent 5 each */
  int *shared, send[15], expect_gap = -7;
  MPI_Win win;
  CHECK_MPI(MPIX_Hybrid_alloc(h, (MPI_Aint)(size * per_rank) * (MPI_Aint)sizeof(int), &shared, &win));
  if (rank_of(node) == 0)
    for (int i = 0; i < size * per_rank; ++i) shared[i] = expect_gap;
  CHECK_MPI(MPI_Barrier(node));
  for (int i = 0; i < 15; ++i) send[i] = rank * 100 + i;
  CHECK_MPI(MPIX_Hybrid_allgather(send, 3, strided, shared, h));
  for (int r = 0; r < size; ++r)
    for (int i = 0; i < per_rank; ++i) {
      const int in_element = i % 5, covered = in_element == 0 || in_element == 2 || in_element == 4;
      CHECK(shared[r * per_rank + i] == (covered ? r * 100 + i : expect_gap));
    }
  CHECK_MPI(MPI_Barrier(node));
  CHECK_MPI(MPI_Win_free(&win));
  MPI_Type_free(&strided);
}

static void check_bcast(MPI_Comm comm, MPIX_Hybrid h, MPI_Comm node) {
  const int size = size_of(comm), rank = rank_of(comm), count = 1000;
  double *shared;
  MPI_Win win;
  CHECK_MPI(MPIX_Hybrid_alloc(h, count * (MPI_Aint)sizeof(double), &shared, &win));
  for (int root = 0; root < size; ++root) {
    if (rank == root)
      for (int i = 0; i < count; ++i) shared[i] = value(root, i, 7);
    CHECK_MPI(MPIX_Hybrid_bcast(shared, count, MPI_DOUBLE, root, h));
    for (int i = 0; i < count; ++i) CHECK(shared[i] == value(root, i, 7));
    CHECK_MPI(MPI_Barrier(node));  /* all read before the next root writes */
  }
  CHECK_MPI(MPI_Win_free(&win));
}

/* (a, b) . (c, d) = (a c, a d + b): affine maps composed, not commutative. Each element is a pair of doubles (a
 * contiguous type): MPI may hand an operator any run of whole elements, such as one process's slice of the vector. */
static void compose(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)type;
  double *x = in, *y = inout;
  for (int i = 0; i < 2 * *len; i += 2) {
    const double a = x[i], b = x[i + 1], c = y[i], d = y[i + 1];
    y[i] = a * c;
    y[i + 1] = a * d + b;
  }
}

/* count 600: the node reduces to its leader; 40000 doubles (320 KB): every process reduces a slice into node_buf. */
static void check_allreduce(MPI_Comm comm, MPIX_Hybrid h, MPI_Comm node, int nodes_in_order, int count) {
  const int rank = rank_of(comm);
  double *shared, *mine = malloc((size_t)count * sizeof *mine), *expect = malloc((size_t)count * sizeof *expect);
  MPI_Win win;
  CHECK_MPI(MPIX_Hybrid_alloc(h, count * (MPI_Aint)sizeof(double), &shared, &win));
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < count; ++i) mine[i] = value(rank, i, round);
    const MPI_Op op = round == 1 ? MPI_MAX : MPI_SUM;
    CHECK_MPI(MPIX_Hybrid_allreduce(mine, shared, count, MPI_DOUBLE, op, h));
    CHECK_MPI(MPI_Allreduce(mine, expect, count, MPI_DOUBLE, op, comm));
    for (int i = 0; i < count; ++i) CHECK(shared[i] == expect[i]); /* small integers and halves: exact sums */
    CHECK_MPI(MPI_Barrier(node));
  }
  MPI_Op affine;
  MPI_Datatype pair;
  CHECK_MPI(MPI_Op_create(compose, 0, &affine));
  CHECK_MPI(MPI_Type_contiguous(2, MPI_DOUBLE, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  for (int i = 0; i < count; i += 2) {
    mine[i] = (rank + i) % 3 == 0 ? -1 : 2;
    mine[i + 1] = rank - i % 5;
  }
  const int err = MPIX_Hybrid_allreduce(mine, shared, count / 2, pair, affine, h);
  if (nodes_in_order) {
    CHECK(err == MPI_SUCCESS);
    CHECK_MPI(MPI_Allreduce(mine, expect, count / 2, pair, affine, comm));
    for (int i = 0; i < count; ++i) CHECK(shared[i] == expect[i]);
  } else {
    int cls;
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_OP);
  }
  CHECK_MPI(MPI_Barrier(node));
  MPI_Op_free(&affine);
  CHECK_MPI(MPI_Type_free(&pair));
  CHECK_MPI(MPI_Win_free(&win));
  free(mine);
  free(expect);
}

static void expect_class(int err, int cls) {
  int got;
  MPI_Error_class(err, &got);
  CHECK(got == cls);
}

static void check_bad_input(MPIX_Hybrid h) {
  double x = 1, shared[1];
  expect_class(MPIX_Hybrid_bcast(shared, 1, MPI_DOUBLE, 0, MPIX_HYBRID_NULL), MPI_ERR_ARG);
  expect_class(MPIX_Hybrid_bcast(shared, -1, MPI_DOUBLE, 0, h), MPI_ERR_COUNT);
  expect_class(MPIX_Hybrid_bcast(shared, 1, MPI_DOUBLE, size_of(MPI_COMM_WORLD), h), MPI_ERR_ROOT);
  expect_class(MPIX_Hybrid_bcast(shared, 1, MPI_DATATYPE_NULL, 0, h), MPI_ERR_TYPE);
  expect_class(MPIX_Hybrid_allreduce(MPI_IN_PLACE, shared, 1, MPI_DOUBLE, MPI_SUM, h), MPI_ERR_BUFFER);
  expect_class(MPIX_Hybrid_allgather(&x, 1, MPI_DOUBLE, NULL, h), MPI_ERR_BUFFER);
  void *base;
  MPI_Win win;
  expect_class(MPIX_Hybrid_alloc(h, -8, &base, &win), MPI_ERR_SIZE);
  expect_class(MPIX_Hybrid_get_comms(MPIX_HYBRID_NULL, NULL, NULL), MPI_ERR_ARG);
  MPIX_Hybrid none = MPIX_HYBRID_NULL;
  expect_class(MPIX_Hybrid_free(&none), MPI_ERR_ARG);
  expect_class(MPIX_Hybrid_create(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
}

static void run(MPI_Comm comm, int nodes_in_order) {
  MPIX_Hybrid h;
  MPI_Comm node;
  CHECK_MPI(MPIX_Hybrid_create(comm, &h));
  CHECK(h != MPIX_HYBRID_NULL);
  check_comms(comm, h);
  CHECK_MPI(MPIX_Hybrid_get_comms(h, &node, NULL));
  check_allgather(comm, h, node);
  check_bcast(comm, h, node);
  check_allreduce(comm, h, node, nodes_in_order, 600);
  check_allreduce(comm, h, node, nodes_in_order, 40000);
  CHECK_MPI(MPIX_Hybrid_free(&h));
  CHECK(h == MPIX_HYBRID_NULL);
}

/* Whether every node's ranks are consecutive in comm. */
static int nodes_consecutive(MPI_Comm comm) {
  MPI_Comm shared;
  CHECK_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared));
  int first = rank_of(comm), last = first, ok;
  CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, shared));
  CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &last, 1, MPI_INT, MPI_MAX, shared));
  int mine = last - first + 1 == size_of(shared);
  CHECK_MPI(MPI_Allreduce(&mine, &ok, 1, MPI_INT, MPI_LAND, comm));
  MPI_Comm_free(&shared);
  return ok;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const int rank = rank_of(MPI_COMM_WORLD);
  /* Errors the test expects come back as codes (the hybrid objects keep the handler comm had at creation). */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  run(MPI_COMM_WORLD, nodes_consecutive(MPI_COMM_WORLD));
  /* Even ranks first, then odd ones: with slot mapping on 2 nodes their nodes interleave. */
  MPI_Comm evens_first;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, (rank % 2) * size_of(MPI_COMM_WORLD) + rank, &evens_first));
  run(evens_first, nodes_consecutive(evens_first));
  MPI_Comm_free(&evens_first);

  MPIX_Hybrid h;
  CHECK_MPI(MPIX_Hybrid_create(MPI_COMM_WORLD, &h));
  check_bad_input(h);
  MPI_Comm node;
  CHECK_MPI(MPIX_Hybrid_get_comms(h, &node, NULL));
  check_bcast(MPI_COMM_WORLD, h, node);  /* still works */
  CHECK_MPI(MPIX_Hybrid_free(&h));
  MPI_Finalize();
  return 0;
}
