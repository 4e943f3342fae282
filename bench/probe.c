/* probe: the cost model's parameters (coll/cost_parameters.hpp) measured on the machine the job runs on, in
 * portable MPI C: alpha and beta of each link class present among the job's ranks, and gamma of the local reduce.
 *
 *   mpiexec -n N probe [batches]           N >= 2; default 7 batches per figure
 *
 * Each rank's place comes from the MPI-4 splits only, so the probe runs on any MPI: ranks sharing an
 * MPI_COMM_TYPE_HW_GUIDED communicator of "L3Cache", "L2Cache", "L1Cache" or "Core" share a cache, else ranks
 * sharing a "Package" or "NUMANode" one a package, else ranks sharing an MPI_COMM_TYPE_SHARED one a node; any other
 * pair is on different nodes. These are the groups of coll::link_class. A rank that fits no single instance
 * (unbound), or a level the library or machine lacks, gives MPI_COMM_NULL, which matches nothing.
 *
 * For each class the lowest pair of ranks of that class ping-pongs while the other ranks sleep (on a machine with
 * fewer cores than ranks a spinning bystander would slow the pair down). A link has two Hockney lines, alpha + m
 * beta: its eager messages' through 8 bytes (one double, the message of a small reduction) and 4 KiB, and its
 * rendezvous messages' (above the library's eager limit: a request and a clear-to-send before the data) through
 * 256 KiB and 1 MiB, sizes below and above the eager limits of Strata, MPICH and Open MPI; each time is the median
 * over batches of the one-way time of a round trip. Gamma is rank 0's
 * MPI_Reduce_local of 1 MiB of MPI_DOUBLE sums, per byte.
 *
 * Rank 0 prints the cost file (coll/cost_parameters.hpp: "class alpha_us beta_ns_per_byte" and "gamma
 * ns_per_byte", '#' comments), with the raw times as comments. A class with no pair in the job gets a comment and
 * the values of the nearest class measured (ties to the closer one), so the file is always complete. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TAG = 11, CLASSES = 4, SIZES = 4, LARGE = 1 << 20 };
/* coll/cost_parameters.hpp's kProbeSizes: the eager line through the first two, the rendezvous line the last two. */
static const int sizes[SIZES] = {8, 4096, 256 * 1024, LARGE};
static const char *const class_names[CLASSES] = {"same_cache", "same_package", "same_node", "other_node"};

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof(double), compare_doubles);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The world rank of the lowest member of `c` (every member learns it), or -1 for MPI_COMM_NULL: an id of the
 * instance the calling rank lies in. */
static int instance_id(MPI_Comm c) {
  if (c == MPI_COMM_NULL) return -1;
  int world = 0, lowest = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  MPI_Allreduce(&world, &lowest, 1, MPI_INT, MPI_MIN, c);
  MPI_Comm_free(&c);
  return lowest;
}

static int hw_instance(const char *resource) {
  MPI_Comm c = MPI_COMM_NULL;
#ifdef MPI_COMM_TYPE_HW_GUIDED
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_hw_resource_type", resource);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c);
  MPI_Info_free(&info);
#else
  (void)resource; /* an MPI-3 library: caches and packages stay unknown, ranks only tell nodes apart */
#endif
  return instance_id(c);
}

/* The levels behind each class, as Strata's topo::distance and coll::link_class group them: sharing any cache (or
 * a core) is "same cache"; else sharing a package or a NUMA node is "same package"; else the shared-memory node.
 * A level the library does not know or the machine lacks gives MPI_COMM_NULL and so never matches. */
static const char *const cache_levels[] = {"L3Cache", "L2Cache", "L1Cache", "Core"};
static const char *const package_levels[] = {"Package", "NUMANode"};
enum { CACHES = 4, PACKAGES = 2, IDS = CACHES + PACKAGES + 1 };

static int shares(const int *x, const int *y, int from, int count) {
  for (int i = from; i < from + count; ++i)
    if (x[i] >= 0 && x[i] == y[i]) return 1;
  return 0;
}

/* ids[IDS r ..]: rank r's instance ids, caches, then packages, then the node. */
static int link_class(const int *ids, int a, int b) {
  const int *x = ids + IDS * a, *y = ids + IDS * b;
  if (x[IDS - 1] != y[IDS - 1]) return 3;
  if (shares(x, y, 0, CACHES)) return 0;
  return shares(x, y, CACHES, PACKAGES) ? 1 : 2;
}

/* While a pair (or rank 0 alone) measures, everyone else sleeps in a barrier the measuring ranks join when done.
 * It is nonblocking on all ranks, since a blocking and a nonblocking collective never match. */
static void idle_until_done(void) {
  MPI_Request r;
  int done = 0;
  MPI_Ibarrier(MPI_COMM_WORLD, &r);
  struct timespec nap = {0, 10000000};
  for (;;) {
    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    if (done) return;
    nanosleep(&nap, NULL);
  }
}

static void done_measuring(void) {
  MPI_Request r;
  MPI_Ibarrier(MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* The class whose values stand in for class c: c itself if measured, else the nearest measured, the closer to the
 * cache on a tie. One class at least is always measured (two ranks are always of some class). */
static int nearest_measured(int pair[CLASSES][2], int c) {
  for (int d = 0; d < CLASSES; ++d) {
    if (c - d >= 0 && pair[c - d][0] >= 0) return c - d;
    if (c + d < CLASSES && pair[c + d][0] >= 0) return c + d;
  }
  return c;
}

static void round_trips(int me, int peer, int first, char *buf, int bytes, int iters) {
  for (int i = 0; i < iters; ++i) {
    if (me == first) {
      MPI_Send(buf, bytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
      MPI_Recv(buf, bytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, bytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, bytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
    }
  }
}

/* The median one-way time (seconds) of `bytes` between ranks a < b, as seen by a (b returns 0). */
static double one_way(int me, int a, int b, char *buf, int bytes, int batches, double *scratch) {
  const int iters = bytes <= 4096 ? 1000 : 30;
  const int peer = me == a ? b : a;
  round_trips(me, peer, a, buf, bytes, iters / 10 + 2); /* connections, registration caches, page faults */
  for (int k = 0; k < batches; ++k) {
    double start = MPI_Wtime();
    round_trips(me, peer, a, buf, bytes, iters);
    scratch[k] = (MPI_Wtime() - start) / (2.0 * iters);
  }
  return me == a ? median(scratch, batches) : 0;
}

/* Seconds per byte of one MPI_Reduce_local of LARGE bytes of doubles, median over batches. */
static double reduce_time(int batches, double *scratch) {
  const int n = LARGE / (int)sizeof(double), calls = 20;
  double *in = malloc(LARGE), *inout = malloc(LARGE);
  if (!in || !inout) MPI_Abort(MPI_COMM_WORLD, 3);
  for (int i = 0; i < n; ++i) in[i] = inout[i] = 1.0;
  MPI_Reduce_local(in, inout, n, MPI_DOUBLE, MPI_SUM); /* warm-up */
  for (int k = 0; k < batches; ++k) {
    double start = MPI_Wtime();
    for (int c = 0; c < calls; ++c) MPI_Reduce_local(in, inout, n, MPI_DOUBLE, MPI_SUM);
    scratch[k] = (MPI_Wtime() - start) / calls / LARGE;
  }
  free(in);
  free(inout);
  return median(scratch, batches);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int batches = argc > 1 ? atoi(argv[1]) : 7;
  if (size < 2 || batches < 1 || batches > 1000) {
    if (rank == 0) fprintf(stderr, "usage: mpiexec -n N probe [batches (1..1000)], N >= 2\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }

  int mine[IDS], *ids = malloc(sizeof(int) * IDS * (size_t)size);
  double *scratch = malloc(sizeof(double) * (size_t)batches);
  char *buf = malloc(LARGE);
  if (!ids || !scratch || !buf) MPI_Abort(MPI_COMM_WORLD, 3);
  memset(buf, 1, LARGE);
  for (int i = 0; i < CACHES; ++i) mine[i] = hw_instance(cache_levels[i]);
  for (int i = 0; i < PACKAGES; ++i) mine[CACHES + i] = hw_instance(package_levels[i]);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  mine[IDS - 1] = instance_id(node);
  MPI_Allgather(mine, IDS, MPI_INT, ids, IDS, MPI_INT, MPI_COMM_WORLD);

  /* Every rank finds the same pairs: per class, the first (a, b) with a < b in rank order. */
  int pair[CLASSES][2];
  for (int c = 0; c < CLASSES; ++c) pair[c][0] = pair[c][1] = -1;
  for (int a = 0; a < size; ++a)
    for (int b = a + 1; b < size; ++b) {
      int c = link_class(ids, a, b);
      if (pair[c][0] < 0) pair[c][0] = a, pair[c][1] = b;
    }

  double times[CLASSES][SIZES] = {{0}};
  for (int c = 0; c < CLASSES; ++c) {
    const int a = pair[c][0], b = pair[c][1];
    if (a < 0) continue;
    if (rank != a && rank != b) {
      idle_until_done();
      continue;
    }
    for (int i = 0; i < SIZES; ++i) times[c][i] = one_way(rank, a, b, buf, sizes[i], batches, scratch);
    done_measuring();
  }
  /* Rank 0 prints: it gets the figures of the pairs it was not in from their first rank. */
  for (int c = 0; c < CLASSES; ++c) {
    const int a = pair[c][0];
    if (a > 0 && rank == a) MPI_Send(times[c], SIZES, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD);
    if (a > 0 && rank == 0) MPI_Recv(times[c], SIZES, MPI_DOUBLE, a, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }

  double gamma = 0;
  if (rank == 0) {
    gamma = reduce_time(batches, scratch);
    done_measuring();
  } else {
    idle_until_done();
  }

  if (rank == 0) {
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(library, &len);
    library[strcspn(library, "\n")] = '\0';
    printf("# probe: %s\n# %d ranks; median of %d batches; one-way times of %d, %d, %d and %d B\n", library, size,
           batches, sizes[0], sizes[1], sizes[2], sizes[3]);
    printf("# class alpha_us beta_ns_per_byte rendezvous_alpha_us rendezvous_beta_ns_per_byte\n");
    for (int c = 0; c < CLASSES; ++c) {
      const int from = nearest_measured(pair, c);
      if (from != c) {
        printf("# %s: no pair of ranks in this job; the values of %s\n", class_names[c], class_names[from]);
      } else {
        printf("# %s: ranks %d and %d;", class_names[c], pair[c][0], pair[c][1]);
        for (int i = 0; i < SIZES; ++i) printf(" %d B %.3f us", sizes[i], times[c][i] * 1e6);
        printf("\n");
      }
      printf("%s", class_names[c]);
      for (int i = 0; i < SIZES; i += 2) {
        /* Noise can tilt a line below zero on a busy machine; a negative cost means nothing to the model. */
        const double *t = times[from];
        double beta = (t[i + 1] - t[i]) / (sizes[i + 1] - sizes[i]);
        double alpha = t[i] - sizes[i] * beta;
        printf(" %.4g %.4g", alpha > 0 ? alpha * 1e6 : 0, beta > 0 ? beta * 1e9 : 0);
      }
      printf("\n");
    }
    printf("# gamma: MPI_Reduce_local of %d B of MPI_DOUBLE sums\ngamma %.4g\n", LARGE, gamma * 1e9);
  }

  free(ids);
  free(scratch);
  free(buf);
  MPI_Finalize();
  return 0;
}
