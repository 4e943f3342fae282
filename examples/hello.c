/* hello: every rank says who and where it is; rank 0 also names the MPI library it runs on.
 * Portable MPI C: builds with Strata's mpicc and with any other MPI's wrapper. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);

  int rank = 0, size = 0, name_len = 0;
  char name[MPI_MAX_PROCESSOR_NAME];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Get_processor_name(name, &name_len);

  if (rank == 0) {
    int version = 0, subversion = 0, lib_len = 0;
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Get_version(&version, &subversion);
    MPI_Get_library_version(library, &lib_len);
    library[strcspn(library, "\n")] = '\0'; /* some libraries (MPICH) append their whole configuration */
    printf("MPI %d.%d library: %s\n", version, subversion, library);
  }
  printf("Hello from rank %d of %d on %s\n", rank, size, name);

  MPI_Finalize();
  return 0;
}
