/* Environment inquiry (MPI-4.0 chapter 11): Initialized/Finalized before and after, Get_version and
 * Get_library_version (also before MPI_Init, which 11.2.1 allows), Get_processor_name, Wtime/Wtick, Query_thread,
 * Is_thread_main, the default error handler.
 *
 * Usage: env_basics [--nodes N --map-by slot|node]: with --nodes, processor names must be `node<k>` where k
 * follows mpiexec's mapping (slot: blocks of ceil(size/N) ranks; node: round robin). Without it, all ranks
 * run on this host and must report one and the same name. */
#include "test_util.h"

static void check_version(void) {
  int version = -1, subversion = -1;
  CHECK_MPI(MPI_Get_version(&version, &subversion));
  CHECK(version == 4 && subversion == 0);
  CHECK(version == MPI_VERSION && subversion == MPI_SUBVERSION);

  char lib[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = -1;
  memset(lib, 'x', sizeof lib);
  CHECK_MPI(MPI_Get_library_version(lib, &len));
  CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING && len == (int)strlen(lib));
  CHECK(strstr(lib, "Strata") != NULL);
#ifdef STRATA_VERSION
  CHECK(strstr(lib, STRATA_VERSION) != NULL);
#endif
}

static void check_init_flags(int want_initialized, int want_finalized) {
  int flag = -1;
  CHECK_MPI(MPI_Initialized(&flag));
  CHECK(flag == want_initialized);
  flag = -1;
  CHECK_MPI(MPI_Finalized(&flag));
  CHECK(flag == want_finalized);
}

/* The node index of `rank` under mpiexec's --map-by rule. */
static int expected_node(int rank, int size, int nodes, const char *map_by) {
  if (strcmp(map_by, "node") == 0) return rank % nodes;
  int per_node = (size + nodes - 1) / nodes;
  return rank / per_node;
}

static void check_processor_names(int rank, int size, int nodes, const char *map_by) {
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = -1;
  memset(name, 'x', sizeof name);
  CHECK_MPI(MPI_Get_processor_name(name, &len));
  CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME && len == (int)strlen(name));
  if (nodes > 0) {
    char want[64];
    snprintf(want, sizeof want, "node%d", expected_node(rank, size, nodes, map_by));
    if (strcmp(name, want) != 0) fprintf(stderr, "rank %d: processor name '%s', expected '%s'\n", rank, name, want);
    CHECK(strcmp(name, want) == 0);
  }
  /* Rank 0 collects all names: ranks map to the same name exactly when they share a node. */
  if (rank == 0) {
    for (int r = 1; r < size; ++r) {
      char other[MPI_MAX_PROCESSOR_NAME];
      CHECK_MPI(MPI_Recv(other, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, r, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      int same_node = nodes > 0 ? expected_node(r, size, nodes, map_by) == expected_node(0, size, nodes, map_by) : 1;
      CHECK((strcmp(other, name) == 0) == same_node);
    }
  } else {
    CHECK_MPI(MPI_Send(name, len + 1, MPI_CHAR, 0, 5, MPI_COMM_WORLD));
  }
}

static void check_clock(void) {
  double tick = MPI_Wtick();
  CHECK(tick > 0.0);
  double prev = MPI_Wtime(), first = prev;
  for (int i = 0; i < 100000; ++i) {
    double t = MPI_Wtime();
    CHECK(t >= prev);
    prev = t;
  }
  /* The clock moves: spin until it changes (no bound on how long that takes, only that it happens). */
  long long spins = 0;
  while (MPI_Wtime() == first && spins < 4000000000LL) ++spins;
  CHECK(MPI_Wtime() > first);
}

static void check_threads(void) {
  int provided = -1, main_flag = -1;
  CHECK_MPI(MPI_Query_thread(&provided));
  CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE);
  CHECK_MPI(MPI_Is_thread_main(&main_flag));
  CHECK(main_flag == 1);
}

int main(int argc, char **argv) {
  int nodes = 0;
  const char *map_by = "slot";
  for (int i = 1; i + 1 < argc; ++i) {
    if (strcmp(argv[i], "--nodes") == 0) nodes = atoi(argv[i + 1]);
    if (strcmp(argv[i], "--map-by") == 0) map_by = argv[i + 1];
  }

  check_init_flags(0, 0);
  check_version(); /* allowed before MPI_Init */

  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  check_init_flags(1, 0);
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(size >= 1 && rank >= 0 && rank < size);
  int self_rank = -1, self_size = -1;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_SELF, &self_rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_SELF, &self_size));
  CHECK(self_rank == 0 && self_size == 1);

  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
  CHECK(eh == MPI_ERRORS_ARE_FATAL); /* the default (MPI-4.0 9.3) */

  check_version();
  check_processor_names(rank, size, nodes, map_by);
  check_clock();
  check_threads();
  test_barrier();

  CHECK_MPI(MPI_Finalize());
  check_init_flags(1, 1);
  check_version(); /* allowed after MPI_Finalize */
  return 0;
}
