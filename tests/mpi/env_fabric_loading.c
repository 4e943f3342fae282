/* libfabric is loaded only by a process that opens an endpoint (transport/fabric_library.hpp): its psm providers'
 * constructors alone take 200 ms of every process start. After MPI_Init, a message to and from every other rank,
 * and MPI_Get_library_version, this process's /proc/self/maps must hold libfabric exactly when argv[1] says so.
 *
 * Usage: env_fabric_loading loaded|absent */
#include "test_util.h"

static int fabric_mapped(void) {
  FILE *maps = fopen("/proc/self/maps", "r");
  CHECK(maps != NULL);
  char line[4096];
  int found = 0;
  while (fgets(line, sizeof line, maps) != NULL)
    if (strstr(line, "/libfabric.so") != NULL) found = 1;
  fclose(maps);
  return found;
}

int main(int argc, char **argv) {
  CHECK(argc == 2 && (strcmp(argv[1], "loaded") == 0 || strcmp(argv[1], "absent") == 0));
  const int want = strcmp(argv[1], "loaded") == 0;
  CHECK(!fabric_mapped());  // nothing of MPI has run yet

  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank) continue;
    int out = rank * 1000 + peer, in = -1;
    CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, peer, 0, &in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(in == peer * 1000 + rank);
  }
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  CHECK_MPI(MPI_Get_library_version(version, &len));

  const int mapped = fabric_mapped();
  if (mapped != want)
    fprintf(stderr, "rank %d: libfabric is %s, expected %s\n", rank, want ? "absent" : "loaded", argv[1]);
  CHECK(mapped == want);
  MPI_Finalize();
  return 0;
}
