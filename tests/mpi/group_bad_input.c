/* Bad input to the group calls, with MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF (group calls have no
 * communicator: MPI-4.0 raises their errors on MPI_COMM_SELF): out-of-range and duplicate ranks, invalid ranges,
 * null and freed handles (MPI_GROUP_EMPTY may be freed, see below). Each call returns an error of the right class
 * whose message names the call, the output handle is not turned into a group, and the groups involved still work
 * afterwards. Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;

/* The class for a range whose computed ranks fall outside the group. Strata: MPI_ERR_RANK, as for Group_incl (the
 * standard defines range_incl as incl of the expanded list and names no class); MPICH uses MPI_ERR_ARG. */
#ifdef STRATA
#define RANGE_RANK_ERR MPI_ERR_RANK
#else
#define RANGE_RANK_ERR MPI_ERR_ARG
#endif

static void expect_size(MPI_Group g, int want) {
  int n = -1;
  CHECK_MPI(MPI_Group_size(g, &n));
  CHECK(n == want);
}

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);

  MPI_Group wg, out = MPI_GROUP_NULL;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
  int n = -1, result = -1;

  /* Group_incl / Group_excl: out-of-range ranks, duplicates, negative n. */
  int ranks[4] = {0, size, 0, 0};
  TEST_EXPECT_ERROR(MPI_Group_incl(wg, 2, ranks, &out), MPI_ERR_RANK, "MPI_Group_incl");
  ranks[1] = -1;
  TEST_EXPECT_ERROR(MPI_Group_incl(wg, 2, ranks, &out), MPI_ERR_RANK, "MPI_Group_incl");
  ranks[1] = MPI_PROC_NULL - 10;
  TEST_EXPECT_ERROR(MPI_Group_excl(wg, 2, ranks, &out), MPI_ERR_RANK, "MPI_Group_excl");
  ranks[1] = size + 100;
  TEST_EXPECT_ERROR(MPI_Group_excl(wg, 2, ranks, &out), MPI_ERR_RANK, "MPI_Group_excl");
  ranks[0] = ranks[1] = size - 1; /* duplicate (MPI-4.0 7.3.2: the ranks must be distinct) */
#ifdef STRATA /* MPICH 4.0.2 does not check for duplicates in Group_incl/excl */
  TEST_EXPECT_ERROR(MPI_Group_incl(wg, 2, ranks, &out), MPI_ERR_RANK, "MPI_Group_incl");
  TEST_EXPECT_ERROR(MPI_Group_excl(wg, 2, ranks, &out), MPI_ERR_RANK, "MPI_Group_excl");
#endif
  ranks[0] = 0;
  TEST_EXPECT_ERROR(MPI_Group_incl(wg, -1, ranks, &out), MPI_ERR_ARG, "MPI_Group_incl");
  TEST_EXPECT_ERROR(MPI_Group_excl(wg, -3, ranks, &out), MPI_ERR_ARG, "MPI_Group_excl");
  /* rank 0 of the empty group does not exist */
  TEST_EXPECT_ERROR(MPI_Group_incl(MPI_GROUP_EMPTY, 1, ranks, &out), MPI_ERR_RANK, "MPI_Group_incl");
  CHECK(out == MPI_GROUP_NULL);

  /* Group_range_incl / Group_range_excl: stride 0, out-of-range first or last, overlapping ranges (a rank twice),
   * negative n. */
  int r1[1][3] = {{0, size - 1, 0}};
  TEST_EXPECT_ERROR(MPI_Group_range_incl(wg, 1, r1, &out), MPI_ERR_ARG, "MPI_Group_range_incl");
  TEST_EXPECT_ERROR(MPI_Group_range_excl(wg, 1, r1, &out), MPI_ERR_ARG, "MPI_Group_range_excl");
  int r2[1][3] = {{0, size, 1}};
  TEST_EXPECT_ERROR(MPI_Group_range_incl(wg, 1, r2, &out), RANGE_RANK_ERR, "MPI_Group_range_incl");
  TEST_EXPECT_ERROR(MPI_Group_range_excl(wg, 1, r2, &out), RANGE_RANK_ERR, "MPI_Group_range_excl");
  int r3[1][3] = {{-1, 0, 1}};
  TEST_EXPECT_ERROR(MPI_Group_range_incl(wg, 1, r3, &out), RANGE_RANK_ERR, "MPI_Group_range_incl");
  int r4[1][3] = {{size, 0, -1}};
  TEST_EXPECT_ERROR(MPI_Group_range_incl(wg, 1, r4, &out), RANGE_RANK_ERR, "MPI_Group_range_incl");
  int r5[2][3] = {{0, size - 1, 1}, {size - 1, size - 1, 1}}; /* size-1 twice */
  TEST_EXPECT_ERROR(MPI_Group_range_incl(wg, 2, r5, &out), RANGE_RANK_ERR, "MPI_Group_range_incl");
  TEST_EXPECT_ERROR(MPI_Group_range_excl(wg, 2, r5, &out), RANGE_RANK_ERR, "MPI_Group_range_excl");
  TEST_EXPECT_ERROR(MPI_Group_range_incl(wg, -1, r5, &out), MPI_ERR_ARG, "MPI_Group_range_incl");
  CHECK(out == MPI_GROUP_NULL);

  /* Group_translate_ranks: a rank outside group1, negative n. */
  int in[2] = {0, size}, tr[2] = {-5, -5};
  TEST_EXPECT_ERROR(MPI_Group_translate_ranks(wg, 2, in, wg, tr), MPI_ERR_RANK, "MPI_Group_translate_ranks");
  in[1] = -7;
  TEST_EXPECT_ERROR(MPI_Group_translate_ranks(wg, 2, in, wg, tr), MPI_ERR_RANK, "MPI_Group_translate_ranks");
  TEST_EXPECT_ERROR(MPI_Group_translate_ranks(wg, -1, in, wg, tr), MPI_ERR_ARG, "MPI_Group_translate_ranks");
  TEST_EXPECT_ERROR(MPI_Group_translate_ranks(MPI_GROUP_EMPTY, 1, in, wg, tr), MPI_ERR_RANK,
                    "MPI_Group_translate_ranks");

  /* Null and freed handles. */
  MPI_Group tmp;
  CHECK_MPI(MPI_Group_incl(wg, 1, &rank, &tmp));
  MPI_Group freed = tmp;
  CHECK_MPI(MPI_Group_free(&tmp));
  CHECK(tmp == MPI_GROUP_NULL);
  TEST_EXPECT_ERROR(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP, "MPI_Group_size");
  TEST_EXPECT_ERROR(MPI_Group_rank(MPI_GROUP_NULL, &n), MPI_ERR_GROUP, "MPI_Group_rank");
  TEST_EXPECT_ERROR(MPI_Group_union(MPI_GROUP_NULL, wg, &out), MPI_ERR_GROUP, "MPI_Group_union");
  TEST_EXPECT_ERROR(MPI_Group_intersection(wg, MPI_GROUP_NULL, &out), MPI_ERR_GROUP, "MPI_Group_intersection");
  TEST_EXPECT_ERROR(MPI_Group_difference(MPI_GROUP_NULL, MPI_GROUP_NULL, &out), MPI_ERR_GROUP,
                    "MPI_Group_difference");
  TEST_EXPECT_ERROR(MPI_Group_compare(wg, MPI_GROUP_NULL, &result), MPI_ERR_GROUP, "MPI_Group_compare");
  TEST_EXPECT_ERROR(MPI_Group_incl(MPI_GROUP_NULL, 1, ranks, &out), MPI_ERR_GROUP, "MPI_Group_incl");
  TEST_EXPECT_ERROR(MPI_Group_translate_ranks(wg, 1, ranks, MPI_GROUP_NULL, tr), MPI_ERR_GROUP,
                    "MPI_Group_translate_ranks");
  TEST_EXPECT_ERROR(MPI_Group_size((MPI_Group)MPI_COMM_WORLD, &n), MPI_ERR_GROUP, "MPI_Group_size");
#ifdef STRATA /* MPICH does not detect freed group handles (it reads freed memory) */
  TEST_EXPECT_ERROR(MPI_Group_size(freed, &n), MPI_ERR_GROUP, "MPI_Group_size");
  TEST_EXPECT_ERROR(MPI_Group_union(wg, freed, &out), MPI_ERR_GROUP, "MPI_Group_union");
  tmp = freed;
  TEST_EXPECT_ERROR(MPI_Group_free(&tmp), MPI_ERR_GROUP, "MPI_Group_free");
#endif
  (void)freed;
  CHECK(out == MPI_GROUP_NULL);

  /* Freeing the null handle is an error. Freeing MPI_GROUP_EMPTY is not: MPI-4.0 7.3.2 makes it the result of
   * Group_incl with n = 0 (and implementations return it for every empty result), and correct programs free the
   * groups they are given; so it succeeds, nulls the variable, and MPI_GROUP_EMPTY stays usable (checked below).
   * (Strata, MPICH and Open MPI agree; MPI-4.0 2.5.1 otherwise says predefined objects are not to be freed.) */
  MPI_Group null = MPI_GROUP_NULL, empty = MPI_GROUP_EMPTY;
  TEST_EXPECT_ERROR(MPI_Group_free(&null), MPI_ERR_GROUP, "MPI_Group_free");
  TEST_EXPECT_ERROR(MPI_Group_free(NULL), MPI_ERR_ARG, "MPI_Group_free");
  CHECK_MPI(MPI_Group_free(&empty));
  CHECK(empty == MPI_GROUP_NULL);

  /* NULL output pointers. */
  TEST_EXPECT_ERROR(MPI_Group_size(wg, NULL), MPI_ERR_ARG, "MPI_Group_size");
  TEST_EXPECT_ERROR(MPI_Group_compare(wg, wg, NULL), MPI_ERR_ARG, "MPI_Group_compare");
  TEST_EXPECT_ERROR(MPI_Group_union(wg, wg, NULL), MPI_ERR_ARG, "MPI_Group_union");

  /* Nothing damaged: the world group, MPI_GROUP_EMPTY and new groups all work. */
  expect_size(wg, size);
  CHECK_MPI(MPI_Group_rank(wg, &n));
  CHECK(n == rank);
  expect_size(MPI_GROUP_EMPTY, 0);
  CHECK_MPI(MPI_Group_rank(MPI_GROUP_EMPTY, &n));
  CHECK(n == MPI_UNDEFINED);
  int last = size - 1;
  CHECK_MPI(MPI_Group_incl(wg, 1, &last, &out));
  expect_size(out, 1);
  in[0] = 0;
  CHECK_MPI(MPI_Group_translate_ranks(out, 1, in, wg, tr));
  CHECK(tr[0] == size - 1);
  MPI_Group u;
  CHECK_MPI(MPI_Group_union(out, MPI_GROUP_EMPTY, &u));
  CHECK_MPI(MPI_Group_compare(u, out, &result));
  CHECK(result == MPI_IDENT);
  CHECK_MPI(MPI_Group_free(&u));
  CHECK_MPI(MPI_Group_free(&out));
  int r6[1][3] = {{size - 1, 0, -1}};
  CHECK_MPI(MPI_Group_range_incl(wg, 1, r6, &out));
  expect_size(out, size);
  CHECK_MPI(MPI_Group_free(&out));
  CHECK_MPI(MPI_Group_free(&wg));
  MPI_Comm d;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
  CHECK_MPI(MPI_Comm_group(d, &wg));
  expect_size(wg, size);
  CHECK_MPI(MPI_Group_free(&wg));
  CHECK_MPI(MPI_Comm_free(&d));

  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
