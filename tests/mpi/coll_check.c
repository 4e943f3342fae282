/* STRATA_CHECK_COLL=1 (coll/call_check.hpp): collectives whose calls do not match across ranks fail on every rank
 * with an error of the mismatch's class whose message names the call and the first mismatching rank, instead of
 * hanging or corrupting memory; matching calls, including different datatypes with the same type signature, still
 * give the right results; after each error the collectives still work.
 *
 * Strata only: other MPIs do not check (the mismatches here would hang or corrupt memory there). Run with
 * `mpiexec -x STRATA_CHECK_COLL=1`; any number of ranks >= 2. */
#include <stdlib.h>

#include "test_util.h"

static int rank, size;

static void still_works(int line) { test_collectives_still_work(__FILE__, line); }

/* The error's message also names the first mismatch, the same on every rank. */
static void expect_mismatch(int err, int want_class, const char *call, const char *mismatch, int line) {
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  test_expect_error_at(err, want_class, call, "mismatched collective", __FILE__, line);
  CHECK_MPI(MPI_Error_string(err, msg, &len));
  if (strstr(msg, mismatch) == NULL) test_fail(__FILE__, line, "the message does not name the mismatch", msg);
  still_works(line);
}

static void matching_calls_work(void) {
  /* Bcast of 4 ints from the last rank; rank 0 receives them as 2 x contiguous(2, MPI_INT): the same signature. */
  MPI_Datatype pair;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  int v[4];
  for (int i = 0; i < 4; ++i) v[i] = rank == size - 1 ? 10 + i : -1;
  CHECK_MPI(rank == 0 ? MPI_Bcast(v, 2, pair, size - 1, MPI_COMM_WORLD)
                      : MPI_Bcast(v, 4, MPI_INT, size - 1, MPI_COMM_WORLD));
  for (int i = 0; i < 4; ++i) CHECK(v[i] == 10 + i);
  CHECK_MPI(MPI_Type_free(&pair));

  /* Gatherv to rank 1: rank i sends i + 1 ints. */
  int mine[64], *all = malloc(sizeof(int) * (size_t)(size * (size + 1) / 2));
  int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
  CHECK(all != NULL && counts != NULL && displs != NULL && size < 64);
  for (int i = 0, at = 0; i < size; at += ++i) {
    counts[i] = i + 1;
    displs[i] = at;
  }
  for (int i = 0; i <= rank; ++i) mine[i] = 100 * rank + i;
  CHECK_MPI(MPI_Gatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, 1, MPI_COMM_WORLD));
  if (rank == 1)
    for (int r = 0; r < size; ++r)
      for (int i = 0; i <= r; ++i) CHECK(all[displs[r] + i] == 100 * r + i);
  free(all);
  free(counts);
  free(displs);

  /* Nonblocking and repeated (the cached collective checks at every start). */
  for (int round = 0; round < 3; ++round) {
    int sum = -1;
    MPI_Request req;
    CHECK_MPI(MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(sum == size * (size - 1) / 2);
  }
}

static void mismatches_fail_everywhere(void) {
  int v[4] = {0, 0, 0, 0}, out[4];
  char expected[128];

  /* The last rank gives another root. */
  snprintf(expected, sizeof expected, "rank %d gave root 1 where rank 0 gave root 0", size - 1);
  expect_mismatch(MPI_Bcast(v, 1, MPI_INT, rank == size - 1 ? 1 : 0, MPI_COMM_WORLD), MPI_ERR_ROOT, "MPI_Bcast",
                  expected, __LINE__);

  /* Rank 1 reduces two ints where the others reduce one. */
  expect_mismatch(MPI_Allreduce(v, out, rank == 1 ? 2 : 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT,
                  "MPI_Allreduce", "rank 0 sends rank 1 4 bytes (1 basic elements), but rank 1 expects 8 bytes",
                  __LINE__);

  /* Another operator on rank 1. */
  expect_mismatch(MPI_Allreduce(v, out, 1, MPI_INT, rank == 1 ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP,
                  "MPI_Allreduce", "rank 1 gave MPI_MAX where rank 0 gave MPI_SUM", __LINE__);

  /* Rank 0 broadcasts where the others reduce: each rank's error names its own call. */
  int err = rank == 0 ? MPI_Bcast(v, 1, MPI_INT, 0, MPI_COMM_WORLD)
                      : MPI_Reduce(v, out, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  expect_mismatch(err, MPI_ERR_OTHER, rank == 0 ? "MPI_Bcast" : "MPI_Reduce",
                  "rank 1 called reduce where rank 0 called bcast", __LINE__);

  /* Nonblocking, same size, other type: the error comes out of MPI_Wait. */
  MPI_Request req;
  CHECK_MPI(MPI_Iallgather(v, 1, rank == 0 ? MPI_FLOAT : MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD, &req));
  expect_mismatch(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_ERR_TYPE, "MPI_Wait",
                  "rank 0 sends rank 1 4 bytes (1 basic elements) whose type signature differs", __LINE__);
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(size >= 2);
  const char *check = getenv("STRATA_CHECK_COLL");
  CHECK(check != NULL && strcmp(check, "1") == 0);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  matching_calls_work();
  mismatches_fail_everywhere();
  CHECK_MPI(MPI_Finalize());
  if (rank == 0) printf("coll_check: ok\n");
  return 0;
}
