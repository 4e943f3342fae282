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

/* An empty status (MPI-4.0 3.7.3): source ANY_SOURCE, tag ANY_TAG, count 0, not cancelled. */
static inline int test_status_is_empty(const MPI_Status *status) {
  int cancelled = 1;
  CHECK_MPI(MPI_Test_cancelled(status, &cancelled));
  return status->MPI_SOURCE == MPI_ANY_SOURCE && status->MPI_TAG == MPI_ANY_TAG &&
         test_count(status, MPI_BYTE) == 0 && !cancelled;
}

/* A status filled by a receive from MPI_PROC_NULL (MPI-4.0 3.11): source PROC_NULL, tag ANY_TAG, count 0. */
static inline int test_status_is_proc_null(const MPI_Status *status) {
  return status->MPI_SOURCE == MPI_PROC_NULL && status->MPI_TAG == MPI_ANY_TAG && test_count(status, MPI_BYTE) == 0;
}

/* Fills a status with garbage, so a call that forgets to write a field is caught. */
static inline void test_poison_status(MPI_Status *status) { memset(status, 0x5b, sizeof *status); }

#endif /* STRATA_TESTS_MPI_TEST_UTIL_H */
