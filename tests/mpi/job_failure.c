/* One rank fails while every other rank is blocked inside MPI_Recv (Strata's wait loop): the job must end with
 * that rank's status and mpiexec must name it. Usage: job_failure abort|segv|exit|no_finalize|abort_after_finalize
 * (the last: every rank has finalized, and the last one then calls MPI_Abort, erroneous but still honoured). */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *mode = argc > 1 ? argv[1] : "abort";
  if (strcmp(mode, "abort_after_finalize") == 0) {
    MPI_Finalize();
    if (rank == size - 1) MPI_Abort(MPI_COMM_WORLD, 5);
    return 0;
  }
  if (rank != size - 1) {
    int never;
    MPI_Recv(&never, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);  /* nobody sends tag 99 */
    fprintf(stderr, "DID NOT ABORT: rank %d left MPI_Recv\n", rank);
    return 0;
  }
  /* Make sure the others are already waiting: they each send nothing, so just let them reach MPI_Recv. */
  double until = MPI_Wtime() + 0.2;
  while (MPI_Wtime() < until) {
  }
  if (strcmp(mode, "abort") == 0) MPI_Abort(MPI_COMM_WORLD, 7);
  if (strcmp(mode, "segv") == 0) raise(SIGSEGV);
  if (strcmp(mode, "exit") == 0) exit(3);
  if (strcmp(mode, "no_finalize") == 0) return 0;
  fprintf(stderr, "DID NOT ABORT: unknown mode %s\n", mode);
  return 0;
}
