/* MPI_Comm_set_name / MPI_Comm_get_name (MPI-4.0 7.8): the predefined names "MPI_COMM_WORLD" and "MPI_COMM_SELF";
 * set/get round trips; the last name set wins (also over a predefined name); names are local (each rank names
 * its communicator differently); names do not propagate to a duplicate or a split (an unnamed communicator has the
 * empty name); a name of MPI_MAX_OBJECT_NAME-1 characters is kept whole, a longer one is truncated to that length
 * (truncation is what the standard prescribes, not an error); leading spaces are significant; resultlen is the
 * length of the returned string. Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;

/* Gets the name of comm, checks that resultlen matches and that the terminator is written, returns a copy. */
static const char *get_name(MPI_Comm comm) {
  static char name[MPI_MAX_OBJECT_NAME + 16];
  int len = -1;
  memset(name, 'x', sizeof name);
  CHECK_MPI(MPI_Comm_get_name(comm, name, &len));
  CHECK(len >= 0 && len <= MPI_MAX_OBJECT_NAME - 1);
  CHECK(name[len] == '\0' && (int)strlen(name) == len);
  return name;
}

static void expect_name(MPI_Comm comm, const char *want) {
  const char *got = get_name(comm);
  if (strcmp(got, want) != 0) fprintf(stderr, "rank %d: name '%s', expected '%s'\n", rank, got, want);
  CHECK(strcmp(got, want) == 0);
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(MPI_MAX_OBJECT_NAME >= 64);

  /* Predefined names. */
  expect_name(MPI_COMM_WORLD, "MPI_COMM_WORLD");
  expect_name(MPI_COMM_SELF, "MPI_COMM_SELF");

  /* A new communicator has no name; the parent's name does not propagate. */
  MPI_Comm dup = MPI_COMM_NULL, split = MPI_COMM_NULL, sdup = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  expect_name(dup, "");
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &sdup));
  expect_name(sdup, "");

  /* Set and get; names are local: every rank chooses its own. */
  char mine[64];
  snprintf(mine, sizeof mine, "dup on rank %d", rank);
  CHECK_MPI(MPI_Comm_set_name(dup, mine));
  expect_name(dup, mine);
  expect_name(MPI_COMM_WORLD, "MPI_COMM_WORLD"); /* the parent is unaffected */
  MPI_Comm dd = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(dup, &dd)); /* MPI-4.0 7.8: names do not propagate when duplicated */
  expect_name(dd, "");
  CHECK_MPI(MPI_Comm_split(dup, 0, rank, &split));
  expect_name(split, "");
  int rank_in_dup = -1;
  CHECK_MPI(MPI_Comm_rank(dup, &rank_in_dup));
  CHECK(rank_in_dup == rank); /* naming changes nothing else */

  /* The last name wins; the caller's buffer may change afterwards. */
  snprintf(mine, sizeof mine, "renamed %d", rank);
  CHECK_MPI(MPI_Comm_set_name(dup, mine));
  strcpy(mine, "scribbled");
  char want[64];
  snprintf(want, sizeof want, "renamed %d", rank);
  expect_name(dup, want);
  CHECK_MPI(MPI_Comm_set_name(dup, ""));
  expect_name(dup, "");

  /* Leading spaces are significant. */
  CHECK_MPI(MPI_Comm_set_name(split, "   spaced"));
  expect_name(split, "   spaced");

  /* Renaming predefined communicators is allowed; restore afterwards. */
  CHECK_MPI(MPI_Comm_set_name(MPI_COMM_WORLD, "my world"));
  expect_name(MPI_COMM_WORLD, "my world");
  CHECK_MPI(MPI_Comm_set_name(MPI_COMM_SELF, "my self"));
  expect_name(MPI_COMM_SELF, "my self");
  expect_name(sdup, "");
  CHECK_MPI(MPI_Comm_set_name(MPI_COMM_WORLD, "MPI_COMM_WORLD"));
  CHECK_MPI(MPI_Comm_set_name(MPI_COMM_SELF, "MPI_COMM_SELF"));
  expect_name(MPI_COMM_WORLD, "MPI_COMM_WORLD");

  /* Lengths: MPI_MAX_OBJECT_NAME-1 characters are kept whole; longer names are truncated to that many. */
  char longest[MPI_MAX_OBJECT_NAME + 100];
  for (int i = 0; i < MPI_MAX_OBJECT_NAME - 1; ++i) longest[i] = (char)('a' + (i + rank) % 26);
  longest[MPI_MAX_OBJECT_NAME - 1] = '\0';
  CHECK_MPI(MPI_Comm_set_name(dd, longest));
  expect_name(dd, longest);
  char too_long[MPI_MAX_OBJECT_NAME + 100];
  for (int i = 0; i < MPI_MAX_OBJECT_NAME + 99; ++i) too_long[i] = (char)('A' + i % 26);
  too_long[MPI_MAX_OBJECT_NAME + 99] = '\0';
  CHECK_MPI(MPI_Comm_set_name(dd, too_long));
  const char *got = get_name(dd);
  CHECK((int)strlen(got) == MPI_MAX_OBJECT_NAME - 1);
  CHECK(strncmp(got, too_long, MPI_MAX_OBJECT_NAME - 1) == 0);

  /* A freed and re-created communicator starts unnamed again (no name left behind in a reused slot). */
  CHECK_MPI(MPI_Comm_free(&dd));
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dd));
  expect_name(dd, "");

  CHECK_MPI(MPI_Comm_free(&dd));
  CHECK_MPI(MPI_Comm_free(&split));
  CHECK_MPI(MPI_Comm_free(&dup));
  CHECK_MPI(MPI_Comm_free(&sdup));
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
