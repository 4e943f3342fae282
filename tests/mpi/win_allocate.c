/* Shared-memory windows on one node (MPI_Win_allocate_shared, MPI-4.0 12.2.3): creation with several size
 * patterns (all non-zero, some zero, only the last, all zero) in both layouts (contiguous, alloc_shared_noncontig),
 * MPI_Win_shared_query of every rank and of MPI_PROC_NULL, loads and stores seen across ranks (MPI_Win_sync +
 * MPI_Barrier, MPI_Win_fence, lock_all + flush), the attributes, group, name and info; windows on disjoint
 * communicators at once, on MPI_COMM_SELF, many alive at once; and no segment left in /dev/shm at any point.
 * Runs on any number of ranks of one node. */
#include "win_util.h"

enum { ALL_SIZES, SOME_ZERO, ONLY_LAST, ALL_ZERO, PATTERNS };
static const char *pattern_name[PATTERNS] = {"all non-zero", "some zero", "only the last", "all zero"};

static int rank, size;

/* Bytes rank r gives in a pattern: odd sizes too, so parts do not all end on word boundaries. */
static MPI_Aint part_size(int pattern, int r, int n) {
  switch (pattern) {
    case ALL_SIZES: return 8 * (r + 1) + r;
    case SOME_ZERO: return r % 2 == 0 ? 0 : 24 * r + 5;
    case ONLY_LAST: return r == n - 1 ? 100 : 0;
    default: return 0;
  }
}

static unsigned char byte_of(int round, int writer, MPI_Aint i) {
  return (unsigned char)(round * 71 + writer * 31 + i);
}

static void fill(unsigned char *p, MPI_Aint n, int round, int writer) {
  for (MPI_Aint i = 0; i < n; ++i) p[i] = byte_of(round, writer, i);
}

static void verify(const unsigned char *p, MPI_Aint n, int round, int writer, const char *how) {
  for (MPI_Aint i = 0; i < n; ++i)
    if (p[i] != byte_of(round, writer, i)) {
      char detail[200];
      snprintf(detail, sizeof detail, ": %s, byte %ld of rank %d's part is %d, expected %d", how, (long)i, writer,
               p[i], byte_of(round, writer, i));
      test_fail(__FILE__, __LINE__, "window contents", detail);
    }
}

/* Every rank's part through MPI_Win_shared_query, checked against the pattern and the layout rules. */
static void check_query(MPI_Win win, MPI_Comm comm, int pattern, int noncontig, unsigned char **bases) {
  int n, me;
  CHECK_MPI(MPI_Comm_size(comm, &n));
  CHECK_MPI(MPI_Comm_rank(comm, &me));
  MPI_Aint total = 0;
  for (int r = 0; r < n; ++r) total += part_size(pattern, r, n);
  int previous = -1; /* the last rank before r with a part that has an address */
  for (int r = 0; r < n; ++r) {
    MPI_Aint sz = -1;
    int du = -1;
    unsigned char *p = (unsigned char *)1;
    CHECK_MPI(MPI_Win_shared_query(win, r, &sz, &du, &p));
    CHECK(sz == part_size(pattern, r, n));
    CHECK(du == r + 1);
    /* No address without memory; a part of size 0 has one only where parts are contiguous (MPICH: never). */
    CHECK((p == NULL) == (total == 0 || (sz == 0 && noncontig)));
    bases[r] = p;
    if (p == NULL) continue;
    if (previous >= 0) {
      unsigned char *end = bases[previous] + part_size(pattern, previous, n);
      if (noncontig)
        CHECK((uintptr_t)p % test_page_size() == 0 && p >= end);
      else
        CHECK(p == end); /* contiguous: each part right after the previous one, even an empty one */
    }
    previous = r;
  }
  /* MPI_PROC_NULL: the lowest rank with a non-zero size; size 0 and NULL when there is none. */
  int lowest = -1;
  for (int r = n - 1; r >= 0; --r)
    if (part_size(pattern, r, n) > 0) lowest = r;
  MPI_Aint sz = -1;
  int du = -1;
  unsigned char *p = (unsigned char *)1;
  CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &du, &p));
  if (lowest < 0) {
    CHECK(sz == 0 && p == NULL);
  } else {
    CHECK(sz == part_size(pattern, lowest, n) && du == lowest + 1 && p == bases[lowest]);
  }
  (void)me;
}

static void check_attributes(MPI_Win win, void *base, MPI_Aint my_size, int my_unit) {
  void *value = NULL;
  int flag = 0;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &value, &flag));
  CHECK(flag && value == base);
  MPI_Aint *sz = NULL;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag));
  CHECK(flag && sz != NULL && *sz == my_size);
  int *unit = NULL;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag));
  CHECK(flag && unit != NULL && *unit == my_unit);
  int *flavor = NULL;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
  CHECK(flag && flavor != NULL && *flavor == MPI_WIN_FLAVOR_SHARED);
  int *model = NULL;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
  CHECK(flag && model != NULL && *model == MPI_WIN_UNIFIED);
}

static void check_group_name_info(MPI_Win win, MPI_Comm comm, int noncontig) {
  MPI_Group wg = MPI_GROUP_NULL, cg = MPI_GROUP_NULL;
  int result = -1;
  CHECK_MPI(MPI_Win_get_group(win, &wg));
  CHECK_MPI(MPI_Comm_group(comm, &cg));
  CHECK_MPI(MPI_Group_compare(wg, cg, &result));
  CHECK(result == MPI_IDENT);
  CHECK_MPI(MPI_Group_free(&wg));
  CHECK_MPI(MPI_Group_free(&cg));

  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  CHECK_MPI(MPI_Win_get_name(win, name, &len));
  CHECK(len == 0 && name[0] == '\0'); /* no name until one is set */
  CHECK_MPI(MPI_Win_set_name(win, "shared window"));
  CHECK_MPI(MPI_Win_get_name(win, name, &len));
  CHECK(len == 13 && strcmp(name, "shared window") == 0);
  char long_name[MPI_MAX_OBJECT_NAME + 40];
  memset(long_name, 'w', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = '\0';
  CHECK_MPI(MPI_Win_set_name(win, long_name));
  CHECK_MPI(MPI_Win_get_name(win, name, &len));
  CHECK(len == MPI_MAX_OBJECT_NAME - 1 && strncmp(name, long_name, (size_t)len) == 0);

  MPI_Info used = MPI_INFO_NULL, hints = MPI_INFO_NULL;
  char value[MPI_MAX_INFO_VAL + 1];
  int flag = 0;
  CHECK_MPI(MPI_Win_get_info(win, &used));
  CHECK_MPI(MPI_Info_get(used, "alloc_shared_noncontig", MPI_MAX_INFO_VAL, value, &flag));
  CHECK(flag && strcmp(value, noncontig ? "true" : "false") == 0);
  CHECK_MPI(MPI_Info_free(&used));
  /* New hints replace the old ones; the layout in force is still reported. */
  CHECK_MPI(MPI_Info_create(&hints));
  CHECK_MPI(MPI_Info_set(hints, "no_locks", "false"));
  CHECK_MPI(MPI_Win_set_info(win, hints));
  CHECK_MPI(MPI_Info_free(&hints));
  CHECK_MPI(MPI_Win_get_info(win, &used));
  CHECK_MPI(MPI_Info_get(used, "no_locks", MPI_MAX_INFO_VAL, value, &flag));
  CHECK(flag && strcmp(value, "false") == 0);
  CHECK_MPI(MPI_Info_get(used, "alloc_shared_noncontig", MPI_MAX_INFO_VAL, value, &flag));
  CHECK(flag && strcmp(value, noncontig ? "true" : "false") == 0);
  /* The hints in force include the defaults of MPI-4.0 12.2.1 that nobody set. */
  CHECK_MPI(MPI_Info_get(used, "accumulate_ordering", MPI_MAX_INFO_VAL, value, &flag));
  CHECK(flag && strcmp(value, "rar,raw,war,waw") == 0);
  CHECK_MPI(MPI_Info_get(used, "accumulate_ops", MPI_MAX_INFO_VAL, value, &flag));
  CHECK(flag && strcmp(value, "same_op_no_op") == 0);
  CHECK_MPI(MPI_Info_free(&used));
}

/* One window on `comm`: every check above, and data through the three synchronisation styles. */
static void one_window(MPI_Comm comm, int pattern, int noncontig, MPI_Info explicit_false) {
  int n, me;
  CHECK_MPI(MPI_Comm_size(comm, &n));
  CHECK_MPI(MPI_Comm_rank(comm, &me));
  MPI_Info info = explicit_false;
  if (noncontig) {
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
  }
  const MPI_Aint mine = part_size(pattern, me, n);
  unsigned char *base = (unsigned char *)1;
  MPI_Win win = MPI_WIN_NULL;
  CHECK_MPI(MPI_Win_allocate_shared(mine, me + 1, info, comm, &base, &win));
  CHECK(win != MPI_WIN_NULL);
  if (noncontig) CHECK_MPI(MPI_Info_free(&info));

  unsigned char **bases = test_malloc(sizeof(unsigned char *) * (size_t)n);
  check_query(win, comm, pattern, noncontig, bases);
  CHECK(base == bases[me]);
  check_attributes(win, base, mine, me + 1);
  check_group_name_info(win, comm, noncontig);

  /* 1. Stores, MPI_Win_sync, a barrier, MPI_Win_sync: every part is visible to every process. */
  fill(base, mine, 1, me);
  CHECK_MPI(MPI_Win_sync(win));
  CHECK_MPI(MPI_Barrier(comm));
  CHECK_MPI(MPI_Win_sync(win));
  for (int r = 0; r < n; ++r) verify(bases[r], part_size(pattern, r, n), 1, r, "after MPI_Win_sync + MPI_Barrier");

  /* 2. Fences: each process writes its right neighbour's part, and reads its own after the closing fence. */
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
  const int right = (me + 1) % n, left = (me + n - 1) % n;
  fill(bases[right], part_size(pattern, right, n), 2, me);
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, win));
  verify(base, mine, 2, left, "after MPI_Win_fence");
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

  /* 3. A passive-target epoch over everything, the hybrid MPI+MPI way (lock_all, flush, sync, barrier). */
  for (int nocheck = 0; nocheck <= 1; ++nocheck) {
    CHECK_MPI(MPI_Win_lock_all(nocheck ? MPI_MODE_NOCHECK : 0, win));
    fill(base, mine, 3 + nocheck, me);
    CHECK_MPI(MPI_Win_flush_all(win));
    CHECK_MPI(MPI_Win_flush_local_all(win));
    CHECK_MPI(MPI_Win_sync(win));
    CHECK_MPI(MPI_Barrier(comm));
    CHECK_MPI(MPI_Win_sync(win));
    for (int r = 0; r < n; ++r) {
      CHECK_MPI(MPI_Win_flush(r, win));
      CHECK_MPI(MPI_Win_flush_local(r, win));
      verify(bases[r], part_size(pattern, r, n), 3 + nocheck, r, "in a lock_all epoch");
    }
    CHECK_MPI(MPI_Barrier(comm)); /* nobody overwrites a part another process is still reading */
    CHECK_MPI(MPI_Win_unlock_all(win));
  }

  CHECK_NO_WINDOW_SEGMENT(); /* unlinked as soon as every process mapped it */
  CHECK_MPI(MPI_Win_free(&win));
  CHECK(win == MPI_WIN_NULL);
  free(bases);
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  MPI_Info explicit_false;
  CHECK_MPI(MPI_Info_create(&explicit_false));
  CHECK_MPI(MPI_Info_set(explicit_false, "alloc_shared_noncontig", "false"));

  for (int pattern = 0; pattern < PATTERNS; ++pattern)
    for (int noncontig = 0; noncontig <= 1; ++noncontig) {
      if (rank == 0)
        printf("window on MPI_COMM_WORLD: %s, %s\n", pattern_name[pattern], noncontig ? "noncontig" : "contig");
      one_window(MPI_COMM_WORLD, pattern, noncontig, pattern % 2 ? explicit_false : MPI_INFO_NULL);
    }

  /* Disjoint communicators at once (the two halves get the same context slot: the segments must still differ). */
  MPI_Comm half;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
  one_window(half, ALL_SIZES, 0, MPI_INFO_NULL);
  one_window(half, SOME_ZERO, 1, MPI_INFO_NULL);
  CHECK_MPI(MPI_Comm_free(&half));
  one_window(MPI_COMM_SELF, ALL_SIZES, 0, MPI_INFO_NULL);

  /* Many windows alive at once, freed in another order, and the communicator freed before its windows. */
  enum { ALIVE = 24 };
  MPI_Win wins[ALIVE];
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  for (int i = 0; i < ALIVE; ++i) {
    int *p = NULL;
    CHECK_MPI(MPI_Win_allocate_shared((MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, dup, &p, &wins[i]));
    *p = i * 1000 + rank;
  }
  CHECK_MPI(MPI_Comm_free(&dup));
  CHECK_NO_WINDOW_SEGMENT();
  for (int i = ALIVE - 1; i >= 0; --i) {
    MPI_Aint sz;
    int du, *p;
    CHECK_MPI(MPI_Win_shared_query(wins[i], size - 1, &sz, &du, &p));
    CHECK(sz == (MPI_Aint)sizeof(int) && du == (int)sizeof(int) && *p == i * 1000 + size - 1);
    CHECK_MPI(MPI_Win_free(&wins[i]));
  }
  for (int i = 0; i < 100; ++i) { /* create and free in a loop: context slots and names are reused */
    double *p = NULL;
    MPI_Win w;
    CHECK_MPI(MPI_Win_allocate_shared(i % 3 ? 4096 : 0, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &w));
    CHECK_MPI(MPI_Win_free(&w));
  }

  CHECK_MPI(MPI_Info_free(&explicit_false));
  CHECK_NO_WINDOW_SEGMENT();
  if (rank == 0) printf("win_allocate: %d ranks OK\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
