/* Attributes on MPI_COMM_SELF at MPI_Finalize (MPI-4.0 11.2, "Allowing User Functions at Process Termination"):
 * MPI_Finalize first frees MPI_COMM_SELF, calling the delete callback of every attribute on it in the reverse order
 * of setting, while MPI is still active (MPI_Finalized returns false inside the callbacks, and MPI calls work). An
 * attribute deleted before MPI_Finalize is not deleted again; keyvals freed before MPI_Finalize stay alive for
 * their attributes. After MPI_Finalize the program checks the log and exits 0 only if it is right.
 * Runs on any number of ranks. */
#include "test_util.h"

enum { NATTR = 5 };
static int order[16], norder, finalized_inside = -1, rank_inside = -1, bad_args;

static int del(MPI_Comm comm, int keyval, void *value, void *extra) {
  int idx = (int)(intptr_t)extra;
  if (comm != MPI_COMM_SELF || (intptr_t)value != 100 + idx) ++bad_args;
  (void)keyval;
  if (norder < 16) order[norder++] = idx;
  int f = -1;
  MPI_Finalized(&f);
  if (finalized_inside != 1) finalized_inside = f;
  int r = -1;
  if (MPI_Comm_rank(MPI_COMM_WORLD, &r) == MPI_SUCCESS) rank_inside = r;
  return MPI_SUCCESS;
}

int main(int argc, char **argv) {
  int rank;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  int kv[NATTR];
  for (int i = 0; i < NATTR; ++i) CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del, &kv[i], (void *)(intptr_t)i));
  /* set in the order 3, 0, 4, 1, 2; delete 4 before finalize */
  const int set_order[NATTR] = {3, 0, 4, 1, 2};
  for (int i = 0; i < NATTR; ++i)
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, kv[set_order[i]], (void *)(intptr_t)(100 + set_order[i])));
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_SELF, kv[4]));
  CHECK(norder == 1 && order[0] == 4);
  norder = 0;
  /* the keyvals may be freed before finalize; the attributes keep them alive */
  for (int i = 0; i < NATTR; ++i) CHECK_MPI(MPI_Comm_free_keyval(&kv[i]));
  test_barrier();
  CHECK_MPI(MPI_Finalize());

  const int want[4] = {2, 1, 0, 3}; /* reverse of the setting order, without 4 */
  int ok = norder == 4 && finalized_inside == 0 && rank_inside == rank && bad_args == 0;
  for (int i = 0; ok && i < 4; ++i) ok = order[i] == want[i];
  if (!ok) {
    fprintf(stderr, "rank %d: %d delete callbacks at MPI_Finalize (want 4), order", rank, norder);
    for (int i = 0; i < norder; ++i) fprintf(stderr, " %d", order[i]);
    fprintf(stderr, " (want 2 1 0 3); MPI_Finalized inside: %d (want 0); rank inside %d; bad arguments %d\n",
            finalized_inside, rank_inside, bad_args);
    return 1;
  }
  return 0;
}
