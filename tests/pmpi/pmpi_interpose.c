/* A profiling tool in miniature: this program defines MPI_Send itself, counts the calls and forwards them to
 * PMPI_Send. The application's MPI_Send calls must reach the wrapper; the library's own internal traffic
 * (MPI_Sendrecv here) must not, because the library calls PMPI_ or internal functions only. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int sends_seen = 0;

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  ++sends_seen;
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

#define CHECK(cond)                                                             \
  do {                                                                          \
    if (!(cond)) {                                                              \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      MPI_Abort(MPI_COMM_WORLD, 1);                                             \
    }                                                                           \
  } while (0)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  int in = -1, out = rank * 10 + 3;
  MPI_Request req;
  MPI_Irecv(&in, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &req);
  MPI_Send(&out, 1, MPI_INT, right, 5, MPI_COMM_WORLD);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  CHECK(in == left * 10 + 3);
  CHECK(sends_seen == 1);

  MPI_Sendrecv(&out, 1, MPI_INT, right, 6, &in, 1, MPI_INT, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(in == left * 10 + 3);
  CHECK(sends_seen == 1); /* Sendrecv does not go through the application-visible MPI_Send */

  PMPI_Send(&out, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  CHECK(sends_seen == 1); /* calling PMPI_ directly bypasses the tool */

  if (rank == 0) printf("pmpi interposition ok on %d ranks\n", size);
  MPI_Finalize();
  return 0;
}
