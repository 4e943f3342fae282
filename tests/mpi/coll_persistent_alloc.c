/* MPI_Start of a persistent collective allocates nothing: the init call built everything (issue 9). This program
 * replaces malloc, calloc, realloc and aligned allocation for the whole process (glibc: the executable's
 * definitions win over libc's for every library, libmpi and libstdc++ included) and counts the calls made while
 * counting is on. For Bcast, Reduce, Allreduce, Allgather and Alltoall of 4 bytes and 1 KiB, after a few warm-up runs
 * (the first ones may grow the progress engine's lists once), every MPI_Start is counted: the count must stay 0. The
 * counter itself is checked first (a malloc while counting must show). Results are checked too, against values
 * computed here. Strata's claim, not a portable MPI test. */
#define _GNU_SOURCE
#include <malloc.h>
#include <stddef.h>

#include "test_util.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

/* volatile: the compiler treats malloc as a builtin that touches no user variable */
static volatile int counting;
static volatile long allocations;

void *malloc(size_t size) {
  allocations += counting;
  return __libc_malloc(size);
}
void *calloc(size_t n, size_t size) {
  allocations += counting;
  return __libc_calloc(n, size);
}
void *realloc(void *p, size_t size) {
  allocations += counting;
  return __libc_realloc(p, size);
}
void *memalign(size_t alignment, size_t size) {
  allocations += counting;
  return __libc_memalign(alignment, size);
}
void *aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
  *out = memalign(alignment, size);
  return *out ? 0 : 12; /* ENOMEM */
}

enum { WARMUP = 3, COUNTED = 50, MAX_INTS = 256 * 64 };

static int rank, size;

/* Starts the request WARMUP times uncounted, then COUNTED times counting MPI_Start only; checks after every run. */
static void starts(MPI_Request *req, const char *what, void (*fill)(int run), void (*check)(int run)) {
  for (int run = 0; run < WARMUP + COUNTED; ++run) {
    fill(run);
    counting = run >= WARMUP;
    CHECK_MPI(MPI_Start(req));
    counting = 0;
    CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
    check(run);
  }
  if (allocations != 0) {
    char detail[160];
    snprintf(detail, sizeof detail, ": %s: %ld allocations in %d starts", what, allocations, COUNTED);
    test_fail(__FILE__, __LINE__, "MPI_Start allocated", detail);
  }
  CHECK_MPI(MPI_Request_free(req));
}

static int n;  /* ints per block */
static int send[MAX_INTS], recv[MAX_INTS];

static int value(int r, int run, int i) { return 100000 * run + 100 * r + i % 97; }

static void fill_own(int run) {
  for (int i = 0; i < n * size; ++i) send[i] = value(rank, run, i);
  for (int i = 0; i < n * size; ++i) recv[i] = -1;
}
static void fill_bcast(int run) {
  for (int i = 0; i < n; ++i) recv[i] = rank == 0 ? value(0, run, i) : -1;
}
static void check_bcast(int run) {
  for (int i = 0; i < n; ++i) CHECK(recv[i] == value(0, run, i));
}
static long sum_of(int run, int i) {
  long s = 0;
  for (int r = 0; r < size; ++r) s += value(r, run, i);
  return s;
}
static void check_reduce(int run) {
  if (rank == 0)
    for (int i = 0; i < n; ++i) CHECK(recv[i] == sum_of(run, i));
}
static void check_allreduce(int run) {
  for (int i = 0; i < n; ++i) CHECK(recv[i] == sum_of(run, i));
}
static void check_allgather(int run) {
  for (int r = 0; r < size; ++r)
    for (int i = 0; i < n; ++i) CHECK(recv[r * n + i] == value(r, run, i));
}
static void check_alltoall(int run) { /* block r of rank s: value(s, run, rank * n + i) */
  for (int r = 0; r < size; ++r)
    for (int i = 0; i < n; ++i) CHECK(recv[r * n + i] == value(r, run, rank * n + i));
}

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);
  CHECK(size <= 64);
  counting = 1; /* the counter must see an allocation */
  void *volatile p = malloc(16); /* volatile: the compiler may not drop the pair */
  counting = 0;
  CHECK(allocations == 1);
  free(p);
  allocations = 0;

  static const int bytes[] = {4, 1024};
  for (int b = 0; b < 2; ++b) {
    n = bytes[b] / (int)sizeof(int);
    MPI_Request req;
    CHECK_MPI(MPI_Bcast_init(recv, n, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    starts(&req, "Bcast_init", fill_bcast, check_bcast);
    CHECK_MPI(MPI_Reduce_init(send, recv, n, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    starts(&req, "Reduce_init", fill_own, check_reduce);
    CHECK_MPI(MPI_Allreduce_init(send, recv, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    starts(&req, "Allreduce_init", fill_own, check_allreduce);
    CHECK_MPI(MPI_Allgather_init(send, n, MPI_INT, recv, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    starts(&req, "Allgather_init", fill_own, check_allgather);
    CHECK_MPI(MPI_Alltoall_init(send, n, MPI_INT, recv, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    starts(&req, "Alltoall_init", fill_own, check_alltoall);
  }
  CHECK_MPI(MPI_Finalize());
  if (rank == 0) printf("coll_persistent_alloc: ok\n");
  return 0;
}
