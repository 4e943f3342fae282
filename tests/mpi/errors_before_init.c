/* A call before MPI_Init must not crash (MPI-4.0 9.3 and 11.2.1: errors before initialization go to the initial
 * error handler, MPI_ERRORS_ARE_FATAL unless the user asked otherwise; Strata takes that request from
 * STRATA_INITIAL_ERRHANDLER, like MPI-4's mpi_initial_errhandler).
 *
 * Usage: errors_before_init fatal   -> the program must end with a nonzero status and a message naming the call
 *                                      (checked by run_expect_failure.cmake; this program never prints that name).
 *        errors_before_init return  -> run with STRATA_INITIAL_ERRHANDLER=return: the call returns an error code
 *                                      (any class but MPI_SUCCESS) whose string names the call; then MPI works. */
#include "test_util.h"

int main(int argc, char **argv) {
  int fatal = argc > 1 && strcmp(argv[1], "fatal") == 0;
  int rank = -1234, size = -1234;

  int err = MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (fatal) {
    fprintf(stderr, "ERROR HANDLER DID NOT ABORT: the call before initialization returned %d\n", err);
    return 0;
  }
  CHECK(err != MPI_SUCCESS);
  int cls = -1, len = -1;
  char msg[MPI_MAX_ERROR_STRING];
  CHECK(MPI_Error_class(err, &cls) == MPI_SUCCESS); /* both allowed before MPI_Init (11.2.1) */
  CHECK(cls != MPI_SUCCESS);
  CHECK(MPI_Error_string(err, msg, &len) == MPI_SUCCESS);
  CHECK(len == (int)strlen(msg));
  if (strstr(msg, "MPI_Comm_rank") == NULL) fprintf(stderr, "message does not name the call: '%s'\n", msg);
  CHECK(strstr(msg, "MPI_Comm_rank") != NULL);
  int flag = -1;
  CHECK(MPI_Initialized(&flag) == MPI_SUCCESS && flag == 0);

  /* MPI starts normally afterwards. */
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(rank >= 0 && rank < size);
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
