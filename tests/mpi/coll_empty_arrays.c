/* Arrays of no entries may be NULL (found by PETSc 3.18): a neighbourhood collective's counts, displacements and
 * types on a side of degree 0, and the receive buffer of a reduce-scatter rank whose own count is 0, whatever the
 * other ranks receive. Each call runs blocking, nonblocking and persistent where MPI has the form; results are
 * checked against values every rank computes itself. A NULL array that has entries is still MPI_ERR_ARG.
 *
 * Graph: a directed ring without one edge: rank r sends to r+1 for r < size-1, so rank 0 has indegree 0 and the
 * last rank outdegree 0. */
#include "test_util.h"

enum { kBlocking, kNonblocking, kPersistent, kForms };

static void finish(MPI_Request *req, int form) {
  if (form == kPersistent) {
    CHECK_MPI(MPI_Start(req));
    CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Request_free(req));
  } else if (form == kNonblocking) {
    CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
  }
}

static void neighbour_exchanges(MPI_Comm g, int rank, int size) {
  const int has_in = rank > 0, has_out = rank < size - 1;
  const int one = 1, zero = 0;
  const MPI_Datatype ints[1] = {MPI_INT};
  const MPI_Aint zero_bytes = 0;
  for (int form = 0; form < kForms; ++form) {
    for (int w = 0; w < 2; ++w) {
      int sbuf = 1000 * form + 10 * w + rank, rbuf = -1;
      const int *scounts = has_out ? &one : NULL, *rcounts = has_in ? &one : NULL;
      MPI_Request req = MPI_REQUEST_NULL;
      if (!w) {
        const int *sd = has_out ? &zero : NULL, *rd = has_in ? &zero : NULL;
        if (form == kBlocking)
          CHECK_MPI(MPI_Neighbor_alltoallv(&sbuf, scounts, sd, MPI_INT, &rbuf, rcounts, rd, MPI_INT, g));
        else if (form == kNonblocking)
          CHECK_MPI(MPI_Ineighbor_alltoallv(&sbuf, scounts, sd, MPI_INT, &rbuf, rcounts, rd, MPI_INT, g, &req));
        else
          CHECK_MPI(MPI_Neighbor_alltoallv_init(&sbuf, scounts, sd, MPI_INT, &rbuf, rcounts, rd, MPI_INT, g,
                                                MPI_INFO_NULL, &req));
      } else {
        const MPI_Aint *sd = has_out ? &zero_bytes : NULL, *rd = has_in ? &zero_bytes : NULL;
        const MPI_Datatype *st = has_out ? ints : NULL, *rt = has_in ? ints : NULL;
        if (form == kBlocking)
          CHECK_MPI(MPI_Neighbor_alltoallw(&sbuf, scounts, sd, st, &rbuf, rcounts, rd, rt, g));
        else if (form == kNonblocking)
          CHECK_MPI(MPI_Ineighbor_alltoallw(&sbuf, scounts, sd, st, &rbuf, rcounts, rd, rt, g, &req));
        else
          CHECK_MPI(MPI_Neighbor_alltoallw_init(&sbuf, scounts, sd, st, &rbuf, rcounts, rd, rt, g, MPI_INFO_NULL,
                                                &req));
      }
      finish(&req, form);
      CHECK(rbuf == (has_in ? 1000 * form + 10 * w + rank - 1 : -1));
    }
  }
  /* An array with entries may not be NULL. */
  if (has_out) {
    int sbuf = 0, rbuf = 0;
    const int *rcounts = has_in ? &one : NULL, *rd = has_in ? &zero : NULL;
    const int rc = MPI_Neighbor_alltoallv(&sbuf, NULL, &zero, MPI_INT, &rbuf, rcounts, rd, MPI_INT, g);
    int error_class = MPI_SUCCESS;
    MPI_Error_class(rc, &error_class);
    CHECK(error_class == MPI_ERR_ARG);
  }
}

/* Reduce-scatter where rank r receives r % 2 elements (rank 0 none, with a NULL buffer); element i of the whole
 * vector sums rank + i over the ranks. */
static void reduce_scatter_zero_share(int rank, int size) {
  int counts[64], total = 0, first = 0;
  for (int r = 0; r < size; ++r) {
    counts[r] = r % 2;
    if (r < rank) first += counts[r];
    total += counts[r];
  }
  int send[64], recv[2] = {-1, -1};
  for (int i = 0; i < total; ++i) send[i] = rank + i;
  for (int form = 0; form < kForms; ++form) {
    int *out = counts[rank] ? recv : NULL;
    MPI_Request req = MPI_REQUEST_NULL;
    if (form == kBlocking)
      CHECK_MPI(MPI_Reduce_scatter(send, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    else if (form == kNonblocking)
      CHECK_MPI(MPI_Ireduce_scatter(send, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
    else
      CHECK_MPI(MPI_Reduce_scatter_init(send, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    finish(&req, form);
    if (counts[rank]) CHECK(recv[0] == size * (size - 1) / 2 + size * first);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2 && size <= 64);
  const int next = rank + 1, previous = rank - 1;
  MPI_Comm g;
  CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, rank > 0, &previous, MPI_UNWEIGHTED, rank < size - 1,
                                           &next, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
  MPI_Comm_set_errhandler(g, MPI_ERRORS_RETURN);
  neighbour_exchanges(g, rank, size);
  CHECK_MPI(MPI_Comm_free(&g));
  reduce_scatter_zero_share(rank, size);
  if (rank == 0) printf("coll_empty_arrays: ok at %d ranks\n", size);
  MPI_Finalize();
  return 0;
}
