/* MPI_Finalize from an exit handler that the program registered before MPI_Init, as Dune::MPIHelper does: exit()
 * runs such a handler after the destructors of everything the library built since MPI_Init, so a library that keeps
 * its state in function-local statics crashes there (a double free, then SIGSEGV). The handler first uses MPI the
 * way a program's last words would: a reduction, a window, a derived type, a new communicator, an attribute whose
 * delete callback MPI_Finalize must call. A second handler, which runs after the first, checks that the first ran to
 * its end; the exit status says the rest. Passes with Open MPI 4.1.4 at 2 and 3 ranks (at 1 its MPI_Win_create fails
 * anywhere); MPICH 4.0.2 does everything but the window's put, which does not arrive in an exit handler. */
#include <unistd.h>

#include "test_util.h"

static int g_rank = -1, g_size = 0;
static int g_deleted = 0;   /* times the attribute's delete callback ran */
static int g_finished = 0;  /* the handler returned from MPI_Finalize */

static int delete_attribute(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)comm, (void)keyval, (void)extra;
  g_deleted += *(int *)value == 42;
  return MPI_SUCCESS;
}

static void finalize_at_exit(void) {
  int finalized = 1;
  CHECK_MPI(MPI_Finalized(&finalized));
  CHECK(!finalized);

  int sum = 0, one = g_rank + 1;
  CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(sum == g_size * (g_size + 1) / 2);

  int slot = -1;
  MPI_Win win;
  CHECK_MPI(MPI_Win_create(&slot, sizeof slot, sizeof slot, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Put(&g_rank, 1, MPI_INT, (g_rank + 1) % g_size, 0, 1, MPI_INT, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK(slot == (g_rank + g_size - 1) % g_size);
  CHECK_MPI(MPI_Win_free(&win));

  int pairs[4] = {g_rank, -1, g_rank * 10, -1}, got[4] = {-2, -2, -2, -2};
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  const int to = (g_rank + 1) % g_size, from = (g_rank + g_size - 1) % g_size;
  CHECK_MPI(MPI_Sendrecv(pairs, 1, every_other, to, 3, got, 1, every_other, from, 3, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE));
  CHECK(got[0] == from && got[1] == -2 && got[2] == from * 10 && got[3] == -2);
  CHECK_MPI(MPI_Type_free(&every_other));

  MPI_Comm halves;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, g_rank % 2, -g_rank, &halves));
  int half_rank = -1;
  CHECK_MPI(MPI_Comm_rank(halves, &half_rank));
  CHECK(half_rank == (g_size - 1 - g_rank) / 2);  /* keys reverse the order */
  CHECK_MPI(MPI_Comm_free(&halves));

  static int value = 42;
  int keyval;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_attribute, &keyval, NULL));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, &value));

  CHECK_MPI(MPI_Finalize());
  g_finished = 1;
}

static void check_finalized(void) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!g_finished || !finalized || g_deleted != 1) {
    fprintf(stderr, "finalize_atexit: rank %d: handler finished %d, MPI_Finalized %d, delete callback ran %d times\n",
            g_rank, g_finished, finalized, g_deleted);
    _exit(2);  /* exit() again from an exit handler is undefined */
  }
  if (g_rank == 0) printf("finalize_atexit: %d ranks OK\n", g_size);
}

int main(int argc, char **argv) {
  CHECK(atexit(check_finalized) == 0);  /* runs after finalize_at_exit: handlers run in reverse order */
  CHECK(atexit(finalize_at_exit) == 0);
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &g_rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &g_size));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  return 0;
}
