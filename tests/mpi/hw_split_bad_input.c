/* Bad input to the hardware splits and the MPIX hierarchy calls, with MPI_ERRORS_RETURN: the right error class
 * and a message naming the call (and the bad value), MPI_COMM_NULL where the standard says so, mismatches between
 * processes reported on every process (never a hang), and nothing leaked: 10 000 splits keep the resident memory
 * flat. Also the answers of MPIX_Comm_get_min_hlevel and MPI_Get_hw_resource_info.
 *
 * Launch: mpiexec -n 1|2|4 --topology "synthetic:pack:2 [numa] l3:1 l2:2 l1:2 core:1 pu:1" --bind-to core, so rank
 * r is bound to core r of package 0: cores {0,1} and {2,3} share an L2, all four share the package's L3. */
#include "test_util.h"

static int rank, size;

static MPI_Info info_with(const char *value) {
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  if (value) CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", value));
  return info;
}

/* A HW_GUIDED split of WORLD with `value` (NULL: an info without the key) must give MPI_COMM_NULL everywhere. */
static void expect_null_split(const char *value) {
  MPI_Info info = info_with(value);
  MPI_Comm c = MPI_COMM_WORLD;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, info, &c));
  CHECK(c == MPI_COMM_NULL);
  CHECK_MPI(MPI_Info_free(&info));
}

static int comm_size_or_zero(MPI_Comm c) {
  int n = 0;
  if (c != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_size(c, &n));
  return n;
}

/* The error must name both differing values, on every process. */
static void expect_mismatch(int err, int want_class, const char *a, const char *b) {
  TEST_EXPECT_ERROR(err, want_class, "MPI_Comm_split_type");
  char msg[MPI_MAX_ERROR_STRING];
  int len;
  CHECK_MPI(MPI_Error_string(err, msg, &len));
  if (!strstr(msg, a) || !strstr(msg, b)) fprintf(stderr, "rank %d: message '%s' lacks %s or %s\n", rank, msg, a, b);
  CHECK(strstr(msg, a) && strstr(msg, b));
}

static long resident_kib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld", &kib) == 1) break;
  if (f) fclose(f);
  return kib;
}

static void check_arguments(void) {
  MPI_Comm out = MPI_COMM_WORLD, freed, tmp;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &tmp));
  freed = tmp;
  CHECK_MPI(MPI_Comm_free(&tmp));
  MPI_Info info = info_with("hwloc://Package"), stale;
  CHECK_MPI(MPI_Info_create(&stale));
  MPI_Info stale_copy = stale;
  CHECK_MPI(MPI_Info_free(&stale));

  TEST_EXPECT_ERROR(MPI_Comm_split_type(MPI_COMM_WORLD, 99, 0, info, &out), MPI_ERR_ARG, "split_type 99");
  TEST_EXPECT_ERROR(MPI_Comm_split_type(MPI_COMM_WORLD, -1, 0, info, &out), MPI_ERR_ARG, "MPI_Comm_split_type");
  TEST_EXPECT_ERROR(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, stale_copy, &out), MPI_ERR_INFO,
                    "MPI_Comm_split_type");
  TEST_EXPECT_ERROR(MPI_Comm_split_type(MPI_COMM_NULL, MPI_COMM_TYPE_HW_GUIDED, 0, info, &out), MPI_ERR_COMM,
                    "MPI_Comm_split_type");
  TEST_EXPECT_ERROR(MPI_Comm_split_type(freed, MPI_COMM_TYPE_HW_UNGUIDED, 0, info, &out), MPI_ERR_COMM,
                    "MPI_Comm_split_type");
  TEST_EXPECT_ERROR(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, NULL), MPI_ERR_ARG,
                    "MPI_Comm_split_type");
  TEST_EXPECT_ERROR(MPI_Get_hw_resource_info(NULL), MPI_ERR_ARG, "MPI_Get_hw_resource_info");

  MPI_Comm roots;
  int num, index, len, nlevels = -1;
  char type[MPI_MAX_INFO_VAL + 1];
  TEST_EXPECT_ERROR(MPIX_Comm_hsplit_with_roots(MPI_COMM_NULL, MPI_INFO_NULL, &out, &roots), MPI_ERR_COMM,
                    "MPIX_Comm_hsplit_with_roots");
  TEST_EXPECT_ERROR(MPIX_Comm_hsplit_with_roots(MPI_COMM_WORLD, stale_copy, &out, &roots), MPI_ERR_INFO,
                    "MPIX_Comm_hsplit_with_roots");
  TEST_EXPECT_ERROR(MPIX_Comm_hsplit_with_roots(MPI_COMM_WORLD, MPI_INFO_NULL, &out, NULL), MPI_ERR_ARG,
                    "MPIX_Comm_hsplit_with_roots");
  TEST_EXPECT_ERROR(MPIX_Comm_get_hlevel_info(MPI_COMM_WORLD, &num, &index, type, &len), MPI_ERR_COMM,
                    "was not made by a hardware split");
  TEST_EXPECT_ERROR(MPIX_Comm_get_hlevel_info(freed, &num, &index, type, &len), MPI_ERR_COMM,
                    "MPIX_Comm_get_hlevel_info");
  int ranks[2] = {rank, size};
  TEST_EXPECT_ERROR(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, 2, ranks, type, &len), MPI_ERR_RANK, "ranks[1]");
  TEST_EXPECT_ERROR(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, -1, ranks, type, &len), MPI_ERR_ARG, "nranks");
  TEST_EXPECT_ERROR(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, 1, NULL, type, &len), MPI_ERR_ARG,
                    "MPIX_Comm_get_min_hlevel");
  TEST_EXPECT_ERROR(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, 1, ranks, NULL, &len), MPI_ERR_ARG,
                    "MPIX_Comm_get_min_hlevel");
  MPI_Comm levels[4], conduits[4];
  TEST_EXPECT_ERROR(MPIX_Comm_hierarchy_create(MPI_COMM_WORLD, MPI_INFO_NULL, -1, &nlevels, levels, conduits),
                    MPI_ERR_ARG, "maxlevels");
  TEST_EXPECT_ERROR(MPIX_Comm_hierarchy_create(MPI_COMM_WORLD, MPI_INFO_NULL, 4, &nlevels, NULL, conduits),
                    MPI_ERR_ARG, "levelcomms");
  MPI_Info bad_conduit;
  CHECK_MPI(MPI_Info_create(&bad_conduit));
  const char *conduit_values[] = {"-1", "abc", "", "4000000000", "3x"};
  for (int i = 0; i < 5; ++i) {
    CHECK_MPI(MPI_Info_set(bad_conduit, "mpix_conduit_rank", conduit_values[i]));
    TEST_EXPECT_ERROR(MPIX_Comm_hierarchy_create(MPI_COMM_WORLD, bad_conduit, 4, &nlevels, levels, conduits),
                      MPI_ERR_INFO_VALUE, "mpix_conduit_rank");
  }
  char too_far[16];
  snprintf(too_far, sizeof too_far, "%d", size);
  CHECK_MPI(MPI_Info_set(bad_conduit, "mpix_conduit_rank", too_far));
  TEST_EXPECT_ERROR(MPIX_Comm_hierarchy_create(MPI_COMM_WORLD, bad_conduit, 4, &nlevels, levels, conduits),
                    MPI_ERR_INFO_VALUE, "mpix_conduit_rank");
  CHECK_MPI(MPI_Info_free(&bad_conduit));

  /* The communicators are still usable after all this. */
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, info, &out));
  CHECK(comm_size_or_zero(out) == size);
  CHECK_MPI(MPI_Comm_free(&out));
  CHECK_MPI(MPI_Info_free(&info));
}

/* Values that are valid info values but name no level: MPI_COMM_NULL everywhere, no error. */
static void check_unsupported_values(void) {
  char longest[MPI_MAX_INFO_VAL + 1];
  memset(longest, 'x', MPI_MAX_INFO_VAL);
  longest[MPI_MAX_INFO_VAL] = '\0';
  expect_null_split(longest);
  expect_null_split("");
  expect_null_split("\x01\x7f\xff");
  expect_null_split("hwloc://Package ");
  expect_null_split("Package,Core");
  expect_null_split(NULL);
  MPI_Comm c = MPI_COMM_WORLD;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, MPI_INFO_NULL, &c));
  CHECK(c == MPI_COMM_NULL);
  /* RESOURCE_GUIDED with a process set: NULL (no sessions). */
  MPI_Info pset;
  CHECK_MPI(MPI_Info_create(&pset));
  CHECK_MPI(MPI_Info_set(pset, "mpi_pset_name", "mpi://WORLD"));
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_RESOURCE_GUIDED, rank, pset, &c));
  CHECK(c == MPI_COMM_NULL);
  CHECK_MPI(MPI_Info_free(&pset));
}

/* Processes that disagree: every one of them gets the error and MPI_COMM_NULL. */
static void check_mismatches(void) {
  MPI_Comm c = MPI_COMM_WORLD;
  if (size >= 2) {
    MPI_Info info = info_with(rank % 2 ? "L3Cache" : "hwloc://Package");
    c = MPI_COMM_WORLD;
    expect_mismatch(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, info, &c),
                    MPI_ERR_INFO_VALUE, "\"hwloc://Package\"", "\"L3Cache\"");
    CHECK(c == MPI_COMM_NULL);
    CHECK_MPI(MPI_Info_free(&info));

    /* A value on one process, none on the others. */
    info = info_with(rank == size - 1 ? "Core" : NULL);
    expect_mismatch(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, info, &c),
                    MPI_ERR_INFO_VALUE, "no mpi_hw_resource_type key", "\"Core\"");
    CHECK_MPI(MPI_Info_free(&info));

    /* Different split types. */
    info = info_with("Package");
    expect_mismatch(MPI_Comm_split_type(MPI_COMM_WORLD, rank == 0 ? MPI_COMM_TYPE_HW_GUIDED : MPI_COMM_TYPE_SHARED,
                                        rank, info, &c),
                    MPI_ERR_ARG, "MPI_COMM_TYPE_HW_GUIDED", "MPI_COMM_TYPE_SHARED");
    CHECK(c == MPI_COMM_NULL);
    CHECK_MPI(MPI_Info_free(&info));

    /* Unknown values differing: still a mismatch. */
    info = info_with(rank == 0 ? "foo" : "bar");
    expect_mismatch(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, info, &c),
                    MPI_ERR_INFO_VALUE, "\"foo\"", "\"bar\"");
    CHECK_MPI(MPI_Info_free(&info));
  }
  /* Both RESOURCE_GUIDED keys on one process: everyone gets MPI_ERR_INFO. */
  MPI_Info both = info_with("Package");
  if (rank == 0) CHECK_MPI(MPI_Info_set(both, "mpi_pset_name", "mpi://WORLD"));
  TEST_EXPECT_ERROR(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_RESOURCE_GUIDED, rank, both, &c), MPI_ERR_INFO,
                    "mpi_pset_name");
  CHECK_MPI(MPI_Info_free(&both));

  /* Aliases of one level are the same value. */
  MPI_Info alias = info_with(rank == 0 ? "l2" : "hwloc://L2Cache");
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, alias, &c));
  CHECK(comm_size_or_zero(c) == (size >= 2 ? 2 : 1));
  CHECK_MPI(MPI_Comm_free(&c));
  CHECK_MPI(MPI_Info_free(&alias));
}

/* MPI_UNDEFINED next to hardware types: those processes get NULL, the others split among themselves. */
static void check_undefined_mixed(void) {
  MPI_Info info = info_with("hwloc://Machine");
  MPI_Comm c = MPI_COMM_WORLD;
  int odd = rank % 2;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, odd ? MPI_COMM_TYPE_HW_GUIDED : MPI_UNDEFINED, rank, info, &c));
  if (!odd) {
    CHECK(c == MPI_COMM_NULL);
  } else {
    int expected[4], n = 0;
    for (int r = 1; r < size; r += 2) expected[n++] = r;
    test_check_comm(c, expected, n, 0, 1);
    CHECK_MPI(MPI_Comm_free(&c));
  }
  /* HW_UNGUIDED beside MPI_UNDEFINED: the node's participants are a strict subset of WORLD once anyone abstains. */
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, odd ? MPI_COMM_TYPE_HW_UNGUIDED : MPI_UNDEFINED, rank, info, &c));
  if (!odd) CHECK(c == MPI_COMM_NULL);
  if (odd) {
    CHECK(comm_size_or_zero(c) == size / 2);
    CHECK_MPI(MPI_Comm_free(&c));
  }
  CHECK_MPI(MPI_Info_free(&info));
}

static void expect_min_hlevel(int n, const int *ranks, const char *want) {
  char type[MPI_MAX_INFO_VAL + 1];
  int len = -1;
  CHECK_MPI(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, n, ranks, type, &len));
  if (strcmp(type, want) != 0) fprintf(stderr, "rank %d: min hlevel of %d ranks is %s, expected %s\n", rank, n, type, want);
  CHECK(strcmp(type, want) == 0 && len == (int)strlen(want));
}

/* Rank r is on core r: alone it is confined down to its PU; {0,1} and {2,3} share an L2; all share the L3. */
static void check_queries(void) {
  int me[1] = {rank}, pair[2] = {rank, rank ^ 1}, all[4] = {0, 1, 2, 3}, other[1] = {(rank + 1) % size};
  expect_min_hlevel(1, me, "hwloc://PU");
  if (size >= 2) expect_min_hlevel(2, pair, "hwloc://L2Cache");
  if (size >= 4) expect_min_hlevel(4, all, "hwloc://L3Cache");
  if (size >= 2) expect_min_hlevel(1, other, "Unknown");
  expect_min_hlevel(0, me, "Unknown");

  MPI_Info hw;
  CHECK_MPI(MPI_Get_hw_resource_info(&hw));
  const char *levels[] = {"hwloc://Machine", "hwloc://Package", "hwloc://NUMANode", "hwloc://L3Cache",
                          "hwloc://L2Cache", "hwloc://L1Cache", "hwloc://Core", "hwloc://PU"};
  int nkeys = 0;
  CHECK_MPI(MPI_Info_get_nkeys(hw, &nkeys));
  CHECK(nkeys == 8);
  for (int i = 0; i < 8; ++i) {
    char value[16];
    int flag = 0;
    CHECK_MPI(MPI_Info_get(hw, levels[i], sizeof value - 1, value, &flag));
    CHECK(flag && strcmp(value, "true") == 0);
    /* Every key it reports is a value HW_GUIDED accepts. */
    MPI_Info info = info_with(levels[i]);
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, info, &c));
    CHECK(c != MPI_COMM_NULL);
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Info_free(&info));
  }
  CHECK_MPI(MPI_Info_free(&hw));

  /* An unknown level in mpix_hierarchy_levels is an error on every process, and nothing is left allocated. */
  MPI_Info bad;
  MPI_Comm levels_out[4], conduits[4];
  int nlevels = -1;
  CHECK_MPI(MPI_Info_create(&bad));
  CHECK_MPI(MPI_Info_set(bad, "mpix_hierarchy_levels", "hwloc://Machine,hwloc://Bogus"));
  TEST_EXPECT_ERROR(MPIX_Comm_hierarchy_create(MPI_COMM_WORLD, bad, 4, &nlevels, levels_out, conduits),
                    MPI_ERR_INFO_VALUE, "\"hwloc://Bogus\"");
  for (int i = 0; i < 4; ++i) CHECK(levels_out[i] == MPI_COMM_NULL && conduits[i] == MPI_COMM_NULL);
  CHECK(nlevels == 0);
  CHECK_MPI(MPI_Info_free(&bad));
  CHECK_MPI(MPIX_Comm_hierarchy_create(MPI_COMM_WORLD, MPI_INFO_NULL, 0, &nlevels, levels_out, conduits));
  CHECK(nlevels == 0);
}

/* 10 000 splits of each kind, freed: the resident size after them is the size after the first 500. */
static void check_no_leak(void) {
  MPI_Info info = info_with("hwloc://L2Cache"), out_info;
  CHECK_MPI(MPI_Info_create(&out_info));
  long before = 0;
  for (int i = 0; i < 10000; ++i) {
    if (i == 500) before = resident_kib();
    MPI_Comm c, r;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, info, &c));
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPIX_Comm_hsplit_with_roots(MPI_COMM_WORLD, out_info, &c, &r));
    if (c != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&c));
    if (r != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&r));
  }
  long after = resident_kib();
  if (after - before > 256) fprintf(stderr, "rank %d: resident %ld KiB -> %ld KiB\n", rank, before, after);
  CHECK(after - before <= 256); /* a leak of even 32 bytes per split would show as 600 KiB */
  CHECK_MPI(MPI_Info_free(&info));
  CHECK_MPI(MPI_Info_free(&out_info));
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(size <= 4);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  check_arguments();
  check_unsupported_values();
  check_mismatches();
  check_undefined_mixed();
  check_queries();
  check_no_leak();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
