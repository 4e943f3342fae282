/* Request-based RMA (MPI-4.0 12.3.5): MPI_Rput, MPI_Rget, MPI_Raccumulate and MPI_Rget_accumulate in passive-target
 * epochs, completed with MPI_Wait, MPI_Waitall, MPI_Test and MPI_Testall loops.
 *
 * Completing such a request completes the operation at the origin only, which the test relies on right after each
 * completion: an MPI_Rget's data is in the origin buffer and an MPI_Rget_accumulate's old values in the result
 * buffer (both poisoned before, and nothing is written past their end); an MPI_Rput's or MPI_Raccumulate's origin
 * buffer is free, so the test overwrites it at once, and the target still ends up with the values sent, seen there
 * after MPI_Win_flush (then a barrier and MPI_Win_sync before the loads). Parts:
 *   1. in a lock_all epoch, MPI_Rput of 0, 1, 7 and 100000 ints to the right neighbour, all outstanding at once and
 *      completed one by one with MPI_Wait in reverse order; MPI_Rget of as many completed with MPI_Test loops;
 *   2. in a lock_all epoch, MPI_Raccumulate with MPI_SUM and MPI_REPLACE from every rank into every rank,
 *      MPI_Rget_accumulate fetching the old values of the right neighbour, an MPI_Rget through a vector type,
 *      all completed by one MPI_Waitall;
 *   3. in an exclusive MPI_Win_lock epoch on the right neighbour, MPI_Raccumulate then MPI_Rget_accumulate with
 *      MPI_NO_OP on the same ints, twice: the reads see the writes before them (accumulates of one origin are
 *      ordered by default, MPI-4.0 12.7.1); MPI_Rput and MPI_Rget to MPI_PROC_NULL (no effect); an MPI_Testall loop.
 * Each part runs on an MPI_Win_allocate window and on an MPI_Win_create_dynamic one (target_disp the address). The
 * whole window is compared with its expected contents after each part; every expected value is a pure function of
 * ranks and indices. Any number of ranks; with one, the rank accesses itself. A plain MPI program: passes with
 * MPICH 4.0.2 (but for one check moved after a flush, see accumulates()) and with Open MPI 4.1 (one rank needs
 * --mca osc sm,rdma,pt2pt there: Debian's configuration leaves no component that takes a one-process window). */
#include "test_util.h"

enum { LARGE = 100000, NCOUNTS = 4 };
static const int counts[NCOUNTS] = {0, 1, 7, LARGE};
enum {
  PUT_AT = 3,                              /* part 1: counts[k] ints put at PUT_AT + put_off[k] */
  GET_AT = PUT_AT + 20 + LARGE + 8,        /* part 1: counts[k] ints read at GET_AT + get_off[k] */
  SMALL = GET_AT + 20 + LARGE + 8,         /* parts 2 and 3 */
  ACC_N = 7,                               /* ints per accumulate */
  SUM_OFF = SMALL,                         /* part 2: MPI_SUM from every rank */
  GACC_OFF = SMALL + 10,                   /* part 2: MPI_Rget_accumulate from the left neighbour */
  GETV_OFF = SMALL + 20,                   /* part 2: read through a vector type (13 ints) */
  ORD_OFF = SMALL + 40,                    /* part 3: accumulates then reads, from the left neighbour */
  REP_OFF = SMALL + 50,                    /* part 2: MPI_REPLACE, one int per origin */
  WIN_INTS = (REP_OFF + 1000 + 3) / 4 * 4, /* room for 1000 ranks; a multiple of 16 bytes (see rma_ops.c) */
  POISON = -777777                         /* result buffers before a get: must stay where nothing is fetched */
};
static const int put_off[NCOUNTS] = {0, 1, 5, 20}, get_off[NCOUNTS] = {0, 2, 6, 20};
enum { TAG_INIT = 1, TAG_PUT, TAG_SUM, TAG_GACC, TAG_REP, TAG_ORD1, TAG_ORD2 };

static int rank, size, left, right, dynamic;
static MPI_Win win = MPI_WIN_NULL;
static int *mem, *image, *want;
static MPI_Aint *bases;
static MPI_Datatype vec7;

static int init_value(int r, int i) { return (int)(test_pattern(r, r, TAG_INIT, (uint64_t)i) % 1000); }
static int data(int o, int t, int tag, int i) { return (int)(uint32_t)test_pattern(o, t, tag, (uint64_t)i); }
static int small(int o, int t, int tag, int i) { return (int)(test_pattern(o, t, tag, (uint64_t)i) % 1000); }

static void expect_eq_at(int got, int expected, const char *what, long index, int line) {
  if (got == expected) return;
  char detail[300];
  snprintf(detail, sizeof detail, ": %s window: %s[%ld] is %d, expected %d",
           dynamic ? "MPI_Win_create_dynamic" : "MPI_Win_allocate", what, index, got, expected);
  test_fail(__FILE__, line, "RMA result", detail);
}
#define EXPECT_EQ(got, expected, what, index) expect_eq_at((got), (expected), (what), (long)(index), __LINE__)

static MPI_Aint disp(int t, int i) {
  if (dynamic) return MPI_Aint_add(bases[t], (MPI_Aint)i * (MPI_Aint)sizeof(int));
  return i;
}

static void poison(int *p, int n) {
  for (int i = 0; i < n; ++i) p[i] = POISON;
}

static void window_init(void) {
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
  memcpy(mem, image, (size_t)WIN_INTS * sizeof(int));
  CHECK_MPI(MPI_Win_unlock(rank, win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  memcpy(want, image, (size_t)WIN_INTS * sizeof(int));
}

static void compare_window(void) {
  for (int i = 0; i < WIN_INTS; ++i) EXPECT_EQ(mem[i], want[i], "window", i);
}

/* In a lock_all epoch: everyone's calls are complete at their targets (MPI_Win_flush_all before), then every rank
 * checks its own window. */
static void check_window_in_lock_all(void) {
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_sync(win));
  compare_window();
}

static void test_until_done(MPI_Request *req) {
  int done = 0;
  while (!done) CHECK_MPI(MPI_Test(req, &done, MPI_STATUS_IGNORE));
  CHECK(*req == MPI_REQUEST_NULL);
}

/* 1. Rput and Rget of every count, all outstanding at once. */
static void puts_and_gets(void) {
  int *srcs[NCOUNTS], *dsts[NCOUNTS];
  MPI_Request puts[NCOUNTS], gets[NCOUNTS];
  window_init();
  CHECK_MPI(MPI_Win_lock_all(0, win));
  for (int k = 0; k < NCOUNTS; ++k) {
    srcs[k] = test_malloc((size_t)counts[k] * sizeof(int));
    dsts[k] = test_malloc((size_t)(counts[k] + 4) * sizeof(int));
    for (int i = 0; i < counts[k]; ++i) srcs[k][i] = data(rank, right, TAG_PUT + k, i);
    poison(dsts[k], counts[k] + 4);
    CHECK_MPI(MPI_Rput(srcs[k], counts[k], MPI_INT, right, disp(right, PUT_AT + put_off[k]), counts[k], MPI_INT, win,
                       &puts[k]));
  }
  for (int k = 0; k < NCOUNTS; ++k)
    CHECK_MPI(MPI_Rget(dsts[k], counts[k], MPI_INT, right, disp(right, GET_AT + get_off[k]), counts[k], MPI_INT, win,
                       &gets[k]));
  for (int k = NCOUNTS - 1; k >= 0; --k) {
    CHECK_MPI(MPI_Wait(&puts[k], MPI_STATUS_IGNORE));
    CHECK(puts[k] == MPI_REQUEST_NULL);
    poison(srcs[k], counts[k]); /* free at completion: what was sent must still arrive */
  }
  for (int k = 0; k < NCOUNTS; ++k) {
    test_until_done(&gets[k]);
    for (int i = 0; i < counts[k]; ++i)
      EXPECT_EQ(dsts[k][i], init_value(right, GET_AT + get_off[k] + i), "MPI_Rget result", i);
    for (int i = counts[k]; i < counts[k] + 4; ++i) EXPECT_EQ(dsts[k][i], POISON, "MPI_Rget result", i);
  }
  CHECK_MPI(MPI_Win_flush(right, win));
  for (int k = 0; k < NCOUNTS; ++k)
    for (int i = 0; i < counts[k]; ++i) want[PUT_AT + put_off[k] + i] = data(left, rank, TAG_PUT + k, i);
  check_window_in_lock_all();
  CHECK_MPI(MPI_Win_unlock_all(win));
  for (int k = 0; k < NCOUNTS; ++k) {
    free(srcs[k]);
    free(dsts[k]);
  }
}

/* 2. Accumulates from every rank into every rank, a fetch and a strided read, one MPI_Waitall. */
static void accumulates(void) {
  const int n = 2 * size + 2;
  MPI_Request *reqs = test_malloc((size_t)n * sizeof(MPI_Request));
  int *sums = test_malloc((size_t)size * ACC_N * sizeof(int)), *reps = test_malloc((size_t)size * sizeof(int));
  int gacc[ACC_N], fetched[ACC_N + 1], strided[8];
  MPI_Status *statuses = test_malloc((size_t)n * sizeof(MPI_Status));
  window_init();
  CHECK_MPI(MPI_Win_lock_all(0, win));
  for (int k = 0; k < size; ++k) {
    const int t = (rank + k) % size;
    int *b = sums + t * ACC_N;
    for (int i = 0; i < ACC_N; ++i) b[i] = small(rank, t, TAG_SUM, i);
    reps[t] = data(rank, t, TAG_REP, 0);
    CHECK_MPI(MPI_Raccumulate(b, ACC_N, MPI_INT, t, disp(t, SUM_OFF), ACC_N, MPI_INT, MPI_SUM, win, &reqs[2 * k]));
    CHECK_MPI(MPI_Raccumulate(reps + t, 1, MPI_INT, t, disp(t, REP_OFF + rank), 1, MPI_INT, MPI_REPLACE, win,
                              &reqs[2 * k + 1]));
  }
  for (int i = 0; i < ACC_N; ++i) gacc[i] = small(rank, right, TAG_GACC, i);
  poison(fetched, ACC_N + 1);
  poison(strided, 8);
  CHECK_MPI(MPI_Rget_accumulate(gacc, ACC_N, MPI_INT, fetched, ACC_N, MPI_INT, right, disp(right, GACC_OFF), ACC_N,
                                MPI_INT, MPI_SUM, win, &reqs[n - 2]));
  CHECK_MPI(MPI_Rget(strided, 7, MPI_INT, right, disp(right, GETV_OFF), 1, vec7, win, &reqs[n - 1]));
  CHECK_MPI(MPI_Waitall(n, reqs, statuses));
  for (int j = 0; j < n; ++j) CHECK(reqs[j] == MPI_REQUEST_NULL);
  poison(sums, size * ACC_N);
  poison(reps, size);
  poison(gacc, ACC_N);
  for (int i = 0; i < ACC_N; ++i) EXPECT_EQ(fetched[i], init_value(right, GACC_OFF + i), "old values", i);
  EXPECT_EQ(fetched[ACC_N], POISON, "old values", ACC_N);
  /* MPICH 4.0.2 completes an MPI_Rget through a non-contiguous target type before its data arrived (with another
   * process as the target); built for MPICH, the data is checked after MPI_Win_flush_all. */
#if defined(MPICH_VERSION) && !defined(STRATA)
  CHECK_MPI(MPI_Win_flush_all(win));
#endif
  for (int i = 0; i < 7; ++i) EXPECT_EQ(strided[i], init_value(right, GETV_OFF + 2 * i), "strided MPI_Rget", i);
  EXPECT_EQ(strided[7], POISON, "strided MPI_Rget", 7);

  CHECK_MPI(MPI_Win_flush_all(win));
  for (int i = 0; i < ACC_N; ++i) {
    for (int o = 0; o < size; ++o) want[SUM_OFF + i] += small(o, rank, TAG_SUM, i);
    want[GACC_OFF + i] += small(left, rank, TAG_GACC, i);
  }
  for (int o = 0; o < size; ++o) want[REP_OFF + o] = data(o, rank, TAG_REP, 0);
  check_window_in_lock_all();
  CHECK_MPI(MPI_Win_unlock_all(win));
  free(reqs);
  free(statuses);
  free(sums);
  free(reps);
}

/* 3. Ordered accumulates and reads on the same ints, and MPI_PROC_NULL, under an exclusive lock. */
static void ordered(void) {
  int v1[ACC_N], v2[ACC_N], after1[ACC_N + 1], after2[ACC_N + 1], nothing[4];
  MPI_Request reqs[6];
  MPI_Status statuses[6];
  window_init();
  for (int i = 0; i < ACC_N; ++i) {
    v1[i] = small(rank, right, TAG_ORD1, i);
    v2[i] = small(rank, right, TAG_ORD2, i);
  }
  poison(after1, ACC_N + 1);
  poison(after2, ACC_N + 1);
  poison(nothing, 4);
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
  const MPI_Aint at = disp(right, ORD_OFF);
  CHECK_MPI(MPI_Raccumulate(v1, ACC_N, MPI_INT, right, at, ACC_N, MPI_INT, MPI_REPLACE, win, &reqs[0]));
  CHECK_MPI(MPI_Rget_accumulate(NULL, 0, MPI_INT, after1, ACC_N, MPI_INT, right, at, ACC_N, MPI_INT, MPI_NO_OP, win,
                                &reqs[1]));
  CHECK_MPI(MPI_Raccumulate(v2, ACC_N, MPI_INT, right, at, ACC_N, MPI_INT, MPI_SUM, win, &reqs[2]));
  CHECK_MPI(MPI_Rget_accumulate(NULL, 0, MPI_INT, after2, ACC_N, MPI_INT, right, at, ACC_N, MPI_INT, MPI_NO_OP, win,
                                &reqs[3]));
  CHECK_MPI(MPI_Rput(v1, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, win, &reqs[4]));
  CHECK_MPI(MPI_Rget(nothing, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, win, &reqs[5]));
  int done = 0;
  while (!done) CHECK_MPI(MPI_Testall(6, reqs, &done, statuses));
  for (int j = 0; j < 6; ++j) CHECK(reqs[j] == MPI_REQUEST_NULL);
  for (int i = 0; i < ACC_N; ++i) {
    EXPECT_EQ(after1[i], v1[i], "read after MPI_REPLACE", i);
    EXPECT_EQ(after2[i], v1[i] + v2[i], "read after MPI_SUM", i);
  }
  EXPECT_EQ(after1[ACC_N], POISON, "read after MPI_REPLACE", ACC_N);
  EXPECT_EQ(after2[ACC_N], POISON, "read after MPI_SUM", ACC_N);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(nothing[i], POISON, "MPI_Rget from MPI_PROC_NULL", i);
  CHECK_MPI(MPI_Win_unlock(right, win));

  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  for (int i = 0; i < ACC_N; ++i) want[ORD_OFF + i] = small(left, rank, TAG_ORD1, i) + small(left, rank, TAG_ORD2, i);
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
  compare_window();
  CHECK_MPI(MPI_Win_unlock(rank, win));
}

static void run_window(void) {
  const MPI_Aint bytes = (MPI_Aint)WIN_INTS * (MPI_Aint)sizeof(int);
  if (dynamic) {
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    mem = test_malloc((size_t)bytes);
    CHECK_MPI(MPI_Win_attach(win, mem, bytes));
    MPI_Aint mine;
    CHECK_MPI(MPI_Get_address(mem, &mine));
    CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, bases, 1, MPI_AINT, MPI_COMM_WORLD));
  } else {
    CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
  }
  puts_and_gets();
  accumulates();
  ordered();
  if (dynamic) CHECK_MPI(MPI_Win_detach(win, mem));
  CHECK_MPI(MPI_Win_free(&win));
  if (dynamic) free(mem);
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(size <= 1000); /* REP_OFF's room */
  left = (rank + size - 1) % size;
  right = (rank + 1) % size;
  CHECK_MPI(MPI_Type_vector(7, 1, 2, MPI_INT, &vec7));
  CHECK_MPI(MPI_Type_commit(&vec7));
  image = test_malloc((size_t)WIN_INTS * sizeof(int));
  want = test_malloc((size_t)WIN_INTS * sizeof(int));
  bases = test_malloc((size_t)size * sizeof(MPI_Aint));
  for (int i = 0; i < WIN_INTS; ++i) image[i] = init_value(rank, i);

  for (dynamic = 0; dynamic <= 1; ++dynamic) run_window();

  CHECK_MPI(MPI_Type_free(&vec7));
  free(image);
  free(want);
  free(bases);
  if (rank == 0) printf("rma_request_ops: %d ranks OK\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
