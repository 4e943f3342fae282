/* What the collective benchmarks (coll.c, persistent.c) share: a barrier and a maximum over ranks made of
 * MPI_Send/MPI_Recv through rank 0 (the same code on every library, and independent of the collectives measured),
 * and the median of timings. Portable MPI C. */
#ifndef STRATA_BENCH_HARNESS_H
#define STRATA_BENCH_HARNESS_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HARNESS_TAG_SYNC = 21, HARNESS_TAG_MAX = 22 };

/* MPI_Init, this rank and the size, and MPI_ERRORS_RETURN on MPI_COMM_WORLD (a library still being written can be
 * measured on the operations it has: a failing call skips its case). */
static inline void harness_init(int *argc, char ***argv, int *rank, int *size) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

static inline void check_p2p(int err) {
  if (err != MPI_SUCCESS) {
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "bench: rank %d: a send or receive of the harness failed\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
}

/* The max of x over all ranks, on every rank: gathered to rank 0, which sends it back in rank order. */
static inline double max_over_ranks(double x) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    for (int r = 1; r < size; ++r) {
      double y;
      check_p2p(MPI_Recv(&y, 1, MPI_DOUBLE, r, HARNESS_TAG_MAX, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      if (y > x) x = y;
    }
    for (int r = 1; r < size; ++r) check_p2p(MPI_Send(&x, 1, MPI_DOUBLE, r, HARNESS_TAG_MAX, MPI_COMM_WORLD));
  } else {
    check_p2p(MPI_Send(&x, 1, MPI_DOUBLE, 0, HARNESS_TAG_MAX, MPI_COMM_WORLD));
    check_p2p(MPI_Recv(&x, 1, MPI_DOUBLE, 0, HARNESS_TAG_MAX, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  }
  return x;
}

/* A barrier of empty messages through rank 0: no rank leaves before every rank has entered. */
static inline void sync_ranks(void) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    for (int r = 1; r < size; ++r)
      check_p2p(MPI_Recv(NULL, 0, MPI_BYTE, r, HARNESS_TAG_SYNC, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int r = 1; r < size; ++r) check_p2p(MPI_Send(NULL, 0, MPI_BYTE, r, HARNESS_TAG_SYNC, MPI_COMM_WORLD));
  } else {
    check_p2p(MPI_Send(NULL, 0, MPI_BYTE, 0, HARNESS_TAG_SYNC, MPI_COMM_WORLD));
    check_p2p(MPI_Recv(NULL, 0, MPI_BYTE, 0, HARNESS_TAG_SYNC, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  }
}

static inline int compare_doubles(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of v[0..n-1] (sorts v). */
static inline double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof(double), compare_doubles);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Command-line lists, "a,b,c" (tokenised in place). harness_parse_names: the index of each name among
 * names[0..count); returns how many (at most max), or -1 at an unknown name. harness_parse_sizes: byte counts, each
 * a multiple of `unit` in [unit, limit]; returns how many (at most max), or -1 at a bad one; *largest gets the
 * largest (it starts at unit). */
static inline int harness_parse_names(char *list, const char *const *names, int count, int *out, int max) {
  int n = 0;
  for (char *t = strtok(list, ","); t && n < max; t = strtok(NULL, ",")) {
    out[n] = -1;
    for (int k = 0; k < count; ++k)
      if (strcmp(t, names[k]) == 0) out[n] = k;
    if (out[n++] < 0) return -1;
  }
  return n;
}

static inline int harness_parse_sizes(char *list, long unit, long limit, long *out, int max, long *largest) {
  int n = 0;
  *largest = unit;
  for (char *t = strtok(list, ","); t && n < max; t = strtok(NULL, ",")) {
    char *end = NULL;
    const long bytes = strtol(t, &end, 10);
    if (*end || bytes < unit || bytes > limit || bytes % unit) return -1;
    if (bytes > *largest) *largest = bytes;
    out[n++] = bytes;
  }
  return n;
}

#endif
