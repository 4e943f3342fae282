/* pingpong: point-to-point latency and bandwidth between two ranks, in portable MPI C (MPI_Send/MPI_Recv only,
 * so it runs on any MPI, and on Strata from its first working version).
 *
 *   pingpong [max_bytes [batches]]        defaults: 4 MiB, 7 batches
 *
 * For each size (0, 1, 2, 4, ... max_bytes) rank 0 first checks that an echoed pattern comes back intact (a fast
 * but broken transport must not produce a number), warms up, then times `batches` batches of round trips. A
 * batch's one-way latency is its time / (2 * iterations); the line printed is the median over batches, which
 * ignores the odd batch hit by a preemption. Bandwidth is bytes / one-way latency (MB/s = 1e6 bytes/s).
 * Output is one line per size, "bytes latency_us bandwidth_MBps", after '#' comment lines: easy to parse. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG = 7 };

/* Many round trips for small messages (timer resolution, noise), fewer for large ones: about 64 MiB per batch
 * and direction, between 20 and 1000 round trips. */
static int iterations_for(long bytes) {
  long iters = bytes > 0 ? (64L << 20) / bytes : 1000;
  return (int)(iters < 20 ? 20 : iters > 1000 ? 1000 : iters);
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void round_trips(int rank, char *buf, long bytes, int iters) {
  for (int i = 0; i < iters; ++i) {
    if (rank == 0) {
      MPI_Send(buf, (int)bytes, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, (int)bytes, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
    }
  }
}

/* Rank 0 sends a pattern, rank 1 echoes it, rank 0 compares. Returns 0 on rank 0 if the echo differs. */
static int echo_intact(int rank, char *buf, char *check, long bytes) {
  if (rank == 0) {
    for (long i = 0; i < bytes; ++i) check[i] = (char)((i * 131 + bytes) & 0xff);
    memset(buf, 0, (size_t)bytes);
    MPI_Send(check, (int)bytes, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
    MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return memcmp(buf, check, (size_t)bytes) == 0;
  }
  round_trips(rank, buf, bytes, 1);
  return 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long max_bytes = argc > 1 ? atol(argv[1]) : 4L << 20;
  int batches = argc > 2 ? atoi(argv[2]) : 7;
  if (size != 2 || max_bytes < 0 || max_bytes > (1L << 30) || batches < 1 || batches > 1000) {
    if (rank == 0) fprintf(stderr, "usage: mpiexec -n 2 pingpong [max_bytes (<= 1 GiB) [batches (1..1000)]]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }

  char *buf = malloc((size_t)max_bytes + 1), *check = malloc((size_t)max_bytes + 1);
  double *batch_latency = malloc(sizeof(double) * (size_t)batches);
  if (!buf || !check || !batch_latency) MPI_Abort(MPI_COMM_WORLD, 3);
  memset(buf, 1, (size_t)max_bytes + 1);

  if (rank == 0) {
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(library, &len);
    library[strcspn(library, "\n")] = '\0';
    printf("# pingpong: %s\n# median of %d batches; one-way latency\n", library, batches);
    printf("# bytes latency_us bandwidth_MBps\n");
    fflush(stdout);
  }

  for (long bytes = 0; bytes <= max_bytes; bytes = bytes ? bytes * 2 : 1) {
    if (!echo_intact(rank, buf, check, bytes)) {
      fprintf(stderr, "pingpong: %ld-byte message came back corrupted\n", bytes);
      MPI_Abort(MPI_COMM_WORLD, 4);
    }
    int iters = iterations_for(bytes);
    round_trips(rank, buf, bytes, iters / 10 + 2); /* warm-up: connections, registration caches, page faults */
    for (int b = 0; b < batches; ++b) {
      double start = MPI_Wtime();
      round_trips(rank, buf, bytes, iters);
      batch_latency[b] = (MPI_Wtime() - start) / (2.0 * iters);
    }
    if (rank == 0) {
      qsort(batch_latency, (size_t)batches, sizeof(double), compare_doubles);
      double median = batches % 2 ? batch_latency[batches / 2]
                                  : 0.5 * (batch_latency[batches / 2 - 1] + batch_latency[batches / 2]);
      printf("%ld %.3f %.1f\n", bytes, median * 1e6, bytes / median / 1e6);
      fflush(stdout);
    }
  }

  free(buf);
  free(check);
  free(batch_latency);
  MPI_Finalize();
  return 0;
}
