/* The sizes of the roots communicators of a walk of MPIX_Comm_hsplit_with_roots from MPI_COMM_WORLD, against the
 * ones given: the hierarchical-model paper's section 7.4 lists them for NTW24E5 ("1 communicator of 4 processes
 * corresponding to the network switches, 4 communicators of various sizes (12, 6, 4 and 2 processes)
 * corresponding to the physical nodes connected to each switch, 24 communicators of 2 processes corresponding to
 * the sockets, 48 communicators of 2 processes corresponding to the NumaNodes and the last 96 communicators of 6
 * processes corresponding to the L2 cache level").
 *
 *   network_hsplit_sizes LEVEL=SIZES...
 *
 * Depth d of the walk (1, 2, ...) must split at LEVEL (the mpi_hw_resource_type every new communicator reports),
 * and its roots communicators, in world order of their first process, must have the SIZES: a comma list whose
 * items are a size or COUNTxSIZE ("24x2" = 24 communicators of 2). After the last depth the walk must reach
 * MPI_COMM_NULL everywhere. */
#include "test_util.h"

enum { MAX_SIZES = 4096 };

static int expand(const char *text, int *sizes) {
  int n = 0;
  while (*text) {
    char *end;
    long a = strtol(text, &end, 10), count = 1, value = a;
    CHECK(end != text && a > 0);
    if (*end == 'x') {
      count = a;
      text = end + 1;
      value = strtol(text, &end, 10);
      CHECK(end != text && value > 0);
    }
    for (long i = 0; i < count; ++i) {
      CHECK(n < MAX_SIZES);
      sizes[n++] = (int)value;
    }
    text = *end == ',' ? end + 1 : end;
    CHECK(*end == ',' || *end == '\0');
  }
  return n;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *reported = malloc(sizeof(int) * (size_t)size), *want = malloc(sizeof(int) * MAX_SIZES);
  MPI_Comm parent = MPI_COMM_WORLD;
  for (int depth = 1; depth <= argc; ++depth) {
    MPI_Comm part, roots;
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPIX_Comm_hsplit_with_roots(parent, info, &part, &roots));
    if (parent != MPI_COMM_WORLD) CHECK_MPI(MPI_Comm_free(&parent));
    if (depth == argc) { /* past the last level given */
      CHECK(part == MPI_COMM_NULL && roots == MPI_COMM_NULL);
      CHECK_MPI(MPI_Info_free(&info));
      break;
    }
    const char *spec = argv[depth], *eq = strchr(spec, '=');
    CHECK(eq != NULL);
    CHECK(part != MPI_COMM_NULL);
    char level[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    CHECK_MPI(MPI_Info_get(info, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, level, &flag));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK(flag);
    if (strncmp(level, spec, (size_t)(eq - spec)) != 0 || level[eq - spec] != '\0')
      fprintf(stderr, "rank %d: depth %d split at %s, expected %.*s\n", rank, depth, level, (int)(eq - spec), spec);
    CHECK(strncmp(level, spec, (size_t)(eq - spec)) == 0 && level[eq - spec] == '\0');
    int mine = 0; /* the first process of a roots communicator reports its size */
    if (roots != MPI_COMM_NULL) {
      int r = 0;
      CHECK_MPI(MPI_Comm_rank(roots, &r));
      if (r == 0) CHECK_MPI(MPI_Comm_size(roots, &mine));
      CHECK_MPI(MPI_Comm_free(&roots));
    }
    CHECK_MPI(MPI_Gather(&mine, 1, MPI_INT, reported, 1, MPI_INT, 0, MPI_COMM_WORLD));
    if (rank == 0) {
      const int n = expand(eq + 1, want);
      int got = 0;
      for (int r = 0; r < size; ++r) {
        if (reported[r] == 0) continue;
        if (got >= n || reported[r] != want[got])
          fprintf(stderr, "depth %d: roots communicator #%d (first process %d) has %d processes, expected %d\n",
                  depth, got, r, reported[r], got < n ? want[got] : 0);
        CHECK(got < n && reported[r] == want[got]);
        ++got;
      }
      if (got != n) fprintf(stderr, "depth %d: %d roots communicators, expected %d\n", depth, got, n);
      CHECK(got == n);
      printf("depth %d: %s, %d roots communicators as expected\n", depth, level, n);
    }
    parent = part;
  }
  free(reported);
  free(want);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
