/* MPI_Comm_compare (MPI-4.0 7.4.1): MPI_IDENT for the same communicator object (the same handle), MPI_CONGRUENT for
 * the same members in the same order (a duplicate), MPI_SIMILAR for the same members in another order (a split with
 * reversed keys), MPI_UNEQUAL otherwise (a subset). The predefined communicators follow the same rules: with one
 * process, MPI_COMM_WORLD and MPI_COMM_SELF are congruent. The relation is symmetric. Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;

static void expect(MPI_Comm a, MPI_Comm b, int want, const char *what) {
  int r1 = -1, r2 = -1;
  CHECK_MPI(MPI_Comm_compare(a, b, &r1));
  CHECK_MPI(MPI_Comm_compare(b, a, &r2));
  if (r1 != want || r2 != want)
    fprintf(stderr, "rank %d: compare %s: %d and %d, expected %d\n", rank, what, r1, r2, want);
  CHECK(r1 == want && r2 == want);
}

/* The same comparison for the groups: IDENT where the communicators are IDENT or CONGRUENT. */
static void expect_groups(MPI_Comm a, MPI_Comm b, int want_comm) {
  MPI_Group ga, gb;
  int result = -1, want = want_comm == MPI_CONGRUENT ? MPI_IDENT : want_comm;
  CHECK_MPI(MPI_Comm_group(a, &ga));
  CHECK_MPI(MPI_Comm_group(b, &gb));
  CHECK_MPI(MPI_Group_compare(ga, gb, &result));
  CHECK(result == want);
  CHECK_MPI(MPI_Group_free(&ga));
  CHECK_MPI(MPI_Group_free(&gb));
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

  /* IDENT: a communicator with itself, also through a copied handle. */
  expect(MPI_COMM_WORLD, MPI_COMM_WORLD, MPI_IDENT, "WORLD/WORLD");
  expect(MPI_COMM_SELF, MPI_COMM_SELF, MPI_IDENT, "SELF/SELF");
  MPI_Comm dup = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  MPI_Comm alias = dup;
  expect(dup, alias, MPI_IDENT, "dup/alias");

  /* CONGRUENT: duplicates, and a split that keeps everybody in order. */
  expect(MPI_COMM_WORLD, dup, MPI_CONGRUENT, "WORLD/dup");
  expect_groups(MPI_COMM_WORLD, dup, MPI_CONGRUENT);
  MPI_Comm dup2 = MPI_COMM_NULL, same = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(dup, &dup2));
  expect(dup, dup2, MPI_CONGRUENT, "dup/dup2");
  expect(MPI_COMM_WORLD, dup2, MPI_CONGRUENT, "WORLD/dup2");
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 1, 0, &same));
  expect(MPI_COMM_WORLD, same, MPI_CONGRUENT, "WORLD/split in order");

  /* SIMILAR: all members, reversed (with one process, reversing changes nothing: CONGRUENT). */
  MPI_Comm rev = MPI_COMM_NULL, rev2 = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
  int want_rev = size > 1 ? MPI_SIMILAR : MPI_CONGRUENT;
  expect(MPI_COMM_WORLD, rev, want_rev, "WORLD/reversed");
  expect_groups(MPI_COMM_WORLD, rev, want_rev);
  expect(dup2, rev, want_rev, "dup2/reversed");
  CHECK_MPI(MPI_Comm_split(dup, 0, size - rank, &rev2));
  expect(rev, rev2, MPI_CONGRUENT, "reversed/reversed again");
  /* A rotation is SIMILAR too (size > 1). */
  MPI_Comm rot = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, (rank + 1) % size, &rot));
  expect(MPI_COMM_WORLD, rot, size > 1 ? MPI_SIMILAR : MPI_CONGRUENT, "WORLD/rotated");
  expect(rev, rot, size > 2 ? MPI_SIMILAR : MPI_CONGRUENT, "reversed/rotated");

  /* UNEQUAL: a subset (the first half, rounded up) against WORLD; for size 1 there is no proper subset. */
  if (size > 1) {
    MPI_Comm half = MPI_COMM_NULL;
    int low = rank < (size + 1) / 2;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half));
    expect(MPI_COMM_WORLD, half, MPI_UNEQUAL, "WORLD/half");
    expect(rev, half, MPI_UNEQUAL, "reversed/half");
    expect_groups(MPI_COMM_WORLD, half, MPI_UNEQUAL);
    CHECK_MPI(MPI_Comm_free(&half));
  }

  /* The predefined communicators: SELF vs WORLD is CONGRUENT with one process, UNEQUAL otherwise; a duplicate of
   * SELF is CONGRUENT with SELF. */
  expect(MPI_COMM_WORLD, MPI_COMM_SELF, size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL, "WORLD/SELF");
  expect_groups(MPI_COMM_WORLD, MPI_COMM_SELF, size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL);
  MPI_Comm sdup = MPI_COMM_NULL, single = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &sdup));
  expect(MPI_COMM_SELF, sdup, MPI_CONGRUENT, "SELF/dup of SELF");
  expect(dup, sdup, size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL, "dup/dup of SELF");
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &single));
  expect(MPI_COMM_SELF, single, MPI_CONGRUENT, "SELF/split of one");

  /* After freeing one communicator, another's comparisons are unchanged. */
  CHECK_MPI(MPI_Comm_free(&dup));
  expect(MPI_COMM_WORLD, dup2, MPI_CONGRUENT, "WORLD/dup2 after free");
  expect(rev2, rev, MPI_CONGRUENT, "reversed pair after free");

  CHECK_MPI(MPI_Comm_free(&dup2));
  CHECK_MPI(MPI_Comm_free(&same));
  CHECK_MPI(MPI_Comm_free(&rev));
  CHECK_MPI(MPI_Comm_free(&rev2));
  CHECK_MPI(MPI_Comm_free(&rot));
  CHECK_MPI(MPI_Comm_free(&sdup));
  CHECK_MPI(MPI_Comm_free(&single));
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
