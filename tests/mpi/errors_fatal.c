/* The default error handler, MPI_ERRORS_ARE_FATAL (MPI-4.0 9.3): an invalid call ends the whole job. The last
 * rank (on the second simulated node under --nodes 2) sends to an invalid rank; every other rank waits in a
 * receive that nothing will satisfy, so the job can only end if the launcher takes the others down too.
 *
 * Registered through run_expect_failure.cmake: the job must exit nonzero and its output must name the failed
 * call. This program never prints that name itself; if the invalid call returns, it says so, releases the other
 * ranks and exits 0, which fails the test. The output must also hold the line the failing rank printed to stdout,
 * unflushed, just before the call: the abort must not drop what a program wrote. */
#include "test_util.h"

int main(int argc, char **argv) {
  int rank, size, token = 0;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

  if (rank == size - 1) {
    printf("rank %d wrote this line before its invalid call\n", rank); /* stdout is a pipe: fully buffered */
    int err = MPI_Send(&token, 1, MPI_INT, size + 7, 0, MPI_COMM_WORLD);
    fprintf(stderr, "ERROR HANDLER DID NOT ABORT: the invalid call returned %d\n", err);
    fflush(stderr);
    MPI_Request reqs[64];
    int n = 0;
    for (int r = 0; r < size - 1 && n < 64; ++r) MPI_Isend(&token, 1, MPI_INT, r, 1, MPI_COMM_WORLD, &reqs[n++]);
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
  } else {
    MPI_Recv(&token, 1, MPI_INT, size - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
