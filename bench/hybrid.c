/* hybrid: the hybrid MPI+MPI collectives (issue 11; Zhou et al. 2020, section 5.2) against MPI_Allgather, MPI_Bcast
 * and MPI_Allreduce, in portable MPI C: every library runs the standard variant, and a library whose mpi.h defines
 * MPIX_HYBRID_NULL (Strata) the hybrid one too.
 *
 *   hybrid [ops [sizes [batches]]]
 *     ops      comma-separated, default allgather,bcast,allreduce
 *     sizes    comma-separated bytes, multiples of 8, default 8,1024,65536,1048576,4194304: the block each rank
 *              contributes to Allgather and the message of Bcast (MPI_BYTE), the message of Allreduce (MPI_DOUBLE,
 *              MPI_SUM)
 *     batches  default 5: timed batches per case
 * Variants, one after the other per operation and size (so that a drift of the machine hits them alike):
 *   standard  MPI_X on MPI_COMM_WORLD, root 0, distinct send and receive buffers in every process, as in coll.c.
 *   hybrid    MPIX_Hybrid_X with one MPIX_Hybrid of MPI_COMM_WORLD, the result in the node buffer of
 *             MPIX_Hybrid_alloc (one per node, made once for the largest case): allgather with MPI_IN_PLACE (each
 *             rank's block stored at its place in the node buffer), bcast from root 0 (which stores the message in
 *             its node's buffer), allreduce from each process's own send buffer.
 *
 * Per case, coll.c's method (its header gives the reasons):
 *   1. One call is checked: every rank compares the result (the hybrid one read from its node buffer) with what the
 *      senders' patterns say it must be; a wrong result aborts with a nonzero exit. A call that returns an error on
 *      any rank skips the case with a '#' line.
 *   2. A batch is N calls back to back and a closing sync, the max over ranks of its time; the sync's own cost
 *      (batches of 0 calls) is subtracted; N doubles from 1 until the calls of a batch last >= 20 ms and as long as
 *      the sync, twice in a row; then `batches` batches (3 once a slow case has taken 0.3 s). The figure is the
 *      median over batches of (batch - sync) / N. Syncs and maxima are MPI_Send/MPI_Recv through rank 0 (harness.h).
 * Back-to-back hybrid calls obey the paper's rule: a process may write into the node buffer for the next call only
 * once every process of its node has read the earlier result. In a batch no process writes the node buffer and
 * none reads it: the allgather blocks and the bcast root's message stay in place from the check (a call rewrites
 * neither: the allgather fills in the other nodes' blocks, the bcast the other nodes' buffers, with the same data),
 * and what the calls themselves write (a leader receiving, the allreduce's result) has no reader. Between cases,
 * the syncs after the check order every read before the next case's writes.
 *
 * Footprint: the bytes per node that a case's buffers hold, for the node with the most processes (m of them):
 *   standard  m x (result + send buffer): allgather m x (p x bytes + bytes), bcast m x bytes, allreduce m x 2 bytes
 *   hybrid    1 x result, plus each process's input for allreduce: allgather p x bytes (in place), bcast bytes,
 *             allreduce bytes + m x bytes
 * (the hybrid object's flag, a few bytes per node, and the node buffer's slack beyond the case are not counted).
 * Output: '#' comment lines, then per case "op variant bytes usec" with "# op variant bytes: N calls x B batches,
 * sync X us" and "# footprint op variant bytes node_bytes". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

enum { MAX_CASES = 64, MAX_BATCHES = 1000, SYNC_BATCHES = 11 };

static const double min_batch_seconds = 0.020;
static const double max_sync_seconds = 0.1, max_case_seconds = 0.3;
static const long max_calls = 1L << 20;
static const long max_bytes_limit = 64L << 20;

typedef enum { ALLGATHER, BCAST, ALLREDUCE, OP_COUNT } Op;
typedef enum { STANDARD, HYBRID, VARIANT_COUNT } Variant;
static const char *const op_names[OP_COUNT] = {"allgather", "bcast", "allreduce"};
static const char *const variant_names[VARIANT_COUNT] = {"standard", "hybrid"};

static int rank, size;
static int node_rank, most_on_a_node; /* this rank's place on its node; the most processes any node has */
/* This process's buffers, for the largest case: a block to send, size blocks to receive. */
static char *sendbuf, *recvbuf;
/* Hybrid: the node buffer (size blocks of the largest case, one per node), NULL when there is none. */
static char *node_buf;
#ifdef MPIX_HYBRID_NULL
static MPIX_Hybrid hybrid = MPIX_HYBRID_NULL;
static MPI_Win node_win = MPI_WIN_NULL;
#endif

/* One call; returns its error code (the communicator returns errors). */
static int call(Op op, Variant variant, long bytes) {
  const int n = (int)bytes, doubles = (int)(bytes / (long)sizeof(double));
  const MPI_Comm w = MPI_COMM_WORLD;
  if (variant == STANDARD) switch (op) {
    case ALLGATHER: return MPI_Allgather(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, w);
    case BCAST: return MPI_Bcast(recvbuf, n, MPI_BYTE, 0, w);
    case ALLREDUCE: return MPI_Allreduce(sendbuf, recvbuf, doubles, MPI_DOUBLE, MPI_SUM, w);
    default: break;
    }
#ifdef MPIX_HYBRID_NULL
  if (variant == HYBRID) switch (op) {
    case ALLGATHER: return MPIX_Hybrid_allgather(MPI_IN_PLACE, n, MPI_BYTE, node_buf, hybrid);
    case BCAST: return MPIX_Hybrid_bcast(node_buf, n, MPI_BYTE, 0, hybrid);
    case ALLREDUCE: return MPIX_Hybrid_allreduce(sendbuf, node_buf, doubles, MPI_DOUBLE, MPI_SUM, hybrid);
    default: break;
    }
#endif
  return MPI_ERR_OTHER;
}

/* Where a variant's result lands. */
static char *result(Variant variant) { return variant == HYBRID ? node_buf : recvbuf; }

/* A barrier that also orders this node's loads and stores of the node buffer (MPI_Win_sync on both sides). */
static void node_barrier(Variant variant) {
#ifdef MPIX_HYBRID_NULL
  if (variant == HYBRID) MPI_Win_sync(node_win);
#endif
  sync_ranks();
#ifdef MPIX_HYBRID_NULL
  if (variant == HYBRID) MPI_Win_sync(node_win);
#endif
  (void)variant;
}

/* Byte j of rank `from`'s block (Allgather; Bcast: from = 0), and element i of rank `from`'s Allreduce input:
 * distinct small integers, whose sums are exact in any order. */
static char pattern(int from, long j) { return (char)((from * 97 + j * 131 + 7) & 0xff); }
static double element(int from, long i) { return (double)(from + 1) * (double)(i % 251 + 1); }

/* The result side gets other values (one process per node for the node buffer), then the inputs their patterns. */
static void fill(Op op, Variant variant, long bytes) {
  char *out = result(variant);
  if (variant == STANDARD || node_rank == 0) memset(out, 0xa5, (size_t)(op == ALLGATHER ? bytes * size : bytes));
  node_barrier(variant); /* the hybrid blocks below are stored after the node's memset */
  switch (op) {
  case ALLGATHER: {
    char *mine = variant == HYBRID ? node_buf + rank * bytes : sendbuf;
    for (long j = 0; j < bytes; ++j) mine[j] = pattern(rank, j);
    break;
  }
  case BCAST:
    if (rank == 0)
      for (long j = 0; j < bytes; ++j) out[j] = pattern(0, j);
    break;
  case ALLREDUCE:
    for (long i = 0; i < bytes / (long)sizeof(double); ++i) ((double *)sendbuf)[i] = element(rank, i);
    break;
  default: break;
  }
  node_barrier(variant);
}

/* Whether this rank sees the right result. Prints the first difference. */
static int received_right(Op op, Variant variant, long bytes) {
  const char *out = result(variant);
  if (op == ALLREDUCE) {
    const double ranks_sum = (double)size * (size + 1) / 2; /* sum over ranks of (rank + 1) */
    for (long i = 0; i < bytes / (long)sizeof(double); ++i) {
      const double got = ((const double *)out)[i], want = ranks_sum * (double)(i % 251 + 1);
      if (got != want) {
        fprintf(stderr, "hybrid: allreduce %s %ld bytes: rank %d element %ld is %g, expected %g\n",
                variant_names[variant], bytes, rank, i, got, want);
        return 0;
      }
    }
    return 1;
  }
  for (long j = 0; j < (op == ALLGATHER ? bytes * size : bytes); ++j)
    if (out[j] != pattern(op == ALLGATHER ? (int)(j / bytes) : 0, j % bytes)) {
      fprintf(stderr, "hybrid: %s %s %ld bytes: rank %d byte %ld of the result wrong\n", op_names[op],
              variant_names[variant], bytes, rank, j);
      return 0;
    }
  return 1;
}

/* The bytes per node the case's buffers hold (header). */
static double node_bytes(Op op, Variant variant, long bytes) {
  const double m = most_on_a_node, result_bytes = op == ALLGATHER ? (double)bytes * size : (double)bytes;
  const double input = op == BCAST ? 0 : (double)bytes;
  if (variant == STANDARD) return m * (result_bytes + input);
  return result_bytes + (op == ALLREDUCE ? m * input : 0);
}

/* The max over ranks of one batch: N calls, then the closing sync (the opening one is the caller's last max). */
static double batch_seconds(Op op, Variant variant, long bytes, long calls) {
  const double start = MPI_Wtime();
  for (long i = 0; i < calls; ++i)
    if (call(op, variant, bytes) != MPI_SUCCESS) {
      fprintf(stderr, "hybrid: %s %s %ld: a timed call failed on rank %d\n", op_names[op], variant_names[variant],
              bytes, rank);
      MPI_Abort(MPI_COMM_WORLD, 5);
    }
  sync_ranks();
  return max_over_ranks(MPI_Wtime() - start);
}

/* Up to `want` batches into v, fewer once they have taken `budget` seconds, but at least 3. Returns how many. */
static int batches_within(Op op, Variant variant, long bytes, long calls, int want, double budget, double *v) {
  double spent = 0;
  int done = 0;
  while (done < want && (done < 3 || spent < budget)) {
    v[done] = batch_seconds(op, variant, bytes, calls);
    spent += v[done++];
  }
  return done;
}

static void run_case(Op op, Variant variant, long bytes, int batches, double *v) {
  const char *o = op_names[op], *var = variant_names[variant];
  /* 1. Check one call. Errors are agreed on, so that all ranks skip together. */
  fill(op, variant, bytes);
  int err = call(op, variant, bytes);
  if (err == MPI_SUCCESS && !received_right(op, variant, bytes)) MPI_Abort(MPI_COMM_WORLD, 4);
  if (max_over_ranks(err != MPI_SUCCESS) > 0) {
    if (rank == 0) {
      char msg[MPI_MAX_ERROR_STRING] = "on another rank";
      int len = 0;
      if (err != MPI_SUCCESS) MPI_Error_string(err, msg, &len);
      printf("# %s %s %ld: skipped, the call failed (%s)\n", o, var, bytes, msg);
      fflush(stdout);
    }
    return;
  }
  /* 2. The closing sync's cost, the warm-up, the timed batches. */
  const double sync = median(v, batches_within(op, variant, bytes, 0, SYNC_BATCHES, max_sync_seconds, v));
  const double min_calls_seconds = sync > min_batch_seconds ? sync : min_batch_seconds;
  long calls = 1;
  for (int long_enough = 0; long_enough < 2 && calls < max_calls;) {
    if (batch_seconds(op, variant, bytes, calls) - sync >= min_calls_seconds) {
      ++long_enough;
    } else {
      long_enough = 0;
      calls *= 2;
    }
  }
  const int done = batches_within(op, variant, bytes, calls, batches, max_case_seconds, v);
  for (int b = 0; b < done; ++b) v[b] = (v[b] - sync) / (double)calls;
  const double per_call = median(v, done);
  if (rank == 0) {
    /* Not above zero: the sync varied by more than the calls took (an overloaded machine); no figure then. */
    if (per_call > 0) printf("%s %s %ld %.3f\n", o, var, bytes, per_call * 1e6);
    printf("# %s %s %ld: %ld calls x %d batches, sync %.1f us%s\n", o, var, bytes, calls, done, sync * 1e6,
           per_call > 0 ? "" : "; no figure: the batches, less the sync, are not above 0");
    printf("# footprint %s %s %ld %.0f\n", o, var, bytes, node_bytes(op, variant, bytes));
    fflush(stdout);
  }
}

/* The hybrid object and the node buffer, when the library has them; 1 if the hybrid variant can run. */
static int hybrid_setup(long max_bytes) {
#ifdef MPIX_HYBRID_NULL
  int err = MPIX_Hybrid_create(MPI_COMM_WORLD, &hybrid);
  if (err == MPI_SUCCESS) err = MPIX_Hybrid_alloc(hybrid, (MPI_Aint)(max_bytes * size), &node_buf, &node_win);
  /* A passive-target epoch for MPI_Win_sync (node_barrier); nothing is locked (MPI_MODE_NOCHECK). */
  if (err == MPI_SUCCESS) err = MPI_Win_lock_all(MPI_MODE_NOCHECK, node_win);
  if (max_over_ranks(err != MPI_SUCCESS) == 0) return 1;
  if (rank == 0) {
    char msg[MPI_MAX_ERROR_STRING] = "on another rank";
    int len = 0;
    if (err != MPI_SUCCESS) MPI_Error_string(err, msg, &len);
    printf("# hybrid variant not measured: MPIX_Hybrid_create, _alloc or MPI_Win_lock_all failed (%s)\n", msg);
  }
#else
  (void)max_bytes;
  if (rank == 0) printf("# hybrid variant not measured: this library has no MPIX_Hybrid collectives\n");
#endif
  return 0;
}

static void hybrid_teardown(void) {
#ifdef MPIX_HYBRID_NULL
  if (node_win != MPI_WIN_NULL) {
    MPI_Win_unlock_all(node_win);
    MPI_Win_free(&node_win);
  }
  if (hybrid != MPIX_HYBRID_NULL) MPIX_Hybrid_free(&hybrid);
#endif
}

static void usage(const char *why) {
  if (rank == 0)
    fprintf(stderr,
            "hybrid: %s\nusage: mpiexec -n N hybrid [ops [sizes [batches]]]\n"
            "  ops: comma-separated from allgather,bcast,allreduce\n"
            "  sizes: comma-separated bytes, multiples of 8, 8 .. %ld\n  batches: 1 .. %d\n",
            why, max_bytes_limit, MAX_BATCHES);
  MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv) {
  harness_init(&argc, &argv, &rank, &size);

  char default_ops[] = "allgather,bcast,allreduce", default_sizes[] = "8,1024,65536,1048576,4194304";
  int ops[MAX_CASES];
  const int op_count = harness_parse_names(argc > 1 ? argv[1] : default_ops, op_names, OP_COUNT, ops, MAX_CASES);
  if (op_count < 0) usage("unknown operation");
  long sizes[MAX_CASES], max_bytes = 8;
  const int size_count =
      harness_parse_sizes(argc > 2 ? argv[2] : default_sizes, 8, max_bytes_limit, sizes, MAX_CASES, &max_bytes);
  if (size_count < 0) usage("bad size");
  const int batches = argc > 3 ? atoi(argv[3]) : 5;
  if (argc > 4 || batches < 1 || batches > MAX_BATCHES) usage("bad arguments");

  MPI_Comm node = MPI_COMM_NULL;
  int node_size = 1;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS) {
    if (rank == 0) fprintf(stderr, "hybrid: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) failed\n");
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_size);
  MPI_Comm_free(&node);
  most_on_a_node = (int)max_over_ranks(node_size);

  sendbuf = calloc(1, (size_t)max_bytes);
  recvbuf = calloc((size_t)size, (size_t)max_bytes);
  double *v = malloc(sizeof(double) * MAX_BATCHES);
  if (!sendbuf || !recvbuf || !v) MPI_Abort(MPI_COMM_WORLD, 3);

  if (rank == 0) {
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(library, &len);
    library[strcspn(library, "\n")] = '\0';
    printf("# hybrid: %s\n# ranks %d, at most %d per node; per case the median of up to %d batches of >= %g ms "
           "(see hybrid.c)\n# op variant bytes usec\n# footprint op variant bytes node_bytes\n",
           library, size, most_on_a_node, batches, min_batch_seconds * 1e3);
  }
  const int variants = hybrid_setup(max_bytes) ? VARIANT_COUNT : 1;
  if (rank == 0) fflush(stdout);

  for (int o = 0; o < op_count; ++o)
    for (int s = 0; s < size_count; ++s)
      for (int k = 0; k < variants; ++k) run_case(ops[o], (Variant)k, sizes[s], batches, v);

  hybrid_teardown();
  free(sendbuf);
  free(recvbuf);
  free(v);
  MPI_Finalize();
  return 0;
}
