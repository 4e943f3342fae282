/* Shared helpers of the multi-process MPI tests: assertions, data patterns, a p2p barrier, a shared PRNG.
 *
 * Every test computes its expectations independently: a buffer's content is a pure function of
 * (src, dst, tag, element index), so the receiver knows what each element must be without being told. */
#ifndef STRATA_TESTS_MPI_TEST_UTIL_H
#define STRATA_TESTS_MPI_TEST_UTIL_H

#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reports a failed check with file:line and the rank, then ends the whole job (MPI_Abort), or just this process
 * when MPI is not (or no longer) initialized. */
static inline void test_fail(const char *file, int line, const char *what, const char *detail) {
  int initialized = 0, finalized = 0, rank = -1;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  int active = initialized && !finalized;
  if (active) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  fprintf(stderr, "%s:%d: rank %d: CHECK failed: %s%s\n", file, line, rank, what, detail);
  fflush(stderr);
  if (active) MPI_Abort(MPI_COMM_WORLD, 1);
  exit(1);
}

/* CHECK: the expression must hold. */
#define CHECK(expr)                                                                                               \
  do {                                                                                                            \
    if (!(expr)) test_fail(__FILE__, __LINE__, #expr, "");                                                        \
  } while (0)

/* CHECK_MPI: the call must return MPI_SUCCESS; on failure the library's error string is printed too. */
#define CHECK_MPI(call)                                                                                           \
  do {                                                                                                            \
    int check_err_ = (call);                                                                                      \
    if (check_err_ != MPI_SUCCESS) {                                                                              \
      char check_msg_[MPI_MAX_ERROR_STRING + 32] = " -> ";                                                        \
      int check_len_ = 0;                                                                                         \
      MPI_Error_string(check_err_, check_msg_ + 4, &check_len_);                                                  \
      test_fail(__FILE__, __LINE__, #call, check_msg_);                                                          \
    }                                                                                                             \
  } while (0)

/* Tags at and above this value are reserved for the helpers below; tests use smaller tags. */
enum { TEST_TAG_BARRIER = 30000 };

/* ---- Deterministic mixing and a PRNG both ends of a message can run in lockstep. ---------------------------- */
static inline uint64_t test_mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

typedef struct {
  uint64_t state;
} test_rng;

static inline test_rng test_rng_make(uint64_t seed) {
  test_rng r = {test_mix64(seed)};
  return r;
}

static inline uint64_t test_rng_next(test_rng *r) {
  r->state += 0x9e3779b97f4a7c15ull;
  return test_mix64(r->state);
}

/* Uniform in [0, bound). */
static inline uint64_t test_rng_below(test_rng *r, uint64_t bound) { return bound ? test_rng_next(r) % bound : 0; }

/* ---- Data patterns ----------------------------------------------------------------------------------------- */
static inline uint64_t test_pattern(int src, int dst, int tag, uint64_t index) {
  uint64_t key = ((uint64_t)(uint32_t)src << 40) ^ ((uint64_t)(uint32_t)dst << 20) ^ (uint64_t)(uint32_t)tag;
  return test_mix64(test_mix64(key) ^ index);
}

/* Size of the predefined types these tests use (independent of MPI_Type_size, which is itself tested). */
static inline size_t test_type_size(MPI_Datatype type) {
  if (type == MPI_INT) return sizeof(int);
  if (type == MPI_DOUBLE) return sizeof(double);
  if (type == MPI_CHAR) return sizeof(char);
  if (type == MPI_BYTE) return 1;
  fprintf(stderr, "test_type_size: unexpected datatype\n");
  abort();
}

/* Writes element i of a (src, dst, tag) message. Doubles are integers / 4: exact, and never NaN. */
static inline void test_fill(void *buf, MPI_Datatype type, size_t count, int src, int dst, int tag) {
  for (size_t i = 0; i < count; ++i) {
    uint64_t v = test_pattern(src, dst, tag, i);
    if (type == MPI_INT)
      ((int *)buf)[i] = (int)(uint32_t)v;
    else if (type == MPI_DOUBLE)
      ((double *)buf)[i] = (double)(int32_t)(uint32_t)v / 4.0;
    else
      ((unsigned char *)buf)[i] = (unsigned char)v;
  }
}

/* Returns the index of the first element that differs from the pattern, or -1 if all match. */
static inline long long test_verify(const void *buf, MPI_Datatype type, size_t count, int src, int dst, int tag) {
  for (size_t i = 0; i < count; ++i) {
    uint64_t v = test_pattern(src, dst, tag, i);
    int ok;
    if (type == MPI_INT)
      ok = ((const int *)buf)[i] == (int)(uint32_t)v;
    else if (type == MPI_DOUBLE)
      ok = ((const double *)buf)[i] == (double)(int32_t)(uint32_t)v / 4.0;
    else
      ok = ((const unsigned char *)buf)[i] == (unsigned char)v;
    if (!ok) return (long long)i;
  }
  return -1;
}

/* malloc that never returns NULL (also for size 0), so tests can pass the buffer with count 0. */
static inline void *test_malloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "test_malloc(%zu) failed\n", bytes);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return p;
}

/* ---- A barrier made of point-to-point calls (the tests must not depend on collectives). -------------------- */
static inline void test_barrier(void) {
  int rank, size, token = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    for (int r = 1; r < size; ++r)
      CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, TEST_TAG_BARRIER, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int r = 1; r < size; ++r) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, r, TEST_TAG_BARRIER, MPI_COMM_WORLD));
  } else {
    CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, TEST_TAG_BARRIER, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, TEST_TAG_BARRIER, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  }
}

/* Count of `type` elements in a status (CHECKs that the call succeeds). */
static inline int test_count(const MPI_Status *status, MPI_Datatype type) {
  int count = -12345;
  CHECK_MPI(MPI_Get_count(status, type, &count));
  return count;
}

/* An empty status (MPI-4.0 3.7.3): source ANY_SOURCE, tag ANY_TAG, error MPI_SUCCESS, count 0, not cancelled. */
static inline int test_status_is_empty(const MPI_Status *status) {
  int cancelled = 1;
  CHECK_MPI(MPI_Test_cancelled(status, &cancelled));
  return status->MPI_SOURCE == MPI_ANY_SOURCE && status->MPI_TAG == MPI_ANY_TAG &&
         status->MPI_ERROR == MPI_SUCCESS && test_count(status, MPI_BYTE) == 0 && !cancelled;
}

/* A status filled by a receive from MPI_PROC_NULL (MPI-4.0 3.11): source PROC_NULL, tag ANY_TAG, count 0. */
static inline int test_status_is_proc_null(const MPI_Status *status) {
  return status->MPI_SOURCE == MPI_PROC_NULL && status->MPI_TAG == MPI_ANY_TAG && test_count(status, MPI_BYTE) == 0;
}

/* Fills a status with garbage, so a call that forgets to write a field is caught. */
static inline void test_poison_status(MPI_Status *status) { memset(status, 0x5b, sizeof *status); }

/* ---- Helpers of the communicator, group, info, attribute and error-handler tests (comm_*, group_*, info_*,
 *      attr_*, errhandler_*). ----------------------------------------------------------------------------------- */

/* The call must fail with an error code of class `want_class` whose message (MPI_Error_string) contains `name`
 * (the MPI call). Needs MPI_ERRORS_RETURN (or a returning handler) on the communicator the error is raised on. */
#define TEST_EXPECT_ERROR(call, want_class, name)                                                                 \
  test_expect_error_at((call), (want_class), (name), #call, __FILE__, __LINE__)

static inline void test_expect_error_at(int err, int want_class, const char *name, const char *text, const char *file,
                                        int line) {
  int cls = -1, len = -1;
  char msg[MPI_MAX_ERROR_STRING];
  msg[0] = '\0';
  if (err != MPI_SUCCESS) {
    CHECK_MPI(MPI_Error_class(err, &cls));
    CHECK_MPI(MPI_Error_string(err, msg, &len));
  }
  if (err == MPI_SUCCESS || cls != want_class || strstr(msg, name) == NULL || len != (int)strlen(msg)) {
    char detail[MPI_MAX_ERROR_STRING + 256];
    snprintf(detail, sizeof detail, ": returned %d, class %d (wanted %d), message '%s' (length %d; should name %s)",
             err, cls, want_class, msg, len, name);
    test_fail(file, line, text, detail);
  }
}

/* The same where the standard allows either of two classes: either is accepted, not any other. */
static inline void test_expect_either_at(int err, int class1, int class2, const char *name, const char *text,
                                         const char *file, int line) {
  int cls = -1;
  if (err != MPI_SUCCESS) CHECK_MPI(MPI_Error_class(err, &cls));
  test_expect_error_at(err, cls == class2 ? class2 : class1, name, text, file, line);
}

/* Stores pattern value v as one element of the basic type t (MPI_CHAR, MPI_SHORT, MPI_INT, else MPI_DOUBLE), where
 * datatype tests place their typemap entries. Doubles are integers / 4: exact, never NaN. */
static inline void test_write_basic(unsigned char *p, MPI_Datatype t, uint64_t v) {
  if (t == MPI_CHAR) {
    char x = (char)v;
    memcpy(p, &x, sizeof x);
  } else if (t == MPI_SHORT) {
    short x = (short)v;
    memcpy(p, &x, sizeof x);
  } else if (t == MPI_INT) {
    int x = (int)(uint32_t)v;
    memcpy(p, &x, sizeof x);
  } else {
    double x = (double)(int32_t)(uint32_t)v / 4.0;
    memcpy(p, &x, sizeof x);
  }
}

/* The start of a bad-input test: MPI_Init, this rank and the size, and MPI_ERRORS_RETURN on MPI_COMM_WORLD and
 * MPI_COMM_SELF, so that errors come back as return codes. */
static inline void test_init_returning(int *argc, char ***argv, int *rank, int *size) {
  CHECK_MPI(MPI_Init(argc, argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, size));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
}

/* After an error raised on `line` of `file`, valid collectives on MPI_COMM_WORLD still work: MPI_Allreduce and
 * MPI_Bcast, their results checked. The still_works() of the collective bad-input tests. */
static inline void test_collectives_still_work(const char *file, int line) {
  int rank, size;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  int sum = -1, v = rank == size - 1 ? 4242 : -1;
  int e1 = MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int e2 = MPI_Bcast(&v, 1, MPI_INT, size - 1, MPI_COMM_WORLD);
  if (e1 != MPI_SUCCESS || e2 != MPI_SUCCESS || sum != size * (size - 1) / 2 || v != 4242)
    test_fail(file, line, "the collectives do not work any more after the error on this line", "");
}

/* For bad-input tests that define `static void still_works(int line)` (a valid call proving the library
 * recovered): the call fails with `want_class` (or either of two classes) naming `name`, then still_works runs. */
#define EXPECT_FAILS(call, want_class, name)                                       \
  do {                                                                             \
    test_expect_error_at((call), (want_class), (name), #call, __FILE__, __LINE__); \
    still_works(__LINE__);                                                         \
  } while (0)
#define EXPECT_FAILS2(call, class1, class2, name)                                             \
  do {                                                                                        \
    test_expect_either_at((call), (class1), (class2), (name), #call, __FILE__, __LINE__); \
    still_works(__LINE__);                                                                    \
  } while (0)

/* A barrier of point-to-point calls on any communicator (tag TEST_TAG_BARRIER). */
static inline void test_barrier_comm(MPI_Comm comm) {
  int rank, size, token = 0;
  CHECK_MPI(MPI_Comm_rank(comm, &rank));
  CHECK_MPI(MPI_Comm_size(comm, &size));
  if (rank == 0) {
    for (int r = 1; r < size; ++r)
      CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, TEST_TAG_BARRIER, comm, MPI_STATUS_IGNORE));
    for (int r = 1; r < size; ++r) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, r, TEST_TAG_BARRIER, comm));
  } else {
    CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, TEST_TAG_BARRIER, comm));
    CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, TEST_TAG_BARRIER, comm, MPI_STATUS_IGNORE));
  }
}

/* Every member of `comm` sends one message to every member (itself included) and receives one from each, with
 * MPI_ANY_SOURCE. expected_world[r] is the MPI_COMM_WORLD rank the test expects at rank r of `comm`. Each message
 * carries {comm_id, sender's world rank, receiver's world rank, sender's rank in comm}, so a message delivered on
 * the wrong communicator (a shared context id: give concurrently used communicators different comm_ids) or from
 * the wrong process is detected. All members must call this with the same tag. */
static inline void test_comm_exchange(MPI_Comm comm, const int *expected_world, int comm_id, int tag) {
  int n = -1, me = -1, wr = -1;
  CHECK_MPI(MPI_Comm_size(comm, &n));
  CHECK_MPI(MPI_Comm_rank(comm, &me));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &wr));
  CHECK(me >= 0 && me < n);
  CHECK(expected_world[me] == wr);
  int *out = test_malloc(sizeof(int) * 4 * (size_t)n), *in = test_malloc(sizeof(int) * 4 * (size_t)n);
  char *seen = test_malloc((size_t)n);
  MPI_Request *reqs = test_malloc(sizeof(MPI_Request) * 2 * (size_t)n);
  MPI_Status *st = test_malloc(sizeof(MPI_Status) * 2 * (size_t)n);
  for (int r = 0; r < n; ++r) {
    in[4 * r] = in[4 * r + 1] = in[4 * r + 2] = in[4 * r + 3] = -77;
    seen[r] = 0;
    CHECK_MPI(MPI_Irecv(&in[4 * r], 4, MPI_INT, MPI_ANY_SOURCE, tag, comm, &reqs[r]));
  }
  for (int r = 0; r < n; ++r) {
    out[4 * r] = comm_id;
    out[4 * r + 1] = wr;
    out[4 * r + 2] = expected_world[r];
    out[4 * r + 3] = me;
    CHECK_MPI(MPI_Isend(&out[4 * r], 4, MPI_INT, r, tag, comm, &reqs[n + r]));
  }
  CHECK_MPI(MPI_Waitall(2 * n, reqs, st));
  for (int i = 0; i < n; ++i) {
    int src = st[i].MPI_SOURCE;
    if (!(src >= 0 && src < n && !seen[src] && st[i].MPI_TAG == tag && test_count(&st[i], MPI_INT) == 4 &&
          in[4 * i] == comm_id && in[4 * i + 1] == expected_world[src] && in[4 * i + 2] == wr &&
          in[4 * i + 3] == src)) {
      char detail[256];
      snprintf(detail, sizeof detail,
               ": comm_id %d, world rank %d got from source %d tag %d: {comm_id %d, from world %d, to world %d, "
               "from rank %d}",
               comm_id, wr, src, st[i].MPI_TAG, in[4 * i], in[4 * i + 1], in[4 * i + 2], in[4 * i + 3]);
      test_fail(__FILE__, __LINE__, "test_comm_exchange: a message arrived that this communicator did not send",
                detail);
    }
    seen[src] = 1;
  }
  free(out);
  free(in);
  free(seen);
  free(reqs);
  free(st);
}

/* Checks that `comm` is the communicator the test expects: its size is n, this process's rank r has world rank
 * expected_world[r], MPI_Group_translate_ranks maps every rank to the expected world rank, and every pair of
 * members can talk on it (test_comm_exchange). */
static inline void test_check_comm(MPI_Comm comm, const int *expected_world, int n, int comm_id, int tag) {
  int size = -1, rank = -1, wr = -1;
  CHECK(comm != MPI_COMM_NULL);
  CHECK_MPI(MPI_Comm_size(comm, &size));
  CHECK_MPI(MPI_Comm_rank(comm, &rank));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &wr));
  if (size != n || rank < 0 || rank >= n || expected_world[rank] != wr) {
    char detail[128];
    snprintf(detail, sizeof detail, ": world rank %d: size %d (expected %d), rank %d", wr, size, n, rank);
    test_fail(__FILE__, __LINE__, "test_check_comm: size or rank", detail);
  }
  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  CHECK_MPI(MPI_Comm_group(comm, &group));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  int *ranks = test_malloc(sizeof(int) * (size_t)n), *translated = test_malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; ++i) {
    ranks[i] = i;
    translated[i] = -77;
  }
  CHECK_MPI(MPI_Group_translate_ranks(group, n, ranks, world, translated));
  for (int i = 0; i < n; ++i) {
    if (translated[i] != expected_world[i]) {
      char detail[128];
      snprintf(detail, sizeof detail, ": rank %d translates to world rank %d, expected %d", i, translated[i],
               expected_world[i]);
      test_fail(__FILE__, __LINE__, "test_check_comm: membership", detail);
    }
  }
  CHECK_MPI(MPI_Group_free(&group));
  CHECK_MPI(MPI_Group_free(&world));
  CHECK(group == MPI_GROUP_NULL && world == MPI_GROUP_NULL);
  free(ranks);
  free(translated);
  test_comm_exchange(comm, expected_world, comm_id, tag);
}

/* The rank of `world_rank` in a list of world ranks, or MPI_UNDEFINED. */
static inline int test_index_of(const int *list, int n, int world_rank) {
  for (int i = 0; i < n; ++i)
    if (list[i] == world_rank) return i;
  return MPI_UNDEFINED;
}

#endif /* STRATA_TESTS_MPI_TEST_UTIL_H */
