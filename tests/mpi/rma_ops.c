/* One-sided communication (MPI-4.0 chapter 12) on every window flavor with every synchronisation mode.
 *
 * Flavors: MPI_Win_create on malloc'd memory, MPI_Win_allocate, MPI_Win_create_dynamic with one attached buffer
 * (disp_unit 1, target_disp the absolute address, exchanged with MPI_Allgather of MPI_Get_address), and
 * MPI_Win_allocate_shared when MPI_COMM_TYPE_SHARED spans MPI_COMM_WORLD. Synchronisation: fence (MPI_MODE_NOPRECEDE
 * first, MPI_MODE_NOSUCCEED last); MPI_Win_lock/unlock per target, shared and exclusive; MPI_Win_lock_all with
 * MPI_Win_flush, MPI_Win_flush_local and MPI_Win_flush_all; post/start/complete with MPI_Win_wait and with
 * MPI_Win_test polling (groups: the ring neighbours, or everyone when every rank accesses every rank).
 *
 * Each (flavor, synchronisation) pair runs the same phases, each in its own epoch(s):
 *   - MPI_Put to and MPI_Get from the right neighbour of 0, 1, 7, 8000 (32 KB: eager, but long) and 100000 ints (past
 *     any rendezvous threshold) at non-zero displacements, and an MPI_Put to MPI_PROC_NULL (no effect);
 *   - to the right neighbour: derived datatypes (a contiguous origin into a vector target of stride 2, an indexed
 *     origin into a contiguous target, an MPI_Get from a vector target into an indexed origin); and old values
 *     fetched by MPI_Get_accumulate (MPI_SUM), MPI_Fetch_and_op (MPI_REPLACE), MPI_Compare_and_swap failing and
 *     succeeding;
 *   - from every rank to every rank: MPI_Accumulate with MPI_SUM, MPI_MAX and MPI_REPLACE, MPI_Get_accumulate with
 *     MPI_NO_OP (reads the untouched values); a shared counter (every rank adds 1 to rank 0 N_INC times with
 *     MPI_Fetch_and_op: the fetched values of all ranks, gathered, are a permutation of 0..size*N_INC-1 and
 *     increase on each rank, as accumulates of one origin to one location are ordered by default, MPI-4.0 12.7.1);
 *     MPI_Compare_and_swap electing exactly one winner per round, which every loser sees.
 * After each phase the whole window is compared with its expected contents (nothing may be written outside the
 * target locations), and the origin's result buffers, poisoned beforehand, with theirs (nothing written past the
 * end). Every expected value is a pure function of ranks and indices. Per flavor, the window attributes
 * (MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL) and MPI_Win_get_group are
 * checked too. Local loads and stores of window memory follow the rules of the separate memory model (MPI-4.0
 * 12.7): under MPI_Win_lock on oneself, after MPI_Win_sync, or after the fence or MPI_Win_wait that completed the
 * epoch; so the test holds whichever model MPI_WIN_MODEL reports. Any number of ranks; with one, the rank accesses
 * itself.
 *
 * A plain MPI program: passes with MPICH 4.0.2, where PSCW epochs move at most 120 KB per call (see op_count), and
 * with Open MPI 4.1 (one rank needs --mca osc sm,rdma,pt2pt there: Debian's configuration leaves no component that
 * takes a one-process window of the other flavors). */
#include "test_util.h"

enum { FLAVOR_CREATE, FLAVOR_ALLOCATE, FLAVOR_DYNAMIC, FLAVOR_SHARED, FLAVORS };
static const char *flavor_name[FLAVORS] = {"MPI_Win_create", "MPI_Win_allocate", "MPI_Win_create_dynamic",
                                           "MPI_Win_allocate_shared"};
enum { SYNC_FENCE, SYNC_LOCK_SHARED, SYNC_LOCK_EXCLUSIVE, SYNC_LOCK_ALL, SYNC_PSCW_WAIT, SYNC_PSCW_TEST, SYNCS };
static const char *sync_name[SYNCS] = {"fence",    "lock shared",         "lock exclusive",
                                       "lock_all", "PSCW + MPI_Win_wait", "PSCW + MPI_Win_test"};

/* The window: WIN_INTS ints. Each phase initialises all of it and uses its own locations (ints). */
enum {
  MEDIUM = 8000,                 /* 32 KB */
  LARGE = 100000,                /* the large count, 400 KB */
  PUT_OFF = 3,                   /* puts of up to LARGE ints */
  GET_OFF = PUT_OFF + LARGE + 5, /* gets of up to LARGE ints */
  /* A few guard ints after each region, and a multiple of 16 bytes: MPICH 4.0.2's MPI_Win_allocate otherwise
   * reports an MPI_WIN_BASE 4 to 12 bytes below the memory it returned, at ranks above 0. */
  WIN_INTS = (GET_OFF + LARGE + 5 + 3) / 4 * 4
};
enum {
  VEC_OFF = 5,       /* 7 ints put through a vector type, stride 2 */
  IDX_OFF = 25,      /* 7 ints put from an indexed origin */
  GETV_OFF = 40,     /* 7 ints read through a vector type into an indexed origin */
  ACC_N = 7,         /* ints per accumulate */
  SUM_OFF = 60,      /* MPI_SUM from every rank */
  MAX_OFF = 70,      /* MPI_MAX from every rank */
  NOOP_OFF = 80,     /* read with MPI_NO_OP by every rank */
  GACC_OFF = 90,     /* MPI_Get_accumulate from the left neighbour */
  FOP_OFF = 98,      /* MPI_Fetch_and_op from the left neighbour */
  CAS1_OFF = 99,     /* a failing MPI_Compare_and_swap from the left neighbour */
  CAS2_OFF = 100,    /* a succeeding one */
  COUNTER_OFF = 110, /* the shared counter (at rank 0), starts at 0 */
  CAS_OFF = 120,     /* the elections: one slot per round, each starts at -1 */
  ROUNDS = 6,        /* rounds of elections */
  REP_OFF = 200,     /* MPI_REPLACE: one int per origin */
  N_INC = 25,        /* increments of the shared counter per rank */
  SLOT = 64,         /* origin and result ints per target when every rank accesses every rank */
  POISON = -777777   /* result buffers before a get: must stay where nothing is fetched */
};
enum { TAG_INIT = 1, TAG_VEC, TAG_IDX, TAG_SUM, TAG_MAX, TAG_REP, TAG_GACC, TAG_FOP, TAG_CAS, TAG_PUT };

/* The indexed type's 7 ints within 11: blocks {1,2,3}, {5}, {8,9,10}. */
static const int idx_pos[7] = {1, 2, 3, 5, 8, 9, 10};

static int rank, size, left, right;
static int flavor, sync_mode, phase_no, count;
static MPI_Win win = MPI_WIN_NULL;
static int *mem;        /* this rank's window memory */
static MPI_Aint *bases; /* dynamic windows: every rank's attached address */
static MPI_Group world_group, ring_targets, ring_origins;
static MPI_Datatype vec7, idx7;
static int *src, *dst, *gathered; /* origin data, results, the results of all ranks */
static int *image, *want;         /* this rank's initial window (init_value), the expected window */

/* ---- Expected values: pure functions of ranks and indices. ------------------------------------------------ */
static int init_value(int r, int i) {
  if (i == COUNTER_OFF) return 0;
  if (i >= CAS_OFF && i < CAS_OFF + ROUNDS) return -1;
  return (int)(test_pattern(r, r, TAG_INIT, (uint64_t)i) % 1000);
}

/* Any int: what origin o puts into target t. */
static int data(int o, int t, int tag, int i) { return (int)(uint32_t)test_pattern(o, t, tag, (uint64_t)i); }

/* Small (0..999): what origin o adds to target t, so that sums never overflow. */
static int small(int o, int t, int tag, int i) { return (int)(test_pattern(o, t, tag, (uint64_t)i) % 1000); }

/* -500..1499: MPI_MAX operands, some above and some below the initial values. */
static int max_operand(int o, int t, int i) { return (int)(test_pattern(o, t, TAG_MAX, (uint64_t)i) % 2000) - 500; }

static void expect_eq_at(int got, int expected, const char *what, long index, int line) {
  if (got == expected) return;
  char detail[300];
  snprintf(detail, sizeof detail, ": %s window, %s, phase %d: %s[%ld] is %d, expected %d", flavor_name[flavor],
           sync_name[sync_mode], phase_no, what, index, got, expected);
  test_fail(__FILE__, line, "RMA result", detail);
}
#define EXPECT_EQ(got, expected, what, index) expect_eq_at((got), (expected), (what), (long)(index), __LINE__)

/* ---- The window. ------------------------------------------------------------------------------------------ */
/* The target displacement of int i of rank t's window. */
static MPI_Aint disp(int t, int i) {
  if (flavor == FLAVOR_DYNAMIC) return MPI_Aint_add(bases[t], (MPI_Aint)i * (MPI_Aint)sizeof(int));
  return i;
}

static void expect_init(void) { memcpy(want, image, (size_t)WIN_INTS * sizeof(int)); }

static void compare_window(void) {
  for (int i = 0; i < WIN_INTS; ++i) EXPECT_EQ(mem[i], want[i], "window", i);
}

static void poison(int *p, int n) {
  for (int i = 0; i < n; ++i) p[i] = POISON;
}

/* Local stores into the window under an exclusive lock on oneself; nobody accesses it before everyone is done. */
static void window_init(void) {
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
  memcpy(mem, image, (size_t)WIN_INTS * sizeof(int));
  CHECK_MPI(MPI_Win_unlock(rank, win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* ---- Phases, run by every synchronisation mode. ----------------------------------------------------------- */
typedef struct {
  int all;                          /* every rank accesses every rank (else just its right neighbour) */
  void (*issue)(int target);        /* the RMA calls to one target */
  void (*origin_check)(int target); /* checks their results at the origin once they completed there */
  void (*expect)(void);             /* this rank's window once every origin's calls completed, into want[] from
                                     * the initial contents (collective: may gather the results of all ranks) */
} Phase;

static int n_targets(const Phase *p) { return p->all ? size : 1; }
static int nth_target(const Phase *p, int k) { return p->all ? (rank + k) % size : right; }
static void origin_check(const Phase *p, int t) { p->origin_check(t); }

/* Every origin's calls completed at this rank: the whole window is as expected. */
static void target_check(const Phase *p) {
  expect_init();
  p->expect();
  compare_window();
}

static void run_fence(const Phase *p) {
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
  for (int k = 0; k < n_targets(p); ++k) p->issue(nth_target(p, k));
  CHECK_MPI(MPI_Win_fence(0, win)); /* completes everything, here and at the targets */
  for (int k = 0; k < n_targets(p); ++k) origin_check(p, nth_target(p, k));
  target_check(p); /* local loads between fences, in an epoch without RMA calls */
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
}

static void run_lock(const Phase *p, int lock_type) {
  for (int k = 0; k < n_targets(p); ++k) {
    const int t = nth_target(p, k);
    CHECK_MPI(MPI_Win_lock(lock_type, t, 0, win));
    p->issue(t);
    CHECK_MPI(MPI_Win_unlock(t, win));
    origin_check(p, t);
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every origin's epochs on this window have ended */
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
  target_check(p);
  CHECK_MPI(MPI_Win_unlock(rank, win));
}

/* Completion per target with MPI_Win_flush, MPI_Win_flush_local, or only the final MPI_Win_flush_all (the choice
 * rotates with the target and the phase). Remote completion, then a barrier and MPI_Win_sync before the loads. */
static void run_lock_all(const Phase *p) {
  CHECK_MPI(MPI_Win_lock_all(0, win));
  for (int k = 0; k < n_targets(p); ++k) {
    const int t = nth_target(p, k);
    p->issue(t);
    if ((k + phase_no) % 3 == 0) {
      CHECK_MPI(MPI_Win_flush(t, win));
      origin_check(p, t);
    } else if ((k + phase_no) % 3 == 1) {
      CHECK_MPI(MPI_Win_flush_local(t, win)); /* local completion: result buffers filled, origin buffers free */
      origin_check(p, t);
    }
  }
  CHECK_MPI(MPI_Win_flush_all(win));
  for (int k = 0; k < n_targets(p); ++k)
    if ((k + phase_no) % 3 == 2) origin_check(p, nth_target(p, k));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_sync(win));
  target_check(p);
  CHECK_MPI(MPI_Win_unlock_all(win));
}

static void run_pscw(const Phase *p, int poll) {
  CHECK_MPI(MPI_Win_post(p->all ? world_group : ring_origins, 0, win));
  CHECK_MPI(MPI_Win_start(p->all ? world_group : ring_targets, 0, win));
  for (int k = 0; k < n_targets(p); ++k) p->issue(nth_target(p, k));
  CHECK_MPI(MPI_Win_complete(win));
  for (int k = 0; k < n_targets(p); ++k) origin_check(p, nth_target(p, k));
  if (poll) {
    int done = 0;
    while (!done) CHECK_MPI(MPI_Win_test(win, &done));
  } else {
    CHECK_MPI(MPI_Win_wait(win));
  }
  target_check(p);
}

static void run_phase(const Phase *p) {
  window_init();
  switch (sync_mode) {
    case SYNC_FENCE: run_fence(p); break;
    case SYNC_LOCK_SHARED: run_lock(p, MPI_LOCK_SHARED); break;
    case SYNC_LOCK_EXCLUSIVE: run_lock(p, MPI_LOCK_EXCLUSIVE); break;
    case SYNC_LOCK_ALL: run_lock_all(p); break;
    case SYNC_PSCW_WAIT: run_pscw(p, 0); break;
    default: run_pscw(p, 1); break;
  }
  ++phase_no;
}

/* 1. MPI_Put of `count` ints to PUT_OFF and MPI_Get of `count` ints from GET_OFF of the right neighbour. */

/* MPICH 4.0.2 (ch4:ucx) returns from MPI_Win_complete before the MPI_Get calls of the epoch have delivered their
 * data when the epoch moves more than 256 KiB (seen at 3 and 4 ranks, with gets alone too; never with the other
 * synchronisation modes). Built for MPICH, puts and gets under PSCW are cut to 30000 ints each (120 KB, still past
 * its rendezvous threshold); the late data would otherwise also overwrite the next phase's buffers. */
static int op_count(void) {
#if defined(MPICH_VERSION) && !defined(STRATA)
  if ((sync_mode == SYNC_PSCW_WAIT || sync_mode == SYNC_PSCW_TEST) && count > 30000) return 30000;
#endif
  return count;
}

static void putget_issue(int t) {
  const int n = op_count();
  for (int i = 0; i < n; ++i) src[i] = data(rank, t, TAG_PUT + count, i);
  poison(dst, n + 4);
  CHECK_MPI(MPI_Put(src, n, MPI_INT, t, disp(t, PUT_OFF), n, MPI_INT, win));
  CHECK_MPI(MPI_Get(dst, n, MPI_INT, t, disp(t, GET_OFF), n, MPI_INT, win));
  CHECK_MPI(MPI_Put(src, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
}

static void putget_origin(int t) {
  const int n = op_count();
  for (int i = 0; i < n; ++i) EXPECT_EQ(dst[i], init_value(t, GET_OFF + i), "MPI_Get result", i);
  for (int i = n; i < n + 4; ++i) EXPECT_EQ(dst[i], POISON, "MPI_Get result", i);
}

static void putget_expect(void) {
  for (int i = 0; i < op_count(); ++i) want[PUT_OFF + i] = data(left, rank, TAG_PUT + count, i);
}

/* 2. Derived datatypes on either side (origin buffers src[0..27), results dst[0..12)). */
static void types_issue(int t) {
  for (int i = 0; i < 7; ++i) src[i] = data(rank, t, TAG_VEC, i);
  int *indexed = src + 16;
  for (int i = 0; i < 11; ++i) indexed[i] = data(rank, t, TAG_IDX, i);
  poison(dst, 12);
  CHECK_MPI(MPI_Put(src, 7, MPI_INT, t, disp(t, VEC_OFF), 1, vec7, win));
  CHECK_MPI(MPI_Put(indexed, 1, idx7, t, disp(t, IDX_OFF), 7, MPI_INT, win));
  CHECK_MPI(MPI_Get(dst, 1, idx7, t, disp(t, GETV_OFF), 1, vec7, win));
}

static void types_origin(int t) {
  for (int i = 0, k = 0; i < 12; ++i) {
    if (k < 7 && i == idx_pos[k]) {
      EXPECT_EQ(dst[i], init_value(t, GETV_OFF + 2 * k), "indexed MPI_Get result", i);
      ++k;
    } else {
      EXPECT_EQ(dst[i], POISON, "indexed MPI_Get result", i);
    }
  }
}

static void types_expect(void) {
  for (int i = 0; i < 7; ++i) want[VEC_OFF + 2 * i] = data(left, rank, TAG_VEC, i);
  for (int k = 0; k < 7; ++k) want[IDX_OFF + k] = data(left, rank, TAG_IDX, idx_pos[k]);
}

/* 3. Old values fetched from the right neighbour, its only origin, so they are the initial ones (origin buffers
 *    src[32..45), results dst[32..44)). */
static void fetch_issue(int t) {
  int *b = src + 32, *r = dst + 32;
  for (int i = 0; i < ACC_N; ++i) b[i] = small(rank, t, TAG_GACC, i);
  b[8] = data(rank, t, TAG_FOP, 0);
  b[9] = data(rank, t, TAG_CAS, 0);    /* never stored: the comparison fails */
  b[10] = init_value(t, CAS1_OFF) + 1; /* ... against this */
  b[11] = data(rank, t, TAG_CAS, 1);   /* stored */
  b[12] = init_value(t, CAS2_OFF);     /* ... as this matches */
  poison(r, 12);
  CHECK_MPI(
      MPI_Get_accumulate(b, ACC_N, MPI_INT, r, ACC_N, MPI_INT, t, disp(t, GACC_OFF), ACC_N, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Fetch_and_op(b + 8, r + 8, MPI_INT, t, disp(t, FOP_OFF), MPI_REPLACE, win));
  CHECK_MPI(MPI_Compare_and_swap(b + 9, b + 10, r + 9, MPI_INT, t, disp(t, CAS1_OFF), win));
  CHECK_MPI(MPI_Compare_and_swap(b + 11, b + 12, r + 10, MPI_INT, t, disp(t, CAS2_OFF), win));
}

static void fetch_origin(int t) {
  const int *r = dst + 32;
  for (int i = 0; i < ACC_N; ++i) EXPECT_EQ(r[i], init_value(t, GACC_OFF + i), "MPI_Get_accumulate result", i);
  EXPECT_EQ(r[ACC_N], POISON, "MPI_Get_accumulate result", ACC_N);
  EXPECT_EQ(r[8], init_value(t, FOP_OFF), "MPI_Fetch_and_op result", 0);
  EXPECT_EQ(r[9], init_value(t, CAS1_OFF), "failing MPI_Compare_and_swap result", 0);
  EXPECT_EQ(r[10], init_value(t, CAS2_OFF), "succeeding MPI_Compare_and_swap result", 0);
  EXPECT_EQ(r[11], POISON, "MPI_Compare_and_swap results", 11);
}

static void fetch_expect(void) {
  for (int i = 0; i < ACC_N; ++i) want[GACC_OFF + i] += small(left, rank, TAG_GACC, i);
  want[FOP_OFF] = data(left, rank, TAG_FOP, 0);
  want[CAS2_OFF] = data(left, rank, TAG_CAS, 1);
}

/* 4. Accumulates from every rank into every rank (origin buffers src[t * SLOT..+17), results dst[t * SLOT..+8)). */
static void acc_issue(int t) {
  int *b = src + t * SLOT, *r = dst + t * SLOT;
  for (int i = 0; i < ACC_N; ++i) {
    b[i] = small(rank, t, TAG_SUM, i);
    b[8 + i] = max_operand(rank, t, i);
  }
  b[16] = data(rank, t, TAG_REP, 0);
  poison(r, ACC_N + 1);
  CHECK_MPI(MPI_Accumulate(b, ACC_N, MPI_INT, t, disp(t, SUM_OFF), ACC_N, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Accumulate(b + 8, ACC_N, MPI_INT, t, disp(t, MAX_OFF), ACC_N, MPI_INT, MPI_MAX, win));
  CHECK_MPI(MPI_Accumulate(b + 16, 1, MPI_INT, t, disp(t, REP_OFF + rank), 1, MPI_INT, MPI_REPLACE, win));
  CHECK_MPI(
      MPI_Get_accumulate(NULL, 0, MPI_INT, r, ACC_N, MPI_INT, t, disp(t, NOOP_OFF), ACC_N, MPI_INT, MPI_NO_OP, win));
}

static void acc_origin(int t) {
  const int *r = dst + t * SLOT;
  for (int i = 0; i < ACC_N; ++i) EXPECT_EQ(r[i], init_value(t, NOOP_OFF + i), "MPI_NO_OP result", i);
  EXPECT_EQ(r[ACC_N], POISON, "MPI_NO_OP result", ACC_N);
}

static void acc_expect(void) {
  for (int i = 0; i < ACC_N; ++i)
    for (int o = 0; o < size; ++o) {
      want[SUM_OFF + i] += small(o, rank, TAG_SUM, i);
      if (max_operand(o, rank, i) > want[MAX_OFF + i]) want[MAX_OFF + i] = max_operand(o, rank, i);
    }
  for (int o = 0; o < size; ++o) want[REP_OFF + o] = data(o, rank, TAG_REP, 0);
}

/* 5. A shared counter at rank 0: N_INC increments by every rank. */
static const int one = 1;
static int counter_res[N_INC + 1];

static void counter_issue(int t) {
  if (t != 0) return;
  poison(counter_res, N_INC + 1);
  for (int k = 0; k < N_INC; ++k)
    CHECK_MPI(MPI_Fetch_and_op(&one, counter_res + k, MPI_INT, 0, disp(0, COUNTER_OFF), MPI_SUM, win));
}

static void counter_origin(int t) {
  if (t != 0) return;
  for (int k = 0; k < N_INC; ++k) {
    CHECK(counter_res[k] >= 0 && counter_res[k] < size * N_INC);
    if (k > 0) CHECK(counter_res[k] > counter_res[k - 1]); /* one origin's fetches are ordered */
  }
  EXPECT_EQ(counter_res[N_INC], POISON, "MPI_Fetch_and_op results", N_INC);
}

static void counter_expect(void) {
  CHECK_MPI(MPI_Allgather(counter_res, N_INC, MPI_INT, gathered, N_INC, MPI_INT, MPI_COMM_WORLD));
  const int total = size * N_INC;
  char *seen = calloc((size_t)total, 1);
  CHECK(seen != NULL);
  for (int j = 0; j < total; ++j) {
    CHECK(gathered[j] >= 0 && gathered[j] < total);
    CHECK(!seen[gathered[j]]); /* each value fetched once: the increments were atomic */
    seen[gathered[j]] = 1;
  }
  free(seen);
  if (rank == 0) want[COUNTER_OFF] = total;
}

/* 6. Elections: in round r every rank tries to swap its rank into slot r of rank r % size, which holds -1 (origin
 *    buffers src[t * SLOT + 24..+26)). */
static int elect_res[ROUNDS];

static void elect_issue(int t) {
  int *b = src + t * SLOT + 24;
  b[0] = rank;
  b[1] = -1;
  for (int r = 0; r < ROUNDS; ++r)
    if (r % size == t) {
      elect_res[r] = POISON;
      CHECK_MPI(MPI_Compare_and_swap(b, b + 1, elect_res + r, MPI_INT, t, disp(t, CAS_OFF + r), win));
    }
}

static void elect_expect(void) {
  CHECK_MPI(MPI_Allgather(elect_res, ROUNDS, MPI_INT, gathered, ROUNDS, MPI_INT, MPI_COMM_WORLD));
  for (int r = 0; r < ROUNDS; ++r) {
    int winners = 0, winner = -1;
    for (int o = 0; o < size; ++o)
      if (gathered[o * ROUNDS + r] == -1) {
        ++winners;
        winner = o;
      }
    EXPECT_EQ(winners, 1, "winners of round", r);
    for (int o = 0; o < size; ++o)
      if (o != winner) EXPECT_EQ(gathered[o * ROUNDS + r], winner, "what a loser saw in round", r);
    if (r % size == rank) want[CAS_OFF + r] = winner;
  }
}

/* The phases: 2 and 3 to the right neighbour together, 4, 5 and 6 to everyone together (all use different window
 * locations and buffers). */
static void ring_issue(int t) {
  types_issue(t);
  fetch_issue(t);
}
static void ring_origin(int t) {
  types_origin(t);
  fetch_origin(t);
}
static void ring_expect(void) {
  types_expect();
  fetch_expect();
}
static void all_issue(int t) {
  acc_issue(t);
  counter_issue(t);
  elect_issue(t);
}
static void all_origin(int t) {
  acc_origin(t);
  counter_origin(t);
}
static void all_expect(void) {
  acc_expect();
  counter_expect();
  elect_expect();
}

static const Phase putget = {0, putget_issue, putget_origin, putget_expect};
static const Phase ring_ops = {0, ring_issue, ring_origin, ring_expect};
static const Phase all_ops = {1, all_issue, all_origin, all_expect};

/* ---- Windows. --------------------------------------------------------------------------------------------- */
static void create_window(void) {
  const MPI_Aint bytes = (MPI_Aint)WIN_INTS * (MPI_Aint)sizeof(int);
  switch (flavor) {
    case FLAVOR_CREATE:
      mem = test_malloc((size_t)bytes);
      CHECK_MPI(MPI_Win_create(mem, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
      break;
    case FLAVOR_ALLOCATE:
      CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
      break;
    case FLAVOR_DYNAMIC: {
      CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
      mem = test_malloc((size_t)bytes);
      CHECK_MPI(MPI_Win_attach(win, mem, bytes));
      MPI_Aint mine;
      CHECK_MPI(MPI_Get_address(mem, &mine));
      CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, bases, 1, MPI_AINT, MPI_COMM_WORLD));
      break;
    }
    default: CHECK_MPI(MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win)); break;
  }
}

static void free_window(void) {
  if (flavor == FLAVOR_DYNAMIC) CHECK_MPI(MPI_Win_detach(win, mem));
  CHECK_MPI(MPI_Win_free(&win));
  CHECK(win == MPI_WIN_NULL);
  if (flavor == FLAVOR_CREATE || flavor == FLAVOR_DYNAMIC) free(mem);
}

/* A dynamic window's attributes are those of its effective window: base MPI_BOTTOM, size 0, unit 1. */
static void check_attributes(void) {
  static const int flavors[FLAVORS] = {MPI_WIN_FLAVOR_CREATE, MPI_WIN_FLAVOR_ALLOCATE, MPI_WIN_FLAVOR_DYNAMIC,
                                       MPI_WIN_FLAVOR_SHARED};
  const int dynamic = flavor == FLAVOR_DYNAMIC;
  void *base = NULL;
  MPI_Aint *win_size = NULL;
  int *unit = NULL, *win_flavor = NULL, *model = NULL, flag = 0;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag));
  CHECK(flag && base == (dynamic ? MPI_BOTTOM : (void *)mem));
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &win_size, &flag));
  CHECK(flag && win_size != NULL && *win_size == (dynamic ? 0 : (MPI_Aint)WIN_INTS * (MPI_Aint)sizeof(int)));
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag));
  CHECK(flag && unit != NULL && *unit == (dynamic ? 1 : (int)sizeof(int)));
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &win_flavor, &flag));
  CHECK(flag && win_flavor != NULL && *win_flavor == flavors[flavor]);
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
  CHECK(flag && model != NULL && (*model == MPI_WIN_UNIFIED || *model == MPI_WIN_SEPARATE));

  MPI_Group group = MPI_GROUP_NULL;
  int result = -1;
  CHECK_MPI(MPI_Win_get_group(win, &group));
  CHECK_MPI(MPI_Group_compare(group, world_group, &result));
  CHECK(result == MPI_IDENT);
  CHECK_MPI(MPI_Group_free(&group));
}

static void run_flavor(void) {
  create_window();
  check_attributes();
  for (sync_mode = 0; sync_mode < SYNCS; ++sync_mode) {
    /* MEDIUM: a message a library may keep in its eager path but hold back from an unposted receive. */
    static const int counts[] = {0, 1, 7, MEDIUM, LARGE};
    for (int c = 0; c < 5; ++c) {
      count = counts[c];
      run_phase(&putget);
    }
    run_phase(&ring_ops);
    run_phase(&all_ops);
  }
  free_window();
}

static void make_types(void) {
  static const int blocklengths[3] = {3, 1, 3}, displacements[3] = {1, 5, 8};
  CHECK_MPI(MPI_Type_vector(7, 1, 2, MPI_INT, &vec7));
  CHECK_MPI(MPI_Type_commit(&vec7));
  CHECK_MPI(MPI_Type_indexed(3, blocklengths, displacements, MPI_INT, &idx7));
  CHECK_MPI(MPI_Type_commit(&idx7));
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  left = (rank + size - 1) % size;
  right = (rank + 1) % size;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
  CHECK_MPI(MPI_Group_incl(world_group, 1, &right, &ring_targets));
  CHECK_MPI(MPI_Group_incl(world_group, 1, &left, &ring_origins));
  make_types();
  const size_t scratch = (size_t)(LARGE + 8 > size * SLOT ? LARGE + 8 : size * SLOT);
  src = test_malloc(scratch * sizeof(int));
  dst = test_malloc(scratch * sizeof(int));
  want = test_malloc((size_t)WIN_INTS * sizeof(int));
  image = test_malloc((size_t)WIN_INTS * sizeof(int));
  for (int i = 0; i < WIN_INTS; ++i) image[i] = init_value(rank, i);
  gathered = test_malloc((size_t)size * SLOT * sizeof(int));
  bases = test_malloc((size_t)size * sizeof(MPI_Aint));

  /* The shared flavor needs every rank on one node. */
  MPI_Comm node;
  int node_size = 0;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  CHECK_MPI(MPI_Comm_size(node, &node_size));
  CHECK_MPI(MPI_Comm_free(&node));
  const int flavors = node_size == size ? FLAVORS : FLAVOR_SHARED;

  for (flavor = 0; flavor < flavors; ++flavor) {
    if (rank == 0) printf("%s\n", flavor_name[flavor]);
    run_flavor();
  }

  CHECK_MPI(MPI_Type_free(&vec7));
  CHECK_MPI(MPI_Type_free(&idx7));
  CHECK_MPI(MPI_Group_free(&ring_targets));
  CHECK_MPI(MPI_Group_free(&ring_origins));
  CHECK_MPI(MPI_Group_free(&world_group));
  free(src);
  free(dst);
  free(want);
  free(image);
  free(gathered);
  free(bases);
  if (rank == 0) printf("rma_ops: %d ranks OK (%d window flavors)\n", size, flavors);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
