/* MPI_ERRORS_ABORT (MPI-4.0 9.3): an error on a communicator with this handler ends the job as MPI_Abort on that
 * communicator would. Registered through run_expect_failure.cmake: the job must exit nonzero and its output must
 * name the failed call. Every rank but the last waits in a receive nothing will satisfy, so the job can only end
 * if the abort takes the others down. If the erroneous call returns, the program says so, releases the others and
 * exits 0, which fails the test.
 *
 * Usage: errhandler_abort comm | self
 *   comm: MPI_ERRORS_ABORT on a duplicate of MPI_COMM_WORLD (MPI_COMM_WORLD keeps MPI_ERRORS_RETURN, so the
 *         handler of the duplicate is the one that must act); the last rank sends to an invalid rank on it.
 *   self: MPI_ERRORS_ABORT on MPI_COMM_SELF, MPI_ERRORS_RETURN on MPI_COMM_WORLD; the last rank makes an error in
 *         a call that has no communicator (MPI_Info_delete of a missing key), which MPI-4.0 raises on
 *         MPI_COMM_SELF. */
#include "test_util.h"

int main(int argc, char **argv) {
  int rank, size, token = 0;
  const char *mode = argc > 1 ? argv[1] : "comm";
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));

  if (rank == size - 1) {
    int err;
    if (strcmp(mode, "self") == 0) {
      CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ABORT));
      MPI_Info info;
      CHECK_MPI(MPI_Info_create(&info));
      err = MPI_Info_delete(info, "no_such_key");
    } else {
      CHECK_MPI(MPI_Comm_set_errhandler(dup, MPI_ERRORS_ABORT));
      err = MPI_Send(&token, 1, MPI_INT, size + 7, 0, dup);
    }
    fprintf(stderr, "ERROR HANDLER DID NOT ABORT: the invalid call returned %d\n", err);
    fflush(stderr);
    for (int r = 0; r < size - 1; ++r) MPI_Send(&token, 1, MPI_INT, r, 1, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&token, 1, MPI_INT, size - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
