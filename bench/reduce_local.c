/* reduce_local: throughput of MPI_Reduce_local(in, inout, n, MPI_DOUBLE, MPI_SUM), the local step of every
 * reduction collective, in portable MPI C on one rank.
 *
 *   reduce_local [max_bytes [batches]]        defaults: 16 MiB, 7 batches
 *
 * For each size 1 KiB, 4 KiB, 16 KiB, ... max_bytes (powers of 4) it first checks one call against a plain loop
 * (a fast but wrong reduction must not produce a number), warms up, then times `batches` batches of calls on the
 * same two buffers (about 256 MiB of input per batch, between 5 and 1000000 calls), so small sizes run from the
 * caches, as in a pipelined collective. GB/s is the bytes of one vector (n * 8) per second, 1e9 bytes/s; the
 * memory traffic is three times that (read in, read and write inout). The line printed is the median over
 * batches. Output: '#' comment lines, then one "bytes GBps" line per size. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int calls_for(long bytes) {
  long calls = (256L << 20) / bytes;
  return (int)(calls < 5 ? 5 : calls > 1000000 ? 1000000 : calls);
}

/* One call checked against a loop; the values are small integers / 8, so every sum is exact. */
static int sum_is_right(double *in, double *inout, double *want, int n) {
  for (int i = 0; i < n; ++i) {
    in[i] = (double)(i % 1000) / 8;
    inout[i] = (double)(i % 7) - 3;
    want[i] = inout[i] + in[i];
  }
  if (MPI_Reduce_local(in, inout, n, MPI_DOUBLE, MPI_SUM) != MPI_SUCCESS) return 0;
  return memcmp(inout, want, sizeof(double) * (size_t)n) == 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  long max_bytes = argc > 1 ? atol(argv[1]) : 16L << 20;
  int batches = argc > 2 ? atoi(argv[2]) : 7;
  if (max_bytes < 1024 || max_bytes > (1L << 30) || batches < 1 || batches > 1000) {
    fprintf(stderr, "usage: reduce_local [max_bytes (1 KiB .. 1 GiB) [batches (1..1000)]]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int max_n = (int)(max_bytes / (long)sizeof(double));
  double *in = malloc(sizeof(double) * (size_t)max_n), *inout = malloc(sizeof(double) * (size_t)max_n);
  double *want = malloc(sizeof(double) * (size_t)max_n), *batch_rate = malloc(sizeof(double) * (size_t)batches);
  if (!in || !inout || !want || !batch_rate) MPI_Abort(MPI_COMM_WORLD, 3);

  char library[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(library, &len);
  library[strcspn(library, "\n")] = '\0';
  printf("# reduce_local: %s\n# MPI_SUM on MPI_DOUBLE, median of %d batches\n# bytes GBps\n", library, batches);
  fflush(stdout);

  for (long bytes = 1024; bytes <= max_bytes; bytes *= 4) {
    const int n = (int)(bytes / (long)sizeof(double)), calls = calls_for(bytes);
    if (!sum_is_right(in, inout, want, n)) {
      fprintf(stderr, "reduce_local: wrong sum at %ld bytes\n", bytes);
      MPI_Abort(MPI_COMM_WORLD, 4);
    }
    for (int i = 0; i < calls / 4 + 1; ++i) MPI_Reduce_local(in, inout, n, MPI_DOUBLE, MPI_SUM); /* warm up */
    for (int b = 0; b < batches; ++b) {
      const double start = MPI_Wtime();
      for (int i = 0; i < calls; ++i) MPI_Reduce_local(in, inout, n, MPI_DOUBLE, MPI_SUM);
      batch_rate[b] = (double)bytes * calls / (MPI_Wtime() - start) / 1e9;
    }
    qsort(batch_rate, (size_t)batches, sizeof(double), compare_doubles);
    printf("%ld %.3f\n", bytes, batch_rate[batches / 2]);
    fflush(stdout);
  }
  free(in);
  free(inout);
  free(want);
  free(batch_rate);
  MPI_Finalize();
  return 0;
}
