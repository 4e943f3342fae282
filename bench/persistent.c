/* persistent: MPI-4.0 persistent collectives against the nonblocking and blocking calls of the same operations, in
 * portable MPI-4 C, so the same source runs on Strata and MPICH (Open MPI 4.1, MPI 3.1, has no MPI_<X>_init).
 *
 *   persistent [ops [sizes [batches]]]
 *     ops      comma-separated, default bcast,reduce,allreduce,allgather,alltoall
 *     sizes    comma-separated bytes, multiples of 4, default 4,1024: the message of Bcast, Reduce and Allreduce
 *              (MPI_INT, MPI_SUM for the reductions), the block each rank sends to each peer in Allgather and
 *              Alltoall (MPI_BYTE)
 *     batches  default 5: timed batches per case
 * Per operation and size, three modes, one after the other so that a drift of the machine hits them alike:
 *   persistent   MPI_Start + MPI_Wait of one request made by MPI_<X>_init(..., MPI_INFO_NULL, &req) for the case
 *   nonblocking  MPI_I<x> + MPI_Wait
 *   blocking     MPI_<X>
 * Roots are 0; send and receive buffers are distinct.
 *
 * Per case:
 *   1. Check: 3 calls (persistent: 3 starts of the request), the send data rewritten before each with values that
 *      depend on the sender, the call number and the index, and every received value compared with what this
 *      program computes itself. A restart that hands back the previous call's data, or nothing, is caught. All
 *      ranks make all 3 calls (a rank that stopped early would leave the others waiting), then agree: a wrong
 *      result prints "# <mode> <op>: wrong result on start|call K (...)", from the lowest such rank of the earliest
 *      such call, and "op mode bytes FAILED", and the run goes on with the next case (it still exits 0, so that a
 *      script keeps its other figures). A call that returns an error skips the case, as in coll.c.
 *   2. Timing, as coll.c does it (read its header for the reasons): a batch is N calls back to back and a closing
 *      sync, the max over ranks of its time; the sync's own cost (batches of 0 calls) is subtracted; N doubles from
 *      1 until the calls of a batch last >= 20 ms and as long as the sync, twice in a row (the warm-up); then
 *      `batches` batches, fewer (but 3) when ranks outnumber cores and MPICH, which busy-polls, takes milliseconds
 *      per call. The figure is the median over batches of (batch - sync) / N. Syncs and maxima are MPI_Send/MPI_Recv
 *      through rank 0, independent of the collectives measured.
 * Output: '#' comment lines, then per case "op mode bytes usec" (or "op mode bytes FAILED"), each timed case
 * followed by "# op mode bytes: N calls x B batches, sync X us". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#if MPI_VERSION < 4
#error "bench/persistent.c needs MPI 4.0 (MPI_<X>_init, persistent collectives)"
#endif

enum { TAG_WHY = 23, MAX_CASES = 64, MAX_BATCHES = 1000, SYNC_BATCHES = 11 };
enum { CHECK_CALLS = 3, WHY_LENGTH = 200 };

static const double min_batch_seconds = 0.020;
/* Slow cases (MPICH with more ranks than cores) stop after these, once they have 3 batches. */
static const double max_sync_seconds = 0.1, max_case_seconds = 0.3;
static const long max_calls = 1L << 20;
static const long max_bytes_limit = 64L << 20;

typedef enum { BCAST, REDUCE, ALLREDUCE, ALLGATHER, ALLTOALL, OP_COUNT } Op;
static const char *const op_names[OP_COUNT] = {"bcast", "reduce", "allreduce", "allgather", "alltoall"};
typedef enum { PERSISTENT, NONBLOCKING, BLOCKING, MODE_COUNT } Mode;
static const char *const mode_names[MODE_COUNT] = {"persistent", "nonblocking", "blocking"};

static int rank, size;
static char *sendbuf, *recvbuf; /* size blocks of the largest size each, for all cases */

/* Blocking: the call. Nonblocking: MPI_I<x>, which sets *req. Persistent: MPI_<X>_init, which makes *req. */
static int post(Op op, Mode mode, long bytes, MPI_Request *req) {
  const int n = (int)bytes, ints = (int)(bytes / (long)sizeof(int));
  const MPI_Comm w = MPI_COMM_WORLD;
  const MPI_Info i = MPI_INFO_NULL;
  switch (op) {
  case BCAST:
    return mode == BLOCKING      ? MPI_Bcast(recvbuf, n, MPI_BYTE, 0, w)
           : mode == NONBLOCKING ? MPI_Ibcast(recvbuf, n, MPI_BYTE, 0, w, req)
                                 : MPI_Bcast_init(recvbuf, n, MPI_BYTE, 0, w, i, req);
  case REDUCE:
    return mode == BLOCKING      ? MPI_Reduce(sendbuf, recvbuf, ints, MPI_INT, MPI_SUM, 0, w)
           : mode == NONBLOCKING ? MPI_Ireduce(sendbuf, recvbuf, ints, MPI_INT, MPI_SUM, 0, w, req)
                                 : MPI_Reduce_init(sendbuf, recvbuf, ints, MPI_INT, MPI_SUM, 0, w, i, req);
  case ALLREDUCE:
    return mode == BLOCKING      ? MPI_Allreduce(sendbuf, recvbuf, ints, MPI_INT, MPI_SUM, w)
           : mode == NONBLOCKING ? MPI_Iallreduce(sendbuf, recvbuf, ints, MPI_INT, MPI_SUM, w, req)
                                 : MPI_Allreduce_init(sendbuf, recvbuf, ints, MPI_INT, MPI_SUM, w, i, req);
  case ALLGATHER:
    return mode == BLOCKING      ? MPI_Allgather(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, w)
           : mode == NONBLOCKING ? MPI_Iallgather(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, w, req)
                                 : MPI_Allgather_init(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, w, i, req);
  case ALLTOALL:
    return mode == BLOCKING      ? MPI_Alltoall(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, w)
           : mode == NONBLOCKING ? MPI_Ialltoall(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, w, req)
                                 : MPI_Alltoall_init(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, w, i, req);
  default: return MPI_ERR_OTHER;
  }
}

/* One complete call; `persistent` is the case's request in persistent mode. Returns the error code. */
static int call(Op op, Mode mode, long bytes, MPI_Request *persistent) {
  MPI_Request req = MPI_REQUEST_NULL;
  int err = MPI_SUCCESS;
  switch (mode) {
  case PERSISTENT:
    err = MPI_Start(persistent);
    return err != MPI_SUCCESS ? err : MPI_Wait(persistent, MPI_STATUS_IGNORE);
  case NONBLOCKING:
    err = post(op, mode, bytes, &req);
    return err != MPI_SUCCESS ? err : MPI_Wait(&req, MPI_STATUS_IGNORE);
  default: return post(op, mode, bytes, NULL);
  }
}

/* Byte j of the block rank `from` sends to rank `to` in call `k` (Bcast, Allgather: to = 0); consecutive calls and
 * consecutive bytes differ. */
static char pattern(int from, int to, int k, long j) {
  return (char)((from * 97 + to * 59 + k * 31 + j * 131 + 7) & 0xff);
}
/* Element i of rank `from`'s reduction input in call k: small integers, so the sums are exact. */
static int element(int from, int k, long i) { return (from + 1) * (int)(i % 251 + 1) + 1000 * k; }

/* Writes call k's send data (and the root's Bcast buffer), and other values where the results will be. */
static void fill(Op op, int k, long bytes) {
  const long ints = bytes / (long)sizeof(int);
  memset(recvbuf, 0xa5, (size_t)(bytes * size));
  for (long j = 0; j < bytes; ++j) {
    if (op == BCAST && rank == 0) recvbuf[j] = pattern(0, 0, k, j);
    if (op == ALLGATHER) sendbuf[j] = pattern(rank, 0, k, j);
    if (op == ALLTOALL)
      for (int to = 0; to < size; ++to) sendbuf[to * bytes + j] = pattern(rank, to, k, j);
  }
  if (op == REDUCE || op == ALLREDUCE)
    for (long i = 0; i < ints; ++i) ((int *)sendbuf)[i] = element(rank, k, i);
}

/* Whether this rank holds call k's results; if not, says where in `why`. */
static int received_right(Op op, int k, long bytes, char *why) {
  if (op == REDUCE && rank != 0) return 1;
  if (op == REDUCE || op == ALLREDUCE) {
    for (long i = 0; i < bytes / (long)sizeof(int); ++i) {
      int want = 0;
      for (int from = 0; from < size; ++from) want += element(from, k, i);
      if (((int *)recvbuf)[i] != want) {
        snprintf(why, WHY_LENGTH, "%ld bytes: rank %d element %ld is %d, expected %d", bytes, rank, i,
                 ((int *)recvbuf)[i], want);
        return 0;
      }
    }
    return 1;
  }
  const int blocks = op == BCAST ? 1 : size;
  for (int from = 0; from < blocks; ++from)
    for (long j = 0; j < bytes; ++j) {
      const char want = pattern(from, op == ALLTOALL ? rank : 0, k, j), got = recvbuf[from * bytes + j];
      if (got != want) {
        snprintf(why, WHY_LENGTH, "%ld bytes: rank %d byte %ld of the block from rank %d is 0x%02x, expected 0x%02x",
                 bytes, rank, j, from, (unsigned char)got, (unsigned char)want);
        return 0;
      }
    }
  return 1;
}

/* Step 1 of the header: CHECK_CALLS calls with new data each; returns 1 if the case may be timed. */
static int checked(Op op, Mode mode, long bytes, MPI_Request *persistent) {
  char why[WHY_LENGTH] = "";
  int err = MPI_SUCCESS, wrong = 0; /* the first wrong call, from 1 */
  for (int k = 1; k <= CHECK_CALLS && err == MPI_SUCCESS; ++k) {
    fill(op, k, bytes);
    err = call(op, mode, bytes, persistent);
    if (err == MPI_SUCCESS && !wrong && !received_right(op, k, bytes, why)) wrong = k;
  }
  if (max_over_ranks(err != MPI_SUCCESS) > 0) {
    if (rank == 0) {
      char msg[MPI_MAX_ERROR_STRING] = "on another rank";
      int len = 0;
      if (err != MPI_SUCCESS) MPI_Error_string(err, msg, &len);
      printf("# %s %s %ld: skipped, the call failed (%s)\n", op_names[op], mode_names[mode], bytes, msg);
    }
    return 0;
  }
  /* The earliest wrong call, and of the ranks that saw it the lowest: the min over ranks of call * size + rank. */
  const double none = (double)(CHECK_CALLS + 1) * size;
  const int first = (int)-max_over_ranks(-(wrong ? (double)wrong * size + rank : none));
  if (first == (int)none) return 1;
  if (rank == first % size && rank != 0) check_p2p(MPI_Send(why, WHY_LENGTH, MPI_CHAR, 0, TAG_WHY, MPI_COMM_WORLD));
  if (rank == 0) {
    if (first % size != 0)
      check_p2p(MPI_Recv(why, WHY_LENGTH, MPI_CHAR, first % size, TAG_WHY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    printf("# %s %s: wrong result on %s %d (%s)\n%s %s %ld FAILED\n", mode_names[mode], op_names[op],
           mode == PERSISTENT ? "start" : "call", first / size, why, op_names[op], mode_names[mode], bytes);
  }
  return 0;
}

/* The max over ranks of one batch: N calls, then the closing sync (the opening one is the caller's last max). */
static double batch_seconds(Op op, Mode mode, long bytes, MPI_Request *persistent, long calls) {
  const double start = MPI_Wtime();
  for (long i = 0; i < calls; ++i)
    if (call(op, mode, bytes, persistent) != MPI_SUCCESS) {
      fprintf(stderr, "persistent: %s %s %ld: a timed call failed on rank %d\n", op_names[op], mode_names[mode],
              bytes, rank);
      MPI_Abort(MPI_COMM_WORLD, 5);
    }
  sync_ranks();
  return max_over_ranks(MPI_Wtime() - start);
}

/* Up to `want` batches into v, fewer once they have taken `budget` seconds, but at least 3. Returns how many. */
static int batches_within(Op op, Mode mode, long bytes, MPI_Request *persistent, long calls, int want,
                          double budget, double *v) {
  double spent = 0;
  int done = 0;
  while (done < want && (done < 3 || spent < budget)) {
    v[done] = batch_seconds(op, mode, bytes, persistent, calls);
    spent += v[done++];
  }
  return done;
}

static void run_case(Op op, Mode mode, long bytes, int batches, double *v) {
  MPI_Request persistent = MPI_REQUEST_NULL;
  if (mode == PERSISTENT && max_over_ranks(post(op, mode, bytes, &persistent) != MPI_SUCCESS) > 0) {
    if (rank == 0) printf("# %s %s %ld: skipped, MPI_<X>_init failed\n", op_names[op], mode_names[mode], bytes);
  } else if (checked(op, mode, bytes, &persistent)) {
    const double sync = median(v, batches_within(op, mode, bytes, &persistent, 0, SYNC_BATCHES, max_sync_seconds, v));
    const double min_calls_seconds = sync > min_batch_seconds ? sync : min_batch_seconds;
    long calls = 1;
    for (int long_enough = 0; long_enough < 2 && calls < max_calls;) {
      if (batch_seconds(op, mode, bytes, &persistent, calls) - sync >= min_calls_seconds) {
        ++long_enough;
      } else {
        long_enough = 0;
        calls *= 2;
      }
    }
    const int done = batches_within(op, mode, bytes, &persistent, calls, batches, max_case_seconds, v);
    for (int b = 0; b < done; ++b) v[b] = (v[b] - sync) / (double)calls;
    const double per_call = median(v, done);
    if (rank == 0) {
      /* Not above zero: the sync varied by more than the calls took (an overloaded machine); no figure then. */
      if (per_call > 0) printf("%s %s %ld %.3f\n", op_names[op], mode_names[mode], bytes, per_call * 1e6);
      printf("# %s %s %ld: %ld calls x %d batches, sync %.1f us%s\n", op_names[op], mode_names[mode], bytes, calls,
             done, sync * 1e6, per_call > 0 ? "" : "; no figure: the batches, less the sync, are not above 0");
    }
  }
  if (persistent != MPI_REQUEST_NULL) MPI_Request_free(&persistent);
  if (rank == 0) fflush(stdout);
}

static void usage(const char *why) {
  if (rank == 0)
    fprintf(stderr,
            "persistent: %s\nusage: mpiexec -n N persistent [ops [sizes [batches]]]\n"
            "  ops: comma-separated from bcast,reduce,allreduce,allgather,alltoall\n"
            "  sizes: comma-separated bytes, multiples of 4, 4 .. %ld\n  batches: 1 .. %d\n",
            why, max_bytes_limit, MAX_BATCHES);
  MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv) {
  harness_init(&argc, &argv, &rank, &size);

  char default_ops[] = "bcast,reduce,allreduce,allgather,alltoall", default_sizes[] = "4,1024";
  int ops[MAX_CASES];
  const int op_count = harness_parse_names(argc > 1 ? argv[1] : default_ops, op_names, OP_COUNT, ops, MAX_CASES);
  if (op_count < 0) usage("unknown operation");
  long sizes[MAX_CASES], max_bytes = 4;
  const int size_count =
      harness_parse_sizes(argc > 2 ? argv[2] : default_sizes, 4, max_bytes_limit, sizes, MAX_CASES, &max_bytes);
  if (size_count < 0) usage("bad size");
  const int batches = argc > 3 ? atoi(argv[3]) : 5;
  if (argc > 4 || batches < 1 || batches > MAX_BATCHES) usage("bad arguments");

  sendbuf = calloc((size_t)size, (size_t)max_bytes);
  recvbuf = calloc((size_t)size, (size_t)max_bytes);
  double *v = malloc(sizeof(double) * MAX_BATCHES);
  if (!sendbuf || !recvbuf || !v) MPI_Abort(MPI_COMM_WORLD, 3);

  if (rank == 0) {
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(library, &len);
    library[strcspn(library, "\n")] = '\0';
    printf("# persistent: %s\n# ranks %d; per case the median of up to %d batches of >= %g ms (see persistent.c)\n"
           "# op mode bytes usec\n", library, size, batches, min_batch_seconds * 1e3);
    fflush(stdout);
  }
  for (int o = 0; o < op_count; ++o)
    for (int s = 0; s < size_count; ++s)
      for (int m = 0; m < MODE_COUNT; ++m) run_case(ops[o], (Mode)m, sizes[s], batches, v);

  free(sendbuf);
  free(recvbuf);
  free(v);
  MPI_Finalize();
  return 0;
}
