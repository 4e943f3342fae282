/* rma: one-sided communication latency in portable MPI-3 C, so the same source runs on Strata, MPICH and Open MPI.
 *
 *   rma [sizes [batches]]        2 or more ranks; rank 0 is the origin, rank 1 the target, the others idle
 *     sizes    comma-separated bytes, multiples of 8, default 8,1024,65536
 *     batches  default 7 timed batches per case
 *
 * Cases, each on a window from MPI_Win_allocate ("allocate": shared memory where the library maps it on one node),
 * from MPI_Win_create on malloc'd memory ("create") and from MPI_Win_create_dynamic with malloc'd memory attached
 * ("dynamic"; displacements are the target's addresses):
 *   put     MPI_Put of `size` bytes + MPI_Win_flush, inside one MPI_Win_lock(SHARED) epoch (OSU's default)
 *   get     MPI_Get + MPI_Win_flush
 *   acc     MPI_Accumulate of size/8 doubles, MPI_SUM, + MPI_Win_flush
 *   fop     MPI_Fetch_and_op of one long long, MPI_SUM, + MPI_Win_flush (size 8 only)
 *   fence   MPI_Put + MPI_Win_fence on every rank (one active-target epoch; all ranks take part)
 * Per case one operation is checked first (a wrong result aborts with a nonzero exit), then batches: a batch is N
 * operations (N doubles until a batch lasts 2 ms), timed at the origin; the figure is the median over batches of
 * the time per operation. The target waits in MPI_Barrier meanwhile, which is where a library that needs the
 * target's progress gets it.
 *
 * Output: rank 0 prints "# library <MPI_Get_library_version's first line>", then per case "window op bytes us". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SIZES = 16, MAX_BATCHES = 64 };

static int rank;
static MPI_Aint target_disp; /* where the target's memory starts, as a displacement: 0, or its address (dynamic) */
static double scratch[MAX_BATCHES];

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void fail(const char *what) {
  fprintf(stderr, "rma: rank %d: %s\n", rank, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

typedef enum { OP_PUT, OP_GET, OP_ACC, OP_FOP, OP_FENCE, OPS } Op;
static const char *op_names[OPS] = {"put", "get", "acc", "fop", "fence"};

/* One operation of the case on the origin (rank 0), complete at the target when it returns. */
static void issue(Op op, MPI_Win win, char *buf, int bytes, long long *fetched) {
  const int n = bytes / 8;
  const long long one = 1;
  switch (op) {
    case OP_PUT: MPI_Put(buf, bytes, MPI_BYTE, 1, target_disp, bytes, MPI_BYTE, win); break;
    case OP_GET: MPI_Get(buf, bytes, MPI_BYTE, 1, target_disp, bytes, MPI_BYTE, win); break;
    case OP_ACC: MPI_Accumulate(buf, n, MPI_DOUBLE, 1, target_disp, n, MPI_DOUBLE, MPI_SUM, win); break;
    case OP_FOP: MPI_Fetch_and_op(&one, fetched, MPI_LONG_LONG, 1, target_disp, MPI_SUM, win); break;
    default: break;
  }
  MPI_Win_flush(1, win);
}

/* Time per operation of N operations in a row (the fence case: every rank runs it). */
static double batch(Op op, MPI_Win win, char *buf, int bytes, long n) {
  long long fetched = 0;
  const double start = MPI_Wtime();
  for (long i = 0; i < n; ++i) {
    if (op == OP_FENCE) {
      if (rank == 0) MPI_Put(buf, bytes, MPI_BYTE, 1, target_disp, bytes, MPI_BYTE, win);
      MPI_Win_fence(0, win);
    } else {
      issue(op, win, buf, bytes, &fetched);
    }
  }
  return (MPI_Wtime() - start) / (double)n;
}

/* The check: rank 0 writes a pattern by the operation and reads it back; a wrong value aborts. */
static void check(Op op, MPI_Win win, double *base, char *buf, int bytes) {
  const int n = bytes / 8;
  double *d = (double *)buf;
  long long fetched = -1;
  if (op == OP_FENCE || op == OP_FOP) return; /* fence: as put; fop: checked by the counter below */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    for (int i = 0; i < n; ++i) base[i] = op == OP_GET ? 3.0 * i : 1.0;
    MPI_Win_unlock(1, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    for (int i = 0; i < n; ++i) d[i] = 2.0 * i;
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    issue(op, win, buf, bytes, &fetched);
    if (op != OP_GET) MPI_Get(buf, n, MPI_DOUBLE, 1, target_disp, n, MPI_DOUBLE, win);
    MPI_Win_unlock(1, win);
    for (int i = 0; i < n; ++i) {
      const double want = op == OP_GET ? 3.0 * i : op == OP_PUT ? 2.0 * i : 2.0 * i + 1.0;
      if (d[i] != want) fail("wrong result");
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

static double run_case(Op op, MPI_Win win, double *base, char *buf, int bytes, int batches) {
  check(op, win, base, buf, bytes);
  if (op != OP_FENCE) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
  } else {
    MPI_Win_fence(0, win);
  }
  long n = 1;
  double median = 0;
  if (rank == 0 || op == OP_FENCE) {
    /* Warm up and size the batch: doubled until a batch lasts 2 ms (rank 0 decides; the fence case tells all). */
    for (int more = 1; more;) {
      const double t = batch(op, win, buf, bytes, n);
      more = t * (double)n < 2e-3 && n < (1L << 20);
      if (op == OP_FENCE) MPI_Bcast(&more, 1, MPI_INT, 0, MPI_COMM_WORLD);
      if (more) n *= 2;
    }
    for (int b = 0; b < batches; ++b) scratch[b] = batch(op, win, buf, bytes, n);
    qsort(scratch, (size_t)batches, sizeof(double), compare_doubles);
    median = scratch[batches / 2];
  }
  if (op != OP_FENCE) {
    if (rank == 0) MPI_Win_unlock(1, win);
    MPI_Barrier(MPI_COMM_WORLD); /* the target makes progress here */
  } else {
    MPI_Win_fence(0, win);
  }
  if (op == OP_FOP && rank == 1) { /* the counter went up by one per operation: at least the warm-up's */
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    if (*(long long *)base < 1) fail("fetch_and_op did not count");
    MPI_Win_unlock(1, win);
  }
  return median * 1e6;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) fail("needs 2 ranks or more");
  int sizes[MAX_SIZES], nsizes = 0, max_bytes = 8;
  char list[256];
  snprintf(list, sizeof list, "%s", argc > 1 ? argv[1] : "8,1024,65536");
  for (char *t = strtok(list, ","); t && nsizes < MAX_SIZES; t = strtok(NULL, ",")) {
    sizes[nsizes] = atoi(t);
    if (sizes[nsizes] < 8 || sizes[nsizes] % 8) fail("sizes must be multiples of 8");
    if (sizes[nsizes] > max_bytes) max_bytes = sizes[nsizes];
    ++nsizes;
  }
  int batches = argc > 2 ? atoi(argv[2]) : 7;
  if (batches < 1 || batches > MAX_BATCHES) fail("batches must be 1..64");
  if (rank == 0) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    version[strcspn(version, "\n")] = '\0';
    printf("# library %s\n", version);
  }
  char *buf = malloc((size_t)max_bytes);
  memset(buf, 0, (size_t)max_bytes);
  static const char *flavors[] = {"allocate", "create", "dynamic"};
  for (int flavor = 0; flavor < 3; ++flavor) {
    MPI_Win win;
    double *base = NULL;
    target_disp = 0;
    if (flavor == 0) {
      MPI_Win_allocate(max_bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    } else if (flavor == 1) {
      base = malloc((size_t)max_bytes);
      MPI_Win_create(base, max_bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    } else {
      base = malloc((size_t)max_bytes);
      MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
      MPI_Win_attach(win, base, max_bytes);
      MPI_Get_address(base, &target_disp);
      MPI_Bcast(&target_disp, 1, MPI_AINT, 1, MPI_COMM_WORLD);
    }
    memset(base, 0, (size_t)max_bytes);
    MPI_Barrier(MPI_COMM_WORLD);
    for (Op op = 0; op < OPS; ++op)
      for (int s = 0; s < nsizes; ++s) {
        if (op == OP_FOP && sizes[s] != 8) continue;
        const double us = run_case(op, win, base, buf, sizes[s], batches);
        if (rank == 0) printf("%s %s %d %.3f\n", flavors[flavor], op_names[op], sizes[s], us);
        fflush(stdout);
      }
    if (flavor == 2) MPI_Win_detach(win, base);
    MPI_Win_free(&win);
    if (flavor > 0) free(base);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
