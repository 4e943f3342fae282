// Prints "find_mpi_cxx: rank R of N, MPI V.S" for find_mpi.sh to check.
#include <mpi.h>

#include <iostream>

int main(int argc, char **argv) {
  int rank = 0, size = 0, version = 0, subversion = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Get_version(&version, &subversion);
  std::cout << "find_mpi_cxx: rank " << rank << " of " << size << ", MPI " << version << '.' << subversion
            << std::endl;
  MPI_Finalize();
  return 0;
}
