/* Collectives called again with the same arguments, as application loops and benchmarks do. Strata restarts the
 * collective it built for the first call without checking or building again (coll/comm_cache.hpp), so this checks
 * what must still hold then:
 *   - every repeat uses the buffers' current contents (each one is changed between calls);
 *   - a datatype or operator freed and replaced by a new one (which may get the same handle) is the new object;
 *   - Strata only: a freed handle passed again is reported, and hints set on the communicator between two equal
 *     calls are honoured (an unknown algorithm name must then fail the call).
 * Every expectation is computed here from the ranks and the round. */
#include "test_util.h"

enum { ROUNDS = 4, N = 3 };

static int rank, size;

static int value(int r, int round, int i) { return 1000 * round + 10 * r + i; }

static void repeated_calls(void) {
  int send[N * 32], recv[N * 32], one[N];
  CHECK(size <= 32);
  for (int round = 0; round < ROUNDS; ++round) {
    const int root = size - 1;

    for (int i = 0; i < N; ++i) one[i] = rank == root ? value(root, round, i) : -1;
    CHECK_MPI(MPI_Bcast(one, N, MPI_INT, root, MPI_COMM_WORLD));
    for (int i = 0; i < N; ++i) CHECK(one[i] == value(root, round, i));

    for (int i = 0; i < N; ++i) send[i] = value(rank, round, i);
    CHECK_MPI(MPI_Allreduce(send, recv, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < N; ++i) {
      int want = 0;
      for (int r = 0; r < size; ++r) want += value(r, round, i);
      CHECK(recv[i] == want);
    }

    CHECK_MPI(MPI_Reduce(send, recv, N, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD));
    if (rank == root)
      for (int i = 0; i < N; ++i) CHECK(recv[i] == value(size - 1, round, i));

    CHECK_MPI(MPI_Scan(send, recv, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < N; ++i) {
      int want = 0;
      for (int r = 0; r <= rank; ++r) want += value(r, round, i);
      CHECK(recv[i] == want);
    }

    CHECK_MPI(MPI_Allgather(send, N, MPI_INT, recv, N, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; ++r)
      for (int i = 0; i < N; ++i) CHECK(recv[r * N + i] == value(r, round, i));

    CHECK_MPI(MPI_Gather(send, N, MPI_INT, recv, N, MPI_INT, root, MPI_COMM_WORLD));
    if (rank == root)
      for (int r = 0; r < size; ++r)
        for (int i = 0; i < N; ++i) CHECK(recv[r * N + i] == value(r, round, i));

    /* Alltoall and Scatter: block d of rank s holds value(s, round, d). */
    for (int d = 0; d < size; ++d) send[d] = value(rank, round, d);
    CHECK_MPI(MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD));
    for (int s = 0; s < size; ++s) CHECK(recv[s] == value(s, round, rank));
    CHECK_MPI(MPI_Scatter(send, 1, MPI_INT, recv, 1, MPI_INT, root, MPI_COMM_WORLD));
    CHECK(recv[0] == value(root, round, rank));

    CHECK_MPI(MPI_Reduce_scatter_block(send, recv, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    int want = 0;
    for (int s = 0; s < size; ++s) want += value(s, round, rank);
    CHECK(recv[0] == want);

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  }
}

/* A type freed and another made in its place: the second call moves the new type's elements. */
static void replaced_datatype(void) {
  int buf[4];
  MPI_Datatype pair, quad;
  CHECK_MPI(MPI_Type_contiguous(1, MPI_INT, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 4; ++i) buf[i] = rank == 0 ? value(0, round, i) : -1;
    CHECK_MPI(MPI_Bcast(buf, 2, pair, 0, MPI_COMM_WORLD));
    for (int i = 0; i < 4; ++i) CHECK(buf[i] == (i < 2 ? value(0, round, i) : rank == 0 ? value(0, round, i) : -1));
  }
  CHECK_MPI(MPI_Type_free(&pair));
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &quad));
  CHECK_MPI(MPI_Type_commit(&quad));
  for (int i = 0; i < 4; ++i) buf[i] = rank == 0 ? value(0, 7, i) : -1;
  CHECK_MPI(MPI_Bcast(buf, 2, quad, 0, MPI_COMM_WORLD));
  for (int i = 0; i < 4; ++i) CHECK(buf[i] == value(0, 7, i));
  CHECK_MPI(MPI_Type_free(&quad));
}

static void take_max(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)type;
  for (int i = 0; i < *len; ++i)
    if (((int *)in)[i] > ((int *)inout)[i]) ((int *)inout)[i] = ((int *)in)[i];
}

static void take_min(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)type;
  for (int i = 0; i < *len; ++i)
    if (((int *)in)[i] < ((int *)inout)[i]) ((int *)inout)[i] = ((int *)in)[i];
}

/* An operator freed and another made in its place: the second call applies the new function. */
static void replaced_operator(void) {
  int in = value(rank, 0, 0), out = 0;
  MPI_Op op;
  CHECK_MPI(MPI_Op_create(take_max, 1, &op));
  for (int round = 0; round < 2; ++round) {
    CHECK_MPI(MPI_Allreduce(&in, &out, 1, MPI_INT, op, MPI_COMM_WORLD));
    CHECK(out == value(size - 1, 0, 0));
  }
  CHECK_MPI(MPI_Op_free(&op));
  CHECK_MPI(MPI_Op_create(take_min, 1, &op));
  CHECK_MPI(MPI_Allreduce(&in, &out, 1, MPI_INT, op, MPI_COMM_WORLD));
  CHECK(out == value(0, 0, 0));
  CHECK_MPI(MPI_Op_free(&op));
}

#ifdef STRATA
/* Erroneous programs, which Strata reports: a freed handle passed again after equal calls that used it. */
static void freed_handle_reported(void) {
  int buf[2] = {rank, rank};
  MPI_Datatype t, stale;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  CHECK_MPI(MPI_Bcast(buf, 1, t, 0, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Bcast(buf, 1, t, 0, MPI_COMM_WORLD));
  stale = t;
  CHECK_MPI(MPI_Type_free(&t));
  test_expect_error_at(MPI_Bcast(buf, 1, stale, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Bcast",
                       "MPI_Bcast(stale type)", __FILE__, __LINE__);
  test_collectives_still_work(__FILE__, __LINE__);
}

/* Hints set between two equal calls: an unknown algorithm name must fail the next call, a known one must run. */
static void changed_hints_honoured(void) {
  int v = rank == 0 ? 5 : -1;
  MPI_Info info;
  CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "strata_coll_bcast", "no_such_algorithm"));
  CHECK_MPI(MPI_Comm_set_info(MPI_COMM_WORLD, info));
  test_expect_error_at(MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_ARG, "no_such_algorithm",
                       "MPI_Bcast(unknown algorithm)", __FILE__, __LINE__);
  CHECK_MPI(MPI_Info_set(info, "strata_coll_bcast", "linear"));
  CHECK_MPI(MPI_Comm_set_info(MPI_COMM_WORLD, info));
  v = rank == 0 ? 6 : -1;
  CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD));
  CHECK(v == 6);
  CHECK_MPI(MPI_Info_free(&info));
}
#endif

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);
  repeated_calls();
  replaced_datatype();
  replaced_operator();
#ifdef STRATA
  freed_handle_reported();
  changed_hints_honoured();
#endif
  CHECK_MPI(MPI_Finalize());
  if (rank == 0) printf("coll_repeat: ok\n");
  return 0;
}
