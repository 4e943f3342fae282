/* split_type: cost of MPI_Comm_split_type(MPI_COMM_TYPE_HW_GUIDED), in portable MPI-4 C, so the same source runs on
 * Strata, MPICH and Open MPI.
 *
 *   split_type [iterations]        default: 200 splits per case
 *
 * Cases: HW_GUIDED with mpi_hw_resource_type "Package", "L3Cache" and "Core" (bare hwloc type names: MPICH 4.0
 * takes those, Strata takes them and hwloc:// URIs), and as references MPI_COMM_TYPE_SHARED and a plain
 * MPI_Comm_split(color = rank % 2). For each case rank 0 first prints the size of the communicator it got (or NULL),
 * so the reader sees whether the libraries agree, then every rank times `iterations` split+free pairs after a
 * barrier and a few warm-up pairs. The figure printed is the max over ranks of the per-rank mean: a split is
 * collective, so the slowest rank is what an application waits for.
 * Output: '#' comment lines (among them "# size <case> <size|NULL>"), then one line per case, "case us_per_split".
 * A case the library lacks, or whose split fails, prints a comment line and no figure. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG = 11, WARMUP = 5 };

static int rank, size;

/* The max of x over all ranks, on every rank. Strata has no collectives yet (no MPI_Allreduce, no MPI_Barrier), so
 * this is gather-to-0 then send-back with MPI_Send/MPI_Recv, used the same way on every library. With x = 0 it is
 * the barrier. */
static double max_over_ranks(double x) {
  if (rank == 0) {
    for (int r = 1; r < size; ++r) {
      double y;
      MPI_Recv(&y, 1, MPI_DOUBLE, r, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (y > x) x = y;
    }
    for (int r = 1; r < size; ++r) MPI_Send(&x, 1, MPI_DOUBLE, r, TAG, MPI_COMM_WORLD);
  } else {
    MPI_Send(&x, 1, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD);
    MPI_Recv(&x, 1, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return x;
}

/* One split of the case: a hardware split when split_type >= 0, else MPI_Comm_split(rank % 2). */
static int split(int split_type, MPI_Info info, MPI_Comm *c) {
  if (split_type < 0) return MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, c);
  return MPI_Comm_split_type(MPI_COMM_WORLD, split_type, rank, info, c);
}

static int split_and_free(int split_type, MPI_Info info) {
  MPI_Comm c = MPI_COMM_NULL;
  int err = split(split_type, info, &c);
  if (err == MPI_SUCCESS && c != MPI_COMM_NULL) err = MPI_Comm_free(&c);
  return err;
}

/* resource: the mpi_hw_resource_type value, or NULL for no info. */
static void run_case(const char *name, int split_type, const char *resource, int iterations) {
  MPI_Info info = MPI_INFO_NULL;
  if (resource) {
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_hw_resource_type", resource);
  }

  /* One split to show what it gives. Errors are returned (MPI_ERRORS_RETURN), and whether any rank got one is
   * agreed on before going on, so a library rejecting a value skips the case on every rank instead of hanging. */
  MPI_Comm c = MPI_COMM_NULL;
  int err = split(split_type, info, &c), csize = 0;
  if (err == MPI_SUCCESS && c != MPI_COMM_NULL) MPI_Comm_size(c, &csize);
  if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
  if (max_over_ranks(err != MPI_SUCCESS) > 0) {
    if (rank == 0) {
      char msg[MPI_MAX_ERROR_STRING];
      int len = 0;
      msg[0] = '\0';
      if (err != MPI_SUCCESS) MPI_Error_string(err, msg, &len);
      printf("# %s: split failed (%s)\n", name, err != MPI_SUCCESS ? msg : "on another rank");
    }
  } else {
    if (rank == 0) {
      if (csize) printf("# size %s %d\n", name, csize);
      else printf("# size %s NULL\n", name);
      fflush(stdout);
    }
    for (int i = 0; i < WARMUP; ++i) split_and_free(split_type, info);
    max_over_ranks(0); /* barrier: everyone starts together */
    double start = MPI_Wtime();
    for (int i = 0; i < iterations; ++i) split_and_free(split_type, info);
    double mean = (MPI_Wtime() - start) / iterations;
    double slowest = max_over_ranks(mean);
    if (rank == 0) printf("%s %.3f\n", name, slowest * 1e6);
  }
  fflush(stdout);
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  int iterations = argc > 1 ? atoi(argv[1]) : 200;
  if (iterations < 1 || iterations > 1000000) {
    if (rank == 0) fprintf(stderr, "usage: mpiexec -n N split_type [iterations (1..1000000)]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }

  if (rank == 0) {
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(library, &len);
    library[strcspn(library, "\n")] = '\0';
    printf("# split_type: %s\n# %d ranks, %d split+free per case; us per split, max over ranks of the mean\n", library,
           size, iterations);
    printf("# case us_per_split\n");
    fflush(stdout);
  }

  static const char *const resources[] = {"Package", "L3Cache", "Core"};
  for (int i = 0; i < 3; ++i) {
#ifdef MPI_COMM_TYPE_HW_GUIDED
    run_case(resources[i], MPI_COMM_TYPE_HW_GUIDED, resources[i], iterations);
#else
    /* An MPI-3 library (Open MPI 4.1): no guided split to time. */
    if (rank == 0) printf("# %s: MPI_COMM_TYPE_HW_GUIDED not in this mpi.h, unsupported\n", resources[i]);
#endif
  }
  run_case("shared", MPI_COMM_TYPE_SHARED, NULL, iterations);
  run_case("split", -1, NULL, iterations);

  MPI_Finalize();
  return 0;
}
