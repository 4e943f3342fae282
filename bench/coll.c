/* coll: latency of the common collectives (Barrier, Bcast, Reduce, Allreduce, Allgather, Alltoall; Gather, Scatter,
 * Scan and Exscan on request), blocking and nonblocking, in portable MPI C, so the same source runs on Strata, MPICH
 * and Open MPI.
 *
 *   coll [ops [sizes [modes [batches [algorithms]]]]]
 *     ops      comma-separated, default barrier,bcast,reduce,allreduce,allgather,alltoall; also gather, scatter,
 *              scan, exscan
 *     sizes    comma-separated bytes, multiples of 8, default 8,1024,65536,1048576: the message of Bcast, Reduce,
 *              Allreduce, Scan and Exscan (MPI_DOUBLE, MPI_SUM for the reductions), and the block each rank sends
 *              to each peer in Allgather, Alltoall, Gather and Scatter (MPI_BYTE); Barrier has no size and runs once,
 *              as bytes 0
 *     modes    comma-separated, default blocking,nonblocking: MPI_X, or MPI_IX followed by MPI_Wait; also
 *              isolated: MPI_X, each call followed by a sync (one call's latency, see 6.); aligned: MPI_X, every
 *              rank starting each call at the same instant of the host's clock (one call's latency, see 7.)
 *     batches  default 5: timed batches per case
 *     algorithms  comma-separated names to compare in this one run (see 8.), e.g. binomial,pipeline,auto
 * Roots are 0; every call has distinct send and receive buffers (no MPI_IN_PLACE).
 *
 * Per case (op, mode, size):
 *   1. One call is checked: every rank compares what it received with what the senders' patterns say it must be
 *      (a fast but wrong collective must not produce a number; a wrong result aborts with a nonzero exit). Barrier
 *      has no result: the check is that it waits for a rank that enters it 100 ms late. A call that returns an
 *      error (the communicator has MPI_ERRORS_RETURN) on any rank skips the case on every rank, with a '#' line
 *      saying so: a library still being written can be measured on the operations it has.
 *   2. Batches. A batch is: start the clock, N calls back to back, a closing sync, stop the clock; then the max over
 *      ranks of the batch time. Timing N calls back to back alone would measure how fast a rank can inject: a Bcast
 *      root, or a Reduce non-root, hands eager messages to the transport and returns, and its batch ends long before
 *      the receivers have done anything. The closing sync keeps every rank's clock running until the last rank has
 *      finished its N-th call, and the max over ranks takes the rank that waited longest, so a batch ends when all
 *      the data has arrived everywhere. Calls may still overlap (a root starts call i+1 while the leaves finish
 *      call i, as back-to-back collectives in an application do): the figure is the time per call in a stream of
 *      calls, bounded by the slowest rank, not the time of one isolated call.
 *      The sync before a batch is the max over ranks that ended the previous one (or the check's agreement), which
 *      is a barrier too, so a batch's clocks start together.
 *      The closing sync's own cost is subtracted: batches of N = 0 calls measure it before each case (11, or 3 when
 *      they take over 0.1 s), and their median is taken off every batch. It is about a microsecond when ranks have
 *      cores of their own, but milliseconds for MPICH when ranks outnumber cores (it busy-polls, so each message
 *      waits for the scheduler to run its receiver).
 *      Syncs and maxima are MPI_Send/MPI_Recv through rank 0 (gather, then release in rank order), not
 *      collectives: they are the same code on every library, and do not depend on the collectives being measured.
 *   3. Warm-up: 32 calls (fewer if they pass 1 s; first touches of memory, see warm_up_calls), then N doubles from
 *      1 until the calls of a batch (batch less sync) last >= 20 ms and at least as long as the sync, twice in a
 *      row (or N reaches 2^20). Batches of >= 20 ms make the timer and the sync negligible and
 *      hold enough calls that a transport's eager credit (how far a rank may run ahead) does not decide the figure.
 *   4. Timed batches: `batches` of them, except that slow cases (MPICH with more ranks than cores: milliseconds per
 *      call, N = 1 or a few) stop after 0.3 s once they have 3, so that an 8-rank run ends within a minute or two.
 *   5. The figure is the median over batches of (batch - sync) / N, in microseconds. N, the number of batches and
 *      the median come from values every rank has (maxima over ranks), so all ranks make the same calls.
 *   6. Isolated mode times calls that cannot overlap: each call is followed by a sync, so a rank starts call i+1
 *      only once every rank has finished call i. In a stream (2.) a Bcast root may start the next call while its
 *      leaves finish this one, and a chain then moves one message per call through each rank, as a pipeline does:
 *      its figure is the chain's throughput, where one call waits for all its hops. The syncs' cost is taken off:
 *      each timed batch is paired with one of as many syncs without the calls, run right after it, and the figure
 *      is the median over pairs of their difference over N (warm-up: as in 3., the calls and their syncs
 *      together). On an oversubscribed machine a sync costs more than a small call (8 ranks on 2 cores: 100-200
 *      us), so these figures are far noisier than a stream's.
 *   7. Aligned mode times one call from a common start, with no subtraction: the ranks agree on an instant 1 ms
 *      ahead (the max over ranks of their clock plus the margin), sleep until 0.3 ms before it, yield the core until
 *      it, and then make the call; the call's time is the max over ranks of (its end - the instant). The figure is
 *      the median over 201 calls. It needs one clock for all ranks (CLOCK_MONOTONIC: all ranks on one host, which
 *      the mode checks; a simulated cluster runs on one host). A call that a rank reached after the instant is not
 *      counted and the margin doubles. It is the time of one call when every rank enters it at once, cold, as after
 *      a phase of computation: it includes the scheduler's running of every rank when ranks outnumber cores
 *      (8 ranks on 2 cores: about 200 us), which is part of each algorithm's cost there.
 *   8. Comparing algorithms: with `algorithms`, each case runs once per name, each on its own duplicate of
 *      MPI_COMM_WORLD whose info key strata_coll_<op> names the algorithm ("auto": no key, the library's own
 *      choice). Strata's selection reads that key (coll/selection.hpp); other libraries ignore it, so their rows are
 *      the same call several times. Steps 1-3 run per algorithm, then the timed batches (or the aligned calls)
 *      alternate between algorithms, each round starting one further along: every algorithm is timed in the same
 *      minutes of the same launch, so a machine that drifts, or a launch whose ranks the scheduler places badly,
 *      weighs on them alike. Launches of one configuration differ here by 15-20 %, more than the algorithms do.
 * Output: '#' comment lines, then per case "op mode bytes usec" ("op mode bytes usec algorithm" when comparing),
 * each followed by a comment line "# op mode bytes: N calls x B batches, sync X us" (what the figure was made of).
 * A case whose figure is not above zero (the sync varied by more than the calls took: an overloaded machine) prints
 * only the comment line. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "harness.h"

enum { MAX_CASES = 64, MAX_BATCHES = 1000, SYNC_BATCHES = 11, MAX_ALGORITHMS = 16 };

static const double min_batch_seconds = 0.020;
/* Calls made before any is timed. A library's first calls touch memory for the first time, and on this virtual
 * machine each process's first access to a 4 KiB page costs about 6 us: a 1 MiB allreduce on 8 ranks through
 * Strata's node memory takes 34 ms in its first call and 0.4-1.1 ms from the third on (until 2026-12-02, when each
 * of 16 slots had payloads of its own, 4-50 ms in each of its first 64). Without this, a case slow enough to end its
 * doubling at N = 2 would be timed on those first calls alone. */
static const long warm_up_calls = 32;
static const double max_warm_up_seconds = 1.0;
/* Slow cases (MPICH with more ranks than cores) stop after these, once they have 3 batches. */
static const double max_sync_seconds = 0.1, max_case_seconds = 0.3;
static const long max_calls = 1L << 20;
static const long max_bytes_limit = 64L << 20;

typedef enum { BARRIER, BCAST, REDUCE, ALLREDUCE, ALLGATHER, ALLTOALL, GATHER, SCATTER, SCAN, EXSCAN, OP_COUNT } Op;
static const char *const op_names[OP_COUNT] = {"barrier",  "bcast",  "reduce",  "allreduce", "allgather",
                                               "alltoall", "gather", "scatter", "scan",      "exscan"};
typedef enum { BLOCKING, NONBLOCKING, ISOLATED, ALIGNED, MODE_COUNT } Mode;
static const char *const mode_names[MODE_COUNT] = {"blocking", "nonblocking", "isolated", "aligned"};

static int rank, size;
/* The communicator of the calls timed now: MPI_COMM_WORLD, or the duplicate that forces an algorithm (8.). */
static MPI_Comm comm;

/* Aligned mode (7.): how many calls, and how far ahead of the agreement on it the instant of a call lies. */
enum { ALIGNED_CALLS = 201 };
static const double first_margin_seconds = 0.001, max_margin_seconds = 0.1;
/* The ranks sleep until this long before the instant, then yield until it: a wake-up from sleep costs tens of us
 * on a virtual machine's idle core, which would be timed with the call. */
static const double spin_seconds = 0.0003;

/* The buffers of all cases, allocated once for the largest: size blocks of the largest size on each side. */
static char *sendbuf, *recvbuf;

/* One call of the operation; returns its error code (the communicator returns errors). */
static int call(Op op, Mode mode, long bytes) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Request *r = mode == NONBLOCKING ? &req : NULL;
  const int n = (int)bytes, doubles = (int)(bytes / (long)sizeof(double));
  const MPI_Comm w = comm;
  int err = MPI_SUCCESS;
  switch (op) {
  case BARRIER: err = r ? MPI_Ibarrier(w, r) : MPI_Barrier(w); break;
  case BCAST: err = r ? MPI_Ibcast(recvbuf, n, MPI_BYTE, 0, w, r) : MPI_Bcast(recvbuf, n, MPI_BYTE, 0, w); break;
  case REDUCE:
    err = r ? MPI_Ireduce(sendbuf, recvbuf, doubles, MPI_DOUBLE, MPI_SUM, 0, w, r)
            : MPI_Reduce(sendbuf, recvbuf, doubles, MPI_DOUBLE, MPI_SUM, 0, w);
    break;
  case ALLREDUCE:
    err = r ? MPI_Iallreduce(sendbuf, recvbuf, doubles, MPI_DOUBLE, MPI_SUM, w, r)
            : MPI_Allreduce(sendbuf, recvbuf, doubles, MPI_DOUBLE, MPI_SUM, w);
    break;
  case ALLGATHER:
    err = r ? MPI_Iallgather(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, w, r)
            : MPI_Allgather(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, w);
    break;
  case ALLTOALL:
    err = r ? MPI_Ialltoall(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, w, r)
            : MPI_Alltoall(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, w);
    break;
  case GATHER:
    err = r ? MPI_Igather(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, 0, w, r)
            : MPI_Gather(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, 0, w);
    break;
  case SCATTER:
    err = r ? MPI_Iscatter(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, 0, w, r)
            : MPI_Scatter(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, 0, w);
    break;
  case SCAN:
    err = r ? MPI_Iscan(sendbuf, recvbuf, doubles, MPI_DOUBLE, MPI_SUM, w, r)
            : MPI_Scan(sendbuf, recvbuf, doubles, MPI_DOUBLE, MPI_SUM, w);
    break;
  case EXSCAN:
    err = r ? MPI_Iexscan(sendbuf, recvbuf, doubles, MPI_DOUBLE, MPI_SUM, w, r)
            : MPI_Exscan(sendbuf, recvbuf, doubles, MPI_DOUBLE, MPI_SUM, w);
    break;
  default: break;
  }
  if (err == MPI_SUCCESS && r) err = MPI_Wait(r, MPI_STATUS_IGNORE);
  return err;
}

/* The byte at offset j of the block rank `from` sends to rank `to` (Bcast, Allgather, Gather: to = 0). */
static char pattern(int from, int to, long j) { return (char)((from * 97 + to * 59 + j * 131 + 7) & 0xff); }
/* Element i of rank `from`'s reduction input: distinct small integers, whose sums are exact in any order. */
static double element(int from, long i) { return (double)(from + 1) * (double)(i % 251 + 1); }

/* Fills the send side (and the root's Bcast buffer) with the patterns and the receive side with other values. */
static void fill(Op op, long bytes) {
  const long doubles = bytes / (long)sizeof(double);
  memset(recvbuf, 0xa5, (size_t)(bytes * size));
  switch (op) {
  case BCAST:
    if (rank == 0)
      for (long j = 0; j < bytes; ++j) recvbuf[j] = pattern(0, 0, j);
    break;
  case REDUCE:
  case ALLREDUCE:
  case SCAN:
  case EXSCAN:
    for (long i = 0; i < doubles; ++i) ((double *)sendbuf)[i] = element(rank, i);
    break;
  case ALLGATHER:
  case GATHER:
    for (long j = 0; j < bytes; ++j) sendbuf[j] = pattern(rank, 0, j);
    break;
  case SCATTER: /* the root sends a block to each rank, as in Alltoall */
  case ALLTOALL:
    if (op == SCATTER && rank != 0) break;
    for (int to = 0; to < size; ++to)
      for (long j = 0; j < bytes; ++j) sendbuf[to * bytes + j] = pattern(rank, to, j);
    break;
  default: break;
  }
}

/* Whether this rank received what it must have. Prints the first difference. */
static int received_right(Op op, long bytes) {
  const long doubles = bytes / (long)sizeof(double);
  /* The sum of (r + 1) over the ranks r whose input the result holds: all of them, up to this one, or below it. */
  const int last = op == SCAN ? rank : op == EXSCAN ? rank - 1 : size - 1;
  const double ranks_sum = (double)(last + 1) * (last + 2) / 2;
  switch (op) {
  case BCAST:
  case SCATTER:
    for (long j = 0; j < bytes; ++j)
      if (recvbuf[j] != pattern(0, op == SCATTER ? rank : 0, j)) {
        fprintf(stderr, "coll: %s %ld bytes: rank %d byte %ld wrong\n", op_names[op], bytes, rank, j);
        return 0;
      }
    break;
  case REDUCE:
  case ALLREDUCE:
  case SCAN:
  case EXSCAN:
    if ((op == REDUCE && rank != 0) || (op == EXSCAN && rank == 0)) break; /* no result there */
    for (long i = 0; i < doubles; ++i) {
      const double want = ranks_sum * (double)(i % 251 + 1);
      if (((double *)recvbuf)[i] != want) {
        fprintf(stderr, "coll: %s %ld bytes: rank %d element %ld is %g, expected %g\n", op_names[op], bytes, rank, i,
                ((double *)recvbuf)[i], want);
        return 0;
      }
    }
    break;
  case GATHER: /* the root has every rank's block, as in Allgather */
  case ALLGATHER:
  case ALLTOALL:
    if (op == GATHER && rank != 0) break;
    for (int from = 0; from < size; ++from)
      for (long j = 0; j < bytes; ++j)
        if (recvbuf[from * bytes + j] != pattern(from, op == ALLTOALL ? rank : 0, j)) {
          fprintf(stderr, "coll: %s %ld bytes: rank %d byte %ld of the block from rank %d wrong\n", op_names[op],
                  bytes, rank, j, from);
          return 0;
        }
    break;
  default: break;
  }
  return 1;
}

/* Barrier has no result; check instead that it waits: the last rank enters it 100 ms late, and rank 0 must spend
 * at least half of that in it. sync_ranks releases the last rank last, just before rank 0 leaves, so both clocks
 * start within a send of each other. */
static int barrier_waits(Mode mode, int *err) {
  const double delay = 0.1;
  sync_ranks();
  const double start = MPI_Wtime();
  if (rank == size - 1 && size > 1) {
    const struct timespec t = {0, (long)(delay * 1e9)};
    nanosleep(&t, NULL);
  }
  *err = call(BARRIER, mode, 0);
  const double waited = MPI_Wtime() - start;
  if (*err == MPI_SUCCESS && rank == 0 && size > 1 && waited < delay / 2) {
    fprintf(stderr, "coll: barrier returned on rank 0 after %.3f ms while rank %d entered it %.0f ms late\n",
            waited * 1e3, size - 1, delay * 1e3);
    return 0;
  }
  return 1;
}

/* One algorithm of a case (or the library's choice on MPI_COMM_WORLD, when nothing is compared) and what it
 * measured. */
typedef struct {
  const char *algorithm; /* NULL: nothing compared */
  MPI_Comm comm;
  int skipped;           /* its checked call failed: no figure */
  long calls;            /* N of its timed batches */
  double sync;           /* the closing sync's cost, subtracted in stream mode */
  int done;              /* timed batches, or aligned calls, so far */
  double v[MAX_BATCHES], syncs[MAX_BATCHES];
} Variant;

static Variant variants[MAX_ALGORITHMS];

/* The max over ranks of one batch's time: N calls (in isolated mode each followed by a sync; without `calling`,
 * only those syncs), then the closing sync. The opening sync is whatever the caller did last: max_over_ranks (the
 * previous batch's, or the agreement on the check) is a barrier too, so a batch adds only one sync to the calls. */
static double batch_of(Op op, Mode mode, long bytes, long calls, int calling) {
  const double start = MPI_Wtime();
  for (long i = 0; i < calls; ++i) {
    const int err = calling ? call(op, mode, bytes) : MPI_SUCCESS;
    if (err != MPI_SUCCESS) {
      fprintf(stderr, "coll: %s %s %ld bytes: a timed call failed on rank %d\n", op_names[op], mode_names[mode],
              bytes, rank);
      MPI_Abort(MPI_COMM_WORLD, 5);
    }
    if (mode == ISOLATED) sync_ranks();
  }
  sync_ranks();
  return max_over_ranks(MPI_Wtime() - start);
}

static double batch_seconds(Op op, Mode mode, long bytes, long calls) { return batch_of(op, mode, bytes, calls, 1); }

/* One timed batch of x (4.): its time in x->v, and in isolated mode the paired batch of its syncs alone in
 * x->syncs. Returns the seconds both took. */
static double timed_batch(Op op, Mode mode, long bytes, Variant *x) {
  comm = x->comm;
  double spent = x->v[x->done] = batch_seconds(op, mode, bytes, x->calls);
  if (mode == ISOLATED) spent += x->syncs[x->done] = batch_of(op, mode, bytes, x->calls, 0);
  ++x->done;
  return spent;
}

static double clock_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Whether all ranks run on this host, so that CLOCK_MONOTONIC is one clock for all of them: a hash of the host
 * name, whose max and min over ranks must agree. */
static int one_host(void) {
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  unsigned long h = 5381;
  for (const char *c = host; *c; ++c) h = (h * 33 + (unsigned char)*c) & 0xffffffffUL;
  return max_over_ranks((double)h) == -max_over_ranks(-(double)h);
}

/* One aligned call: the ranks agree on an instant `margin` ahead, sleep until it, make the call. Returns the max
 * over ranks of (end of the call - the instant), or a negative value when a rank reached the instant late. */
static double aligned_call(Op op, long bytes, double margin, MPI_Comm on) {
  const double at = max_over_ranks(clock_seconds() + margin);
  const int late = clock_seconds() > at;
  const double wake_at = at - spin_seconds;
  const struct timespec wake = {(time_t)wake_at, (long)((wake_at - (double)(time_t)wake_at) * 1e9)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, NULL) == EINTR) {
  }
  while (clock_seconds() < at) sched_yield();
  comm = on;
  if (call(op, ALIGNED, bytes) != MPI_SUCCESS) {
    fprintf(stderr, "coll: %s aligned %ld bytes: a timed call failed on rank %d\n", op_names[op], bytes, rank);
    MPI_Abort(MPI_COMM_WORLD, 5);
  }
  const double took = max_over_ranks(late ? INFINITY : clock_seconds() - at);
  return isinf(took) ? -1 : took;
}

/* The name a case's output lines end with: " <algorithm>" when comparing, else nothing. */
static const char *label(const Variant *x) {
  static char text[80];
  snprintf(text, sizeof text, "%s%s", x->algorithm ? " " : "", x->algorithm ? x->algorithm : "");
  return text;
}

/* 7. Aligned mode: ALIGNED_CALLS calls of each variant, each started by every rank at the same instant, the
 *    variants taking turns call by call; the median of each one's times. The margin doubles (up to
 *    max_margin_seconds) whenever a rank was late, and that call is not counted. */
static void run_aligned(Op op, long bytes, Variant *var, int count) {
  if (!one_host()) {
    if (rank == 0) printf("# %s aligned %ld: skipped, the ranks are not on one host (no common clock)\n",
                          op_names[op], bytes);
    return;
  }
#ifdef __linux__
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL); /* wake at the instant, not up to 50 us after it */
#endif
  double margin = first_margin_seconds;
  int late = 0;
  for (int turn = 0;; ++turn) {
    int unfinished = 0;
    for (int k = 0; k < count; ++k) unfinished += !var[k].skipped && var[k].done < ALIGNED_CALLS;
    if (unfinished == 0) break;
    for (int k = 0; k < count; ++k) {
      Variant *x = &var[(turn + k) % count];
      if (x->skipped || x->done == ALIGNED_CALLS) continue;
      const double t = aligned_call(op, bytes, margin, x->comm);
      if (t >= 0) {
        x->v[x->done++] = t;
      } else {
        ++late;
        if (margin < max_margin_seconds) margin *= 2;
      }
    }
  }
  for (int k = 0; k < count; ++k) {
    Variant *x = &var[k];
    if (rank != 0 || x->skipped) continue;
    const double per_call = median(x->v, x->done);
    printf("%s aligned %ld %.3f%s\n", op_names[op], bytes, per_call * 1e6, label(x));
    printf("# %s aligned %ld%s: %d calls, quartiles %.1f .. %.1f us; %d late in the case, margin %.1f ms\n",
           op_names[op], bytes, label(x), x->done, x->v[x->done / 4] * 1e6, x->v[3 * x->done / 4] * 1e6, late,
           margin * 1e3);
    fflush(stdout);
  }
}

/* 1. Checks one call of x (for Barrier: that it waits). Errors are agreed on, so that all ranks skip together;
 *    returns whether x goes on. */
static int checked(Op op, Mode mode, long bytes, Variant *x) {
  comm = x->comm;
  int err = MPI_SUCCESS, right = 1;
  if (op == BARRIER) {
    right = barrier_waits(mode, &err);
  } else {
    fill(op, bytes);
    sync_ranks();
    err = call(op, mode, bytes);
    if (err == MPI_SUCCESS) right = received_right(op, bytes);
  }
  if (!right) MPI_Abort(MPI_COMM_WORLD, 4);
  x->skipped = max_over_ranks(err != MPI_SUCCESS) > 0;
  if (x->skipped && rank == 0) {
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (err != MPI_SUCCESS) MPI_Error_string(err, msg, &len);
    printf("# %s %s %ld%s: skipped, the call failed (%s)\n", op_names[op], mode_names[mode], bytes, label(x),
           err != MPI_SUCCESS ? msg : "on another rank");
    fflush(stdout);
  }
  return !x->skipped;
}

/* 2.-3. The closing sync's cost, then the warm-up and the doubling of N, for x. */
static void prepare(Op op, Mode mode, long bytes, Variant *x) {
  comm = x->comm;
  /* 2. The cost of the closing sync, to subtract: batches of 0 calls, at most max_sync_seconds once there are 3. */
  int n = 0;
  for (double spent = 0; n < SYNC_BATCHES && (n < 3 || spent < max_sync_seconds); ++n)
    spent += x->v[n] = batch_seconds(op, mode, bytes, 0);
  x->sync = median(x->v, n);

  /* 3. Warm-up: first warm_up_calls calls (unless they pass max_warm_up_seconds), then double N until the calls of
   *    a batch (the batch less the sync) last min_batch_seconds and at least as long as the sync, twice in a row
   *    (one batch slowed down by a preemption must not stop the doubling). */
  double warm_up = 0;
  for (long made = 0; made < warm_up_calls && warm_up < max_warm_up_seconds; made += 8)
    warm_up += batch_seconds(op, mode, bytes, 8);
  const double min_calls_seconds = x->sync > min_batch_seconds ? x->sync : min_batch_seconds;
  x->calls = 1;
  for (int long_enough = 0; long_enough < 2 && x->calls < max_calls;) {
    if (batch_seconds(op, mode, bytes, x->calls) - x->sync >= min_calls_seconds) {
      ++long_enough;
    } else {
      long_enough = 0;
      x->calls *= 2;
    }
  }
}

/* 4.-5. The timed batches, the variants taking turns batch by batch, then each one's figure. Slow cases stop after
 *    max_case_seconds per variant, once every variant has 3 batches. */
static void run_batches(Op op, Mode mode, long bytes, int batches, Variant *var, int count) {
  double spent = 0;
  for (int b = 0; b < batches && (b < 3 || spent < max_case_seconds * count); ++b)
    for (int k = 0; k < count; ++k) {
      Variant *x = &var[(b + k) % count];
      if (!x->skipped) spent += timed_batch(op, mode, bytes, x);
    }
  for (int k = 0; k < count; ++k) {
    Variant *x = &var[k];
    if (x->skipped) continue;
    for (int b = 0; b < x->done; ++b)
      x->v[b] = (x->v[b] - (mode == ISOLATED ? x->syncs[b] : x->sync)) / (double)x->calls;
    const double per_call = median(x->v, x->done);
    if (rank != 0) continue;
    /* Not above zero: the sync varied by more than the calls took (an overloaded machine); no figure then. */
    if (per_call > 0) printf("%s %s %ld %.3f%s\n", op_names[op], mode_names[mode], bytes, per_call * 1e6, label(x));
    printf("# %s %s %ld%s: %ld calls x %d batches, sync %.1f us%s%s\n", op_names[op], mode_names[mode], bytes,
           label(x), x->calls, x->done,
           (mode == ISOLATED ? median(x->syncs, x->done) / (double)x->calls : x->sync) * 1e6,
           mode == ISOLATED ? " per call (the syncs between calls)" : "",
           per_call > 0 ? "" : "; no figure: the batches, less the sync, are not above 0");
    fflush(stdout);
  }
}

/* 8. The variants of a case: one duplicate of MPI_COMM_WORLD per compared algorithm, whose info key forces it
 *    ("auto": none), or MPI_COMM_WORLD alone. Returns how many. */
static int make_variants(Op op, char **algorithms, int algorithm_count) {
  const int count = algorithm_count > 0 ? algorithm_count : 1;
  for (int k = 0; k < count; ++k) {
    Variant *x = &variants[k];
    x->algorithm = algorithm_count > 0 ? algorithms[k] : NULL;
    x->comm = MPI_COMM_WORLD;
    x->skipped = 0;
    x->done = 0;
    if (!x->algorithm) continue;
    MPI_Info info;
    MPI_Info_create(&info);
    if (strcmp(x->algorithm, "auto") != 0) {
      char key[64];
      snprintf(key, sizeof key, "strata_coll_%s", op_names[op]);
      MPI_Info_set(info, key, x->algorithm);
    }
    if (MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &x->comm) != MPI_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Info_free(&info);
  }
  return count;
}

static void free_variants(int count) {
  for (int k = 0; k < count; ++k)
    if (variants[k].comm != MPI_COMM_WORLD) MPI_Comm_free(&variants[k].comm);
}

static void run_case(Op op, Mode mode, long bytes, int batches, char **algorithms, int algorithm_count) {
  const int count = make_variants(op, algorithms, algorithm_count);
  int going = 0;
  for (int k = 0; k < count; ++k) going += checked(op, mode, bytes, &variants[k]);
  if (going > 0 && mode == ALIGNED) {
    run_aligned(op, bytes, variants, count);
  } else if (going > 0) {
    for (int k = 0; k < count; ++k)
      if (!variants[k].skipped) prepare(op, mode, bytes, &variants[k]);
    run_batches(op, mode, bytes, batches, variants, count);
  }
  free_variants(count);
}

static void usage(const char *why) {
  if (rank == 0)
    fprintf(stderr,
            "coll: %s\nusage: mpiexec -n N coll [ops [sizes [modes [batches [algorithms]]]]]\n"
            "  ops: comma-separated from barrier,bcast,reduce,allreduce,allgather,alltoall,gather,scatter,scan,\n"
            "       exscan\n"
            "  sizes: comma-separated bytes, multiples of 8, 8 .. %ld\n"
            "  modes: comma-separated from blocking,nonblocking,isolated,aligned\n  batches: 1 .. %d\n"
            "  algorithms: comma-separated names forced by the info key strata_coll_<op>, or auto; at most %d\n",
            why, max_bytes_limit, MAX_BATCHES, MAX_ALGORITHMS);
  MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv) {
  harness_init(&argc, &argv, &rank, &size);

  char default_ops[] = "barrier,bcast,reduce,allreduce,allgather,alltoall";
  char default_sizes[] = "8,1024,65536,1048576";
  char default_modes[] = "blocking,nonblocking";
  int ops[MAX_CASES], modes[MAX_CASES];
  long sizes[MAX_CASES], max_bytes = 8;
  const int op_count = harness_parse_names(argc > 1 ? argv[1] : default_ops, op_names, OP_COUNT, ops, MAX_CASES);
  if (op_count < 0) usage("unknown operation");
  const int size_count =
      harness_parse_sizes(argc > 2 ? argv[2] : default_sizes, 8, max_bytes_limit, sizes, MAX_CASES, &max_bytes);
  if (size_count < 0) usage("bad size");
  const int mode_count =
      harness_parse_names(argc > 3 ? argv[3] : default_modes, mode_names, MODE_COUNT, modes, MAX_CASES);
  if (mode_count < 0) usage("unknown mode");
  const int batches = argc > 4 ? atoi(argv[4]) : 5;
  char *algorithms[MAX_ALGORITHMS];
  int algorithm_count = 0;
  for (char *t = argc > 5 ? strtok(argv[5], ",") : NULL; t; t = strtok(NULL, ",")) {
    if (algorithm_count == MAX_ALGORITHMS) usage("too many algorithms");
    algorithms[algorithm_count++] = t;
  }
  if (argc > 6 || batches < 1 || batches > MAX_BATCHES) usage("bad arguments");

  sendbuf = malloc((size_t)(max_bytes * size));
  recvbuf = malloc((size_t)(max_bytes * size));
  if (!sendbuf || !recvbuf) MPI_Abort(MPI_COMM_WORLD, 3);
  memset(sendbuf, 0, (size_t)(max_bytes * size));
  memset(recvbuf, 0, (size_t)(max_bytes * size));

  if (rank == 0) {
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(library, &len);
    library[strcspn(library, "\n")] = '\0';
    printf("# coll: %s\n# ranks %d; per case the median of up to %d batches of >= %g ms (see coll.c)\n", library,
           size, batches, min_batch_seconds * 1e3);
    printf("# op mode bytes usec%s\n", algorithm_count > 0 ? " algorithm" : "");
    fflush(stdout);
  }

  for (int m = 0; m < mode_count; ++m)
    for (int o = 0; o < op_count; ++o)
      for (int s = 0; s < (ops[o] == BARRIER ? 1 : size_count); ++s)
        run_case((Op)ops[o], (Mode)modes[m], ops[o] == BARRIER ? 0 : sizes[s], batches, algorithms,
                 algorithm_count);

  free(sendbuf);
  free(recvbuf);
  MPI_Finalize();
  return 0;
}
