// The C++ twin of examples/hello.c, built with mpicxx: mpi.h must be usable from C++ (extern "C", no C-only
// constructs) and a C++ program must link and run against libmpi.
#include <mpi.h>

#include <cstddef>
#include <iostream>
#include <string>

// One write per line: ranks share the launcher's output stream, and pieces written separately may interleave.
static void say(const std::string &line) { std::cout << line + "\n" << std::flush; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, length = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::string name(MPI_MAX_PROCESSOR_NAME, '\0');
  MPI_Get_processor_name(name.data(), &length);
  name.resize(length);

  if (rank == 0) {
    int version = 0, subversion = 0;
    std::string library(MPI_MAX_LIBRARY_VERSION_STRING, '\0');
    MPI_Get_version(&version, &subversion);
    MPI_Get_library_version(library.data(), &length);
    library.resize(static_cast<std::size_t>(length));
    library = library.substr(0, library.find('\n')); // some libraries (MPICH) append their configuration
    say("MPI " + std::to_string(version) + "." + std::to_string(subversion) + " library: " + library);
  }
  say("Hello from rank " + std::to_string(rank) + " of " + std::to_string(size) + " on " + name);
  MPI_Finalize();
  return 0;
}
