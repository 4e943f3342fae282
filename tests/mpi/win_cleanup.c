/* Window segments never outlive their use: after MPI_Win_allocate_shared and a barrier, no segment of this job is
 * in /dev/shm any more, and the program then ends one of three ways (the argument):
 *   free   MPI_Win_free, then MPI_Finalize;
 *   nofree MPI_Finalize with the windows still allocated (it releases them);
 *   kill   the last rank kills itself (SIGKILL) while the others wait in a barrier: the job fails.
 * tests/integration/win_cleanup.sh runs all three and checks /dev/shm after the job. */
#include <signal.h>

#include "win_util.h"

int main(int argc, char **argv) {
  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const char *mode = argc > 1 ? argv[1] : "free";
  MPI_Win wins[3];
  for (int i = 0; i < 3; ++i) {
    char *base;
    MPI_Info info = MPI_INFO_NULL;
    if (i == 1) {
      CHECK_MPI(MPI_Info_create(&info));
      CHECK_MPI(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
    }
    CHECK_MPI(MPI_Win_allocate_shared(i == 2 ? 0 : 1 << 16, 1, info, MPI_COMM_WORLD, &base, &wins[i]));
    if (info != MPI_INFO_NULL) CHECK_MPI(MPI_Info_free(&info));
    if (i < 2) memset(base, rank, 1 << 16);
  }
  CHECK_NO_WINDOW_SEGMENT();
  const char *job = getenv("PMIX_NAMESPACE");
  if (rank == 0)
    printf("win_cleanup %s: job %s: no segment in /dev/shm while the windows are in use\n", mode, job ? job : "-");
  fflush(stdout);

  if (strcmp(mode, "kill") == 0) {
    if (rank == size - 1) raise(SIGKILL);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* never completes: mpiexec ends the job */
    fprintf(stderr, "DID NOT ABORT\n");
    return 1;
  }
  if (strcmp(mode, "free") == 0)
    for (int i = 0; i < 3; ++i) CHECK_MPI(MPI_Win_free(&wins[i]));
  CHECK_MPI(MPI_Finalize());
  if (rank == 0) printf("win_cleanup %s: finalized\n", mode);
  return 0;
}
