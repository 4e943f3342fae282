/* MPI_Waitall under MPI_ERRORS_ARE_FATAL with a request that fails while another can never complete: the job must
 * end at once, naming the failure, instead of waiting forever for the other request.
 *
 * Rank 1 sends two ints with tag 0 and then waits for a message rank 0 sends only if its MPI_Waitall returns. Rank 0
 * receives with room for one int (truncated: MPI_ERR_TRUNCATE) and with tag 1, which nobody sends, in one
 * MPI_Waitall. Registered through run_expect_failure.cmake: the job must exit nonzero and its output must name
 * MPI_Waitall and the truncation. Waiting for both requests first would hang until the launcher's timeout, which
 * prints neither; if MPI_Waitall returns, rank 0 says so and the job exits 0, which fails the test too. Ranks past
 * 1 only take part in the final barrier, which is never reached. */
#include "test_util.h"

int main(int argc, char **argv) {
  int rank, data[2] = {1, 2}, got[2] = {0, 0};
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  if (rank == 0) {
    MPI_Request reqs[2];
    CHECK_MPI(MPI_Irecv(&got[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Irecv(&got[1], 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &reqs[1]));
    int err = MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    fprintf(stderr, "ERROR HANDLER DID NOT ABORT: MPI_Waitall returned %d\n", err);
    fflush(stderr);
    MPI_Send(data, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
  } else if (rank == 1) {
    CHECK_MPI(MPI_Send(data, 2, MPI_INT, 0, 0, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(got, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
