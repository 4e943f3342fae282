/* Window error handlers (MPI-4.0 9.3.2): a window starts with MPI_ERRORS_ARE_FATAL whatever its communicator's
 * handler; a user handler made by MPI_Win_create_errhandler gets the window and the code, for errors of the window
 * calls and for MPI_Win_call_errhandler; window and communicator handlers do not mix; MPI_Win_allocate_shared's
 * errors go to the communicator. With the argument "fatal": a bad call on a window with the default handler ends
 * the job, naming the call (registered as a failure test). Runs on any number of ranks of one node. */
#include "win_util.h"

static int win_calls, comm_calls, last_class;
static MPI_Win seen_win;

static void on_win_error(MPI_Win *win, int *code, ...) {
  ++win_calls;
  seen_win = *win;
  MPI_Error_class(*code, &last_class);
}

static void on_comm_error(MPI_Comm *comm, int *code, ...) {
  (void)comm;
  ++comm_calls;
  MPI_Error_class(*code, &last_class);
}

int main(int argc, char **argv) {
  int rank, size;
  test_init_returning(&argc, &argv, &rank, &size);
  int *base;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));

  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Win_get_errhandler(win, &eh));
  CHECK(eh == MPI_ERRORS_ARE_FATAL); /* not MPI_COMM_WORLD's MPI_ERRORS_RETURN */
  CHECK_MPI(MPI_Errhandler_free(&eh));

  if (argc > 1 && strcmp(argv[1], "fatal") == 0) {
    if (rank == 0) MPI_Win_lock(12345, 0, 0, win); /* must end the job */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    fprintf(stderr, "DID NOT ABORT\n");
    return 1;
  }

  /* A user handler: called with the window and the code, for window errors only. */
  MPI_Errhandler weh, ceh;
  CHECK_MPI(MPI_Win_create_errhandler(on_win_error, &weh));
  CHECK_MPI(MPI_Comm_create_errhandler(on_comm_error, &ceh));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN)); /* for the two errors below */
  TEST_EXPECT_ERROR(MPI_Win_set_errhandler(win, ceh), MPI_ERR_ARG, "MPI_Win_set_errhandler");
  TEST_EXPECT_ERROR(MPI_Comm_set_errhandler(MPI_COMM_WORLD, weh), MPI_ERR_ARG, "MPI_Comm_set_errhandler");
  CHECK_MPI(MPI_Win_set_errhandler(win, weh));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, ceh));
  CHECK_MPI(MPI_Errhandler_free(&weh)); /* the window keeps its own reference */
  CHECK(weh == MPI_ERRHANDLER_NULL);

  int err = MPI_Win_lock(0, 0, 0, win);
  CHECK(err != MPI_SUCCESS && win_calls == 1 && comm_calls == 0 && seen_win == win && last_class == MPI_ERR_LOCKTYPE);
  err = MPI_Win_unlock_all(win);
  CHECK(err != MPI_SUCCESS && win_calls == 2 && seen_win == win && last_class == MPI_ERR_RMA_SYNC);
  CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
  CHECK(win_calls == 3 && last_class == MPI_ERR_OTHER && comm_calls == 0);
  CHECK_MPI(MPI_Win_get_errhandler(win, &eh));
  CHECK(eh != MPI_ERRORS_ARE_FATAL && eh != MPI_ERRORS_RETURN && eh != MPI_ERRHANDLER_NULL);
  CHECK_MPI(MPI_Errhandler_free(&eh));

  /* MPI_Win_allocate_shared's errors go to the communicator's handler. */
  MPI_Win none = MPI_WIN_NULL;
  void *p;
  err = MPI_Win_allocate_shared(-1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &none);
  CHECK(err != MPI_SUCCESS && comm_calls == 1 && win_calls == 3 && last_class == MPI_ERR_SIZE);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Errhandler_free(&ceh));

  /* The predefined handlers suit windows too. */
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  TEST_EXPECT_ERROR(MPI_Win_lock(0, 0, 0, win), MPI_ERR_LOCKTYPE, "MPI_Win_lock");
  CHECK(win_calls == 3);
  CHECK_MPI(MPI_Win_free(&win));
  if (rank == 0) printf("win_errhandler: %d ranks OK\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
