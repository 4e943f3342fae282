/* Bad input to the one-sided communication calls (MPI-4.0 chapter 12), with MPI_ERRORS_RETURN on the window (set
 * with MPI_Win_set_errhandler), MPI_COMM_WORLD and MPI_COMM_SELF: each call returns an error of the right class
 * (MPI_Error_class) whose message names the call, and afterwards the window still works (still_works: a put to the
 * right neighbour in a lock_all epoch, seen there after MPI_Win_flush). Communication calls are made inside a valid
 * lock_all epoch, which then closes normally, so only the checked argument is wrong:
 *   - a target rank out of range: MPI_ERR_RANK;
 *   - a negative origin or target count: MPI_ERR_COUNT;
 *   - MPI_DATATYPE_NULL as the origin or target type: MPI_ERR_TYPE;
 *   - a user-defined op to MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op: MPI_ERR_OP (predefined ops only);
 *   - a negative target displacement on a window that is not dynamic: MPI_ERR_DISP (or MPI_ERR_RMA_RANGE);
 *   - beyond the end of the target's window, at the right neighbour and at oneself: MPI_ERR_RMA_RANGE (Strata only);
 *   - a put, get or accumulate with no epoch open, or to a target outside the MPI_Win_start group: MPI_ERR_RMA_SYNC;
 *     to a target that is not locked while another one is, or MPI_Rput in a fence epoch: MPI_ERR_RMA_SYNC (Strata
 *     only);
 *   - MPI_Compare_and_swap on MPI_DOUBLE (MPI_ERR_TYPE), MPI_Rget with a NULL request (MPI_ERR_ARG), MPI_Win_post
 *     with MPI_GROUP_NULL (MPI_ERR_GROUP); Strata only: complete / wait / test with no epoch (MPI_ERR_RMA_SYNC),
 *     detaching unattached memory and attaching a region twice (MPI_ERR_RMA_ATTACH);
 *   - MPI_Win_create and MPI_Win_allocate with a negative size (MPI_ERR_SIZE) or a disp_unit of 0 or below
 *     (MPI_ERR_DISP), raised on the communicator;
 *   - MPI_Win_attach and MPI_Win_detach on a window that is not dynamic: MPI_ERR_RMA_FLAVOR.
 * (MPI_Win_start without a matching MPI_Win_post is not tested: it may block.)
 *
 * A plain MPI program: passes with MPICH 4.0.2 and Open MPI 4.1 (one rank needs --mca osc sm,rdma,pt2pt there). The
 * checks MPICH lacks are built for Strata only (#ifdef STRATA), those Open MPI lacks are left out there (#ifndef
 * OPEN_MPI, OPEN_MPI_ONE_PROCESS), each with a comment saying what the library does instead; Open MPI's messages name
 * the error class, not the call, so the name is not looked for there. Any number of ranks. */
#include "test_util.h"

enum { WIN_INTS = 4 };

static int rank, size, left, right;
static MPI_Win win = MPI_WIN_NULL;
static int *base;

/* Open MPI 4.1 serves a one-process window with another component (osc sm for MPI_Win_allocate, else pt2pt), and
 * these miss some of the checks its osc rdma makes. */
#ifdef OPEN_MPI
#define OPEN_MPI_ONE_PROCESS (size == 1)
#else
#define OPEN_MPI_ONE_PROCESS 0
#endif

/* The error `err` has class want_class and names the call. */
static void expect_error(int err, int want_class, const char *name, const char *text, int line) {
#ifdef OPEN_MPI /* Open MPI's messages are the class's ("MPI_ERR_RANK: invalid rank"), without the call */
  int cls = -1;
  if (err != MPI_SUCCESS) CHECK_MPI(MPI_Error_class(err, &cls));
  if (cls != want_class) {
    char detail[200];
    snprintf(detail, sizeof detail, ": returned %d, class %d (wanted %d) for %s", err, cls, want_class, name);
    test_fail(__FILE__, line, text, detail);
  }
#else
  test_expect_error_at(err, want_class, name, text, __FILE__, line);
#endif
}

/* The window still works: each rank puts to its right neighbour, who sees the value after a flush. */
static void still_works(int line) {
  const int value = line * 1000 + rank;
  CHECK_MPI(MPI_Win_lock_all(0, win));
  CHECK_MPI(MPI_Put(&value, 1, MPI_INT, right, 1, 1, MPI_INT, win));
  CHECK_MPI(MPI_Win_flush(right, win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_sync(win));
  if (base[1] != line * 1000 + left) {
    char detail[100];
    snprintf(detail, sizeof detail, ": the window holds %d, expected %d", base[1], line * 1000 + left);
    test_fail(__FILE__, line, "the window does not work any more after the error on this line", detail);
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* read before the next still_works writes */
  CHECK_MPI(MPI_Win_unlock_all(win));
}

/* The call fails with want_class; then the window still works. */
#define EXPECT_FAILS_HERE(call, want_class, name)                \
  do {                                                           \
    expect_error((call), (want_class), (name), #call, __LINE__); \
    still_works(__LINE__);                                       \
  } while (0)

/* The same inside a lock_all epoch, which then closes as usual. */
#define EXPECT_FAILS_IN_EPOCH(call, want_class, name)          \
  do {                                                         \
    CHECK_MPI(MPI_Win_lock_all(0, win));                       \
    const int err_ = (call);                                   \
    CHECK_MPI(MPI_Win_unlock_all(win));                        \
    expect_error(err_, (want_class), (name), #call, __LINE__); \
    still_works(__LINE__);                                     \
  } while (0)

static void user_fn(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)in;
  (void)inout;
  (void)len;
  (void)type;
}

static void bad_communication_arguments(void) {
  int buf[8] = {0}, res[8];
  MPI_Op user_op;
  CHECK_MPI(MPI_Op_create(user_fn, 1, &user_op));

  /* Ranks out of range (-7 is no special rank in any of MPICH, Open MPI or Strata). */
  EXPECT_FAILS_IN_EPOCH(MPI_Put(buf, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK, "MPI_Put");
  EXPECT_FAILS_IN_EPOCH(MPI_Get(buf, 1, MPI_INT, -7, 0, 1, MPI_INT, win), MPI_ERR_RANK, "MPI_Get");
  EXPECT_FAILS_IN_EPOCH(MPI_Accumulate(buf, 1, MPI_INT, size + 3, 0, 1, MPI_INT, MPI_SUM, win), MPI_ERR_RANK,
                        "MPI_Accumulate");

  /* Negative counts. */
  EXPECT_FAILS_IN_EPOCH(MPI_Put(buf, -1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_COUNT, "MPI_Put");
  EXPECT_FAILS_IN_EPOCH(MPI_Get(buf, 1, MPI_INT, right, 0, -1, MPI_INT, win), MPI_ERR_COUNT, "MPI_Get");

  /* MPI_DATATYPE_NULL. */
  EXPECT_FAILS_IN_EPOCH(MPI_Put(buf, 1, MPI_DATATYPE_NULL, right, 0, 1, MPI_INT, win), MPI_ERR_TYPE, "MPI_Put");
  EXPECT_FAILS_IN_EPOCH(MPI_Get(buf, 1, MPI_INT, right, 0, 1, MPI_DATATYPE_NULL, win), MPI_ERR_TYPE, "MPI_Get");

  /* Accumulate operations take predefined ops only. */
  EXPECT_FAILS_IN_EPOCH(MPI_Accumulate(buf, 1, MPI_INT, right, 0, 1, MPI_INT, user_op, win), MPI_ERR_OP,
                        "MPI_Accumulate");
  EXPECT_FAILS_IN_EPOCH(MPI_Get_accumulate(buf, 1, MPI_INT, res, 1, MPI_INT, right, 0, 1, MPI_INT, user_op, win),
                        MPI_ERR_OP, "MPI_Get_accumulate");
#ifndef OPEN_MPI /* Open MPI 4.1 accepts a user-defined op in MPI_Fetch_and_op */
  EXPECT_FAILS_IN_EPOCH(MPI_Fetch_and_op(buf, res, MPI_INT, right, 0, user_op, win), MPI_ERR_OP, "MPI_Fetch_and_op");
#endif
  CHECK_MPI(MPI_Op_free(&user_op));

  /* A negative displacement into a window that is not dynamic: MPI_ERR_DISP in MPICH and Open MPI. */
  int cls = -1;
  CHECK_MPI(MPI_Win_lock_all(0, win));
  const int err = MPI_Put(buf, 1, MPI_INT, right, -1, 1, MPI_INT, win);
  CHECK_MPI(MPI_Win_unlock_all(win));
  if (err != MPI_SUCCESS) CHECK_MPI(MPI_Error_class(err, &cls));
  expect_error(err, cls == MPI_ERR_RMA_RANGE ? MPI_ERR_RMA_RANGE : MPI_ERR_DISP, "MPI_Put", "negative target_disp",
               __LINE__);
  still_works(__LINE__);

#ifdef STRATA /* MPICH 4.0.2 returns MPI_SUCCESS and writes past the end of the target's window */
  EXPECT_FAILS_IN_EPOCH(MPI_Put(buf, 1, MPI_INT, right, WIN_INTS, 1, MPI_INT, win), MPI_ERR_RMA_RANGE, "MPI_Put");
  EXPECT_FAILS_IN_EPOCH(MPI_Put(buf, 2, MPI_INT, rank, WIN_INTS - 1, 2, MPI_INT, win), MPI_ERR_RMA_RANGE, "MPI_Put");
  EXPECT_FAILS_IN_EPOCH(MPI_Get(res, 1, MPI_INT, right, 100, 1, MPI_INT, win), MPI_ERR_RMA_RANGE, "MPI_Get");
  EXPECT_FAILS_IN_EPOCH(MPI_Accumulate(buf, 8, MPI_INT, right, 0, 8, MPI_INT, MPI_SUM, win), MPI_ERR_RMA_RANGE,
                        "MPI_Accumulate");
#endif
}

static void out_of_epoch(void) {
  int buf[2] = {0};
  /* No epoch at all (Open MPI's osc sm lets the calls through). */
  if (!OPEN_MPI_ONE_PROCESS) {
    EXPECT_FAILS_HERE(MPI_Put(buf, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC, "MPI_Put");
    EXPECT_FAILS_HERE(MPI_Get(buf, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC, "MPI_Get");
    EXPECT_FAILS_HERE(MPI_Accumulate(buf, 1, MPI_INT, rank, 0, 1, MPI_INT, MPI_SUM, win), MPI_ERR_RMA_SYNC,
                      "MPI_Accumulate");
  }

  /* An access epoch to no target: MPI_Win_start with the empty group (Open MPI's osc pt2pt lets the put through). */
  if (!OPEN_MPI_ONE_PROCESS) {
    CHECK_MPI(MPI_Win_post(MPI_GROUP_EMPTY, 0, win));
    CHECK_MPI(MPI_Win_start(MPI_GROUP_EMPTY, 0, win));
    const int err = MPI_Put(buf, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    CHECK_MPI(MPI_Win_complete(win));
    CHECK_MPI(MPI_Win_wait(win));
    expect_error(err, MPI_ERR_RMA_SYNC, "MPI_Put", "MPI_Put outside the MPI_Win_start group", __LINE__);
    still_works(__LINE__);
  }

#ifdef STRATA /* MPICH 4.0.2 returns MPI_SUCCESS and performs the put */
  /* A lock on the right neighbour, a put to each other rank (none with one or two ranks). */
  for (int t = 0; t < size; ++t) {
    if (t == right) continue;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    const int e = MPI_Put(buf, 1, MPI_INT, t, 0, 1, MPI_INT, win);
    CHECK_MPI(MPI_Win_unlock(right, win));
    expect_error(e, MPI_ERR_RMA_SYNC, "MPI_Put", "MPI_Put to a target that is not locked", __LINE__);
  }
  still_works(__LINE__);

  /* A request-based put in an active-target epoch: MPI-4.0 12.4 allows them in passive-target epochs only. */
  MPI_Request req = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Win_fence(0, win));
  const int e = MPI_Rput(buf, 1, MPI_INT, right, 0, 1, MPI_INT, win, &req);
  CHECK_MPI(MPI_Win_fence(0, win));
  expect_error(e, MPI_ERR_RMA_SYNC, "MPI_Rput", "MPI_Rput in a fence epoch", __LINE__);
  CHECK(req == MPI_REQUEST_NULL);
  still_works(__LINE__);
#endif
}

/* Window creation: errors are raised on the communicator (MPI_ERRORS_RETURN on MPI_COMM_WORLD). */
static void bad_creation(void) {
  int buf[4];
  int *p = NULL;
  MPI_Win w = MPI_WIN_NULL;
  EXPECT_FAILS_HERE(MPI_Win_create(buf, -1, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w), MPI_ERR_SIZE,
                    "MPI_Win_create");
  EXPECT_FAILS_HERE(MPI_Win_create(buf, sizeof buf, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &w), MPI_ERR_DISP,
                    "MPI_Win_create");
  EXPECT_FAILS_HERE(MPI_Win_create(buf, sizeof buf, -4, MPI_INFO_NULL, MPI_COMM_WORLD, &w), MPI_ERR_DISP,
                    "MPI_Win_create");
  EXPECT_FAILS_HERE(MPI_Win_allocate(-1, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &p, &w), MPI_ERR_SIZE,
                    "MPI_Win_allocate");
  EXPECT_FAILS_HERE(MPI_Win_allocate(sizeof buf, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &w), MPI_ERR_DISP,
                    "MPI_Win_allocate");

  /* Attaching memory: dynamic windows only (Open MPI's osc sm returns MPI_ERR_RMA_ATTACH, its pt2pt succeeds). */
  if (!OPEN_MPI_ONE_PROCESS)
    EXPECT_FAILS_HERE(MPI_Win_attach(win, buf, sizeof buf), MPI_ERR_RMA_FLAVOR, "MPI_Win_attach");
#ifndef OPEN_MPI /* Open MPI 4.1 returns MPI_ERR_WIN */
  EXPECT_FAILS_HERE(MPI_Win_detach(win, base), MPI_ERR_RMA_FLAVOR, "MPI_Win_detach");
#endif
}

/* MPI_Compare_and_swap takes the C integer, logical, multi-language and byte types (MPI-4.0 12.3.5): a C bool
 * swaps (at this rank's own window), MPI_CHAR too (Strata counts it a C integer, as its reductions do, and as MPICH
 * does: datatype/op.cpp), and a wide character is no such type. */
static void cas_types(void) {
  MPI_Win w;
  _Bool *mem, one = 1, zero = 0, result = 1;
  CHECK_MPI(MPI_Win_allocate(sizeof(_Bool), 1, MPI_INFO_NULL, MPI_COMM_SELF, &mem, &w));
  CHECK_MPI(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
  *mem = 0;
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w));
  CHECK_MPI(MPI_Compare_and_swap(&one, &zero, &result, MPI_C_BOOL, 0, 0, w)); /* false == false: true stored */
  CHECK_MPI(MPI_Win_flush(0, w));
  CHECK(result == 0);
  CHECK_MPI(MPI_Compare_and_swap(&zero, &zero, &result, MPI_C_BOOL, 0, 0, w)); /* true != false: kept */
  CHECK_MPI(MPI_Win_unlock(0, w));
  CHECK(result == 1 && *mem == 1);
  char nul = 0, one_char = 1, was = 0; /* the window's byte holds true: 1 */
  wchar_t c = L'a', compare = L'a', fetched = 0;
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w));
  CHECK_MPI(MPI_Compare_and_swap(&nul, &one_char, &was, MPI_CHAR, 0, 0, w));
  expect_error(MPI_Compare_and_swap(&c, &compare, &fetched, MPI_WCHAR, 0, 0, w), MPI_ERR_TYPE, "MPI_Compare_and_swap",
               "compare-and-swap on MPI_WCHAR", __LINE__);
  CHECK_MPI(MPI_Win_unlock(0, w));
  CHECK(was == 1 && *mem == 0);
  CHECK_MPI(MPI_Win_free(&w));
}

/* The calls this file had not reached: compare-and-swap on a floating-point type, a group outside the window, the
 * active-target calls with no epoch open, a NULL request, and detaching memory that was never attached. */
static void other_calls(void) {
  int buf[2] = {0};
  double d = 0, dc = 0, dr = 0;
  EXPECT_FAILS_IN_EPOCH(MPI_Compare_and_swap(&d, &dc, &dr, MPI_DOUBLE, right, 0, win), MPI_ERR_TYPE,
                        "MPI_Compare_and_swap");
  EXPECT_FAILS_IN_EPOCH(MPI_Rget(buf, 1, MPI_INT, right, 0, 1, MPI_INT, win, NULL), MPI_ERR_ARG, "MPI_Rget");
  EXPECT_FAILS_HERE(MPI_Win_post(MPI_GROUP_NULL, 0, win), MPI_ERR_GROUP, "MPI_Win_post");
#ifdef STRATA /* MPICH 4.0.2 does not check these epochs and waits or returns success */
  int flag = 1;
  EXPECT_FAILS_HERE(MPI_Win_complete(win), MPI_ERR_RMA_SYNC, "MPI_Win_complete");
  EXPECT_FAILS_HERE(MPI_Win_wait(win), MPI_ERR_RMA_SYNC, "MPI_Win_wait");
  EXPECT_FAILS_HERE(MPI_Win_test(win, &flag), MPI_ERR_RMA_SYNC, "MPI_Win_test");
  CHECK(flag == 0);
#endif
  MPI_Win dyn;
  CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn));
  CHECK_MPI(MPI_Win_set_errhandler(dyn, MPI_ERRORS_RETURN));
#ifdef STRATA /* MPICH 4.0.2 returns success for both */
  expect_error(MPI_Win_detach(dyn, buf), MPI_ERR_RMA_ATTACH, "MPI_Win_detach", "detach of unattached memory",
               __LINE__);
  CHECK_MPI(MPI_Win_attach(dyn, buf, sizeof buf));
  expect_error(MPI_Win_attach(dyn, buf, sizeof buf), MPI_ERR_RMA_ATTACH, "MPI_Win_attach", "attach twice",
               __LINE__);
  CHECK_MPI(MPI_Win_detach(dyn, buf));
#endif
  CHECK_MPI(MPI_Win_free(&dyn));
  still_works(__LINE__);
}

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);
  left = (rank + size - 1) % size;
  right = (rank + 1) % size;
  CHECK_MPI(MPI_Win_allocate(WIN_INTS * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
  for (int i = 0; i < WIN_INTS; ++i) base[i] = -1;
  CHECK_MPI(MPI_Win_unlock(rank, win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  still_works(__LINE__);

  bad_communication_arguments();
  out_of_epoch();
  bad_creation();
  other_calls();
  cas_types();

  CHECK_MPI(MPI_Win_free(&win));
  if (rank == 0) printf("rma_bad_input: %d ranks OK\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
