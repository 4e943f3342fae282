/* Bad input to the window calls, with MPI_ERRORS_RETURN on MPI_COMM_WORLD, MPI_COMM_SELF and the window: each call
 * returns an error of the right class whose message names the call, and the window still works afterwards
 * (still_works: a lock_all epoch whose stores every process sees). MPI_Win_allocate_shared's errors go to the
 * communicator's handler, errors of an invalid window handle to MPI_COMM_SELF's, the others to the window's.
 * Collective calls get the same bad arguments on every rank, except where one rank alone is wrong on purpose
 * (every rank must then fail, none may hang). Runs on any number of ranks of one node. */
#include "win_util.h"

static int rank, size;
static MPI_Win win = MPI_WIN_NULL;
static int *base;

static void still_works(int line) {
  CHECK_MPI(MPI_Win_lock_all(0, win));
  *base = line * 1000 + rank;
  CHECK_MPI(MPI_Win_sync(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_sync(win));
  for (int r = 0; r < size; ++r) {
    MPI_Aint sz = -1;
    int du = -1, *p = NULL;
    CHECK_MPI(MPI_Win_shared_query(win, r, &sz, &du, &p));
    if (sz != (MPI_Aint)sizeof(int) || du != (int)sizeof(int) || *p != line * 1000 + r) {
      char detail[100];
      snprintf(detail, sizeof detail, ": rank %d's part holds %d", r, *p);
      test_fail(__FILE__, line, "the window does not work any more after the error on this line", detail);
    }
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_unlock_all(win));
}

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);
  MPI_Win out = MPI_WIN_NULL, null = MPI_WIN_NULL;
  void *p = NULL;
  MPI_Aint sz = 0;
  int du = 0, flag = 0, len = 0;

  /* ---- MPI_Win_allocate_shared: raised on the communicator. ---- */
  MPI_Comm freed_comm;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &freed_comm));
  MPI_Comm tmp = freed_comm;
  CHECK_MPI(MPI_Comm_free(&tmp));
  TEST_EXPECT_ERROR(MPI_Win_allocate_shared(8, 1, MPI_INFO_NULL, MPI_COMM_NULL, &p, &out), MPI_ERR_COMM,
                    "MPI_Win_allocate_shared");
  TEST_EXPECT_ERROR(MPI_Win_allocate_shared(8, 1, MPI_INFO_NULL, freed_comm, &p, &out), MPI_ERR_COMM,
                    "MPI_Win_allocate_shared");
  TEST_EXPECT_ERROR(MPI_Win_allocate_shared(-1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &out), MPI_ERR_SIZE,
                    "MPI_Win_allocate_shared");
  CHECK(out == MPI_WIN_NULL);
  /* Larger than any address space: refused before any memory is touched. */
  TEST_EXPECT_ERROR(MPI_Win_allocate_shared(INTPTR_MAX, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &out), MPI_ERR_SIZE,
                    "MPI_Win_allocate_shared");
  TEST_EXPECT_ERROR(MPI_Win_allocate_shared(8, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &out), MPI_ERR_DISP,
                    "MPI_Win_allocate_shared");
  TEST_EXPECT_ERROR(MPI_Win_allocate_shared(8, -4, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &out), MPI_ERR_DISP,
                    "MPI_Win_allocate_shared");
  TEST_EXPECT_ERROR(MPI_Win_allocate_shared(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, NULL, &out), MPI_ERR_ARG,
                    "MPI_Win_allocate_shared");
  TEST_EXPECT_ERROR(MPI_Win_allocate_shared(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, NULL), MPI_ERR_ARG,
                    "MPI_Win_allocate_shared");
  MPI_Info freed_info;
  CHECK_MPI(MPI_Info_create(&freed_info));
  MPI_Info info_tmp = freed_info;
  CHECK_MPI(MPI_Info_free(&info_tmp));
  TEST_EXPECT_ERROR(MPI_Win_allocate_shared(8, 1, freed_info, MPI_COMM_WORLD, &p, &out), MPI_ERR_INFO,
                    "MPI_Win_allocate_shared");
  /* One rank alone is wrong: every rank fails (with that rank's class), and no rank waits for the others. */
  TEST_EXPECT_ERROR(MPI_Win_allocate_shared(rank == size - 1 ? -8 : 8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &out),
                    MPI_ERR_SIZE, "MPI_Win_allocate_shared");
  CHECK(out == MPI_WIN_NULL);

  /* The window for the rest, its errors returned. */
  CHECK_MPI(MPI_Win_allocate_shared((MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  still_works(__LINE__);

  /* ---- Invalid window handles: raised on MPI_COMM_SELF. ---- */
  MPI_Win freed_win;
  int *q;
  CHECK_MPI(MPI_Win_allocate_shared(4, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &q, &freed_win));
  MPI_Win win_tmp = freed_win;
  CHECK_MPI(MPI_Win_free(&win_tmp));
  CHECK(win_tmp == MPI_WIN_NULL);
  EXPECT_FAILS(MPI_Win_shared_query(MPI_WIN_NULL, 0, &sz, &du, &p), MPI_ERR_WIN, "MPI_Win_shared_query");
  EXPECT_FAILS(MPI_Win_shared_query(freed_win, 0, &sz, &du, &p), MPI_ERR_WIN, "MPI_Win_shared_query");
  EXPECT_FAILS(MPI_Win_fence(0, (MPI_Win)MPI_COMM_WORLD), MPI_ERR_WIN, "MPI_Win_fence");
  EXPECT_FAILS(MPI_Win_sync(freed_win), MPI_ERR_WIN, "MPI_Win_sync");
  EXPECT_FAILS(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, MPI_WIN_NULL), MPI_ERR_WIN, "MPI_Win_lock");
  EXPECT_FAILS(MPI_Win_unlock(0, freed_win), MPI_ERR_WIN, "MPI_Win_unlock");
  EXPECT_FAILS(MPI_Win_lock_all(0, freed_win), MPI_ERR_WIN, "MPI_Win_lock_all");
  EXPECT_FAILS(MPI_Win_unlock_all(MPI_WIN_NULL), MPI_ERR_WIN, "MPI_Win_unlock_all");
  EXPECT_FAILS(MPI_Win_flush(0, freed_win), MPI_ERR_WIN, "MPI_Win_flush");
  EXPECT_FAILS(MPI_Win_flush_all(freed_win), MPI_ERR_WIN, "MPI_Win_flush_all");
  EXPECT_FAILS(MPI_Win_flush_local(0, MPI_WIN_NULL), MPI_ERR_WIN, "MPI_Win_flush_local");
  EXPECT_FAILS(MPI_Win_flush_local_all(freed_win), MPI_ERR_WIN, "MPI_Win_flush_local_all");
  MPI_Group g = MPI_GROUP_NULL;
  EXPECT_FAILS(MPI_Win_get_group(freed_win, &g), MPI_ERR_WIN, "MPI_Win_get_group");
  EXPECT_FAILS(MPI_Win_get_attr(MPI_WIN_NULL, MPI_WIN_BASE, &p, &flag), MPI_ERR_WIN, "MPI_Win_get_attr");
  EXPECT_FAILS(MPI_Win_set_name(freed_win, "x"), MPI_ERR_WIN, "MPI_Win_set_name");
  char name[MPI_MAX_OBJECT_NAME];
  EXPECT_FAILS(MPI_Win_get_name(MPI_WIN_NULL, name, &len), MPI_ERR_WIN, "MPI_Win_get_name");
  MPI_Info info = MPI_INFO_NULL;
  EXPECT_FAILS(MPI_Win_get_info(freed_win, &info), MPI_ERR_WIN, "MPI_Win_get_info");
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  EXPECT_FAILS(MPI_Win_get_errhandler(freed_win, &eh), MPI_ERR_WIN, "MPI_Win_get_errhandler");
  EXPECT_FAILS(MPI_Win_set_errhandler(MPI_WIN_NULL, MPI_ERRORS_RETURN), MPI_ERR_WIN, "MPI_Win_set_errhandler");
  EXPECT_FAILS(MPI_Win_call_errhandler(freed_win, MPI_ERR_OTHER), MPI_ERR_WIN, "MPI_Win_call_errhandler");
  EXPECT_FAILS(MPI_Win_free(&null), MPI_ERR_WIN, "MPI_Win_free");
  win_tmp = freed_win;
  EXPECT_FAILS(MPI_Win_free(&win_tmp), MPI_ERR_WIN, "MPI_Win_free");
  CHECK(win_tmp == freed_win); /* left alone */
  EXPECT_FAILS(MPI_Win_free(NULL), MPI_ERR_ARG, "MPI_Win_free");

  /* ---- Bad arguments with a valid window: raised on the window. ---- */
  EXPECT_FAILS(MPI_Win_shared_query(win, size, &sz, &du, &p), MPI_ERR_RANK, "MPI_Win_shared_query");
  EXPECT_FAILS(MPI_Win_shared_query(win, -5, &sz, &du, &p), MPI_ERR_RANK, "MPI_Win_shared_query");
  EXPECT_FAILS(MPI_Win_shared_query(win, 0, NULL, &du, &p), MPI_ERR_ARG, "MPI_Win_shared_query");
  EXPECT_FAILS(MPI_Win_shared_query(win, 0, &sz, NULL, &p), MPI_ERR_ARG, "MPI_Win_shared_query");
  EXPECT_FAILS(MPI_Win_shared_query(win, 0, &sz, &du, NULL), MPI_ERR_ARG, "MPI_Win_shared_query");
  EXPECT_FAILS(MPI_Win_fence(1, win), MPI_ERR_ASSERT, "MPI_Win_fence");
  EXPECT_FAILS(MPI_Win_fence(MPI_MODE_NOCHECK, win), MPI_ERR_ASSERT, "MPI_Win_fence");
  EXPECT_FAILS(MPI_Win_lock(0, 0, 0, win), MPI_ERR_LOCKTYPE, "MPI_Win_lock");
  EXPECT_FAILS(MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win), MPI_ERR_RANK, "MPI_Win_lock");
  EXPECT_FAILS(MPI_Win_lock(MPI_LOCK_SHARED, 0, MPI_MODE_NOSTORE, win), MPI_ERR_ASSERT, "MPI_Win_lock");
  EXPECT_FAILS(MPI_Win_lock_all(MPI_MODE_NOPRECEDE, win), MPI_ERR_ASSERT, "MPI_Win_lock_all");
  EXPECT_FAILS(MPI_Win_unlock(-7, win), MPI_ERR_RANK, "MPI_Win_unlock");
  EXPECT_FAILS(MPI_Win_flush(size, win), MPI_ERR_RANK, "MPI_Win_flush");
  EXPECT_FAILS(MPI_Win_flush_local(-3, win), MPI_ERR_RANK, "MPI_Win_flush_local");
  EXPECT_FAILS(MPI_Win_get_attr(win, MPI_TAG_UB, &p, &flag), MPI_ERR_KEYVAL, "MPI_Win_get_attr");
  EXPECT_FAILS(MPI_Win_get_attr(win, 12345, &p, &flag), MPI_ERR_KEYVAL, "MPI_Win_get_attr");
  EXPECT_FAILS(MPI_Win_get_attr(win, MPI_WIN_BASE, NULL, &flag), MPI_ERR_ARG, "MPI_Win_get_attr");
  EXPECT_FAILS(MPI_Win_get_attr(win, MPI_WIN_BASE, &p, NULL), MPI_ERR_ARG, "MPI_Win_get_attr");
  EXPECT_FAILS(MPI_Win_get_group(win, NULL), MPI_ERR_ARG, "MPI_Win_get_group");
  EXPECT_FAILS(MPI_Win_set_name(win, NULL), MPI_ERR_ARG, "MPI_Win_set_name");
  EXPECT_FAILS(MPI_Win_get_name(win, NULL, &len), MPI_ERR_ARG, "MPI_Win_get_name");
  EXPECT_FAILS(MPI_Win_get_name(win, name, NULL), MPI_ERR_ARG, "MPI_Win_get_name");
  EXPECT_FAILS(MPI_Win_set_info(win, MPI_INFO_NULL), MPI_ERR_INFO, "MPI_Win_set_info");
  EXPECT_FAILS(MPI_Win_set_info(win, freed_info), MPI_ERR_INFO, "MPI_Win_set_info");
  EXPECT_FAILS(MPI_Win_get_info(win, NULL), MPI_ERR_ARG, "MPI_Win_get_info");
  EXPECT_FAILS(MPI_Win_get_errhandler(win, NULL), MPI_ERR_ARG, "MPI_Win_get_errhandler");
  EXPECT_FAILS(MPI_Win_set_errhandler(win, 12345), MPI_ERR_ARG, "MPI_Win_set_errhandler");

  /* ---- Synchronisation out of its epoch: MPI_ERR_RMA_SYNC, and nothing changes. ---- */
  EXPECT_FAILS(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC, "MPI_Win_unlock_all");
  EXPECT_FAILS(MPI_Win_unlock(0, win), MPI_ERR_RMA_SYNC, "MPI_Win_unlock");
  EXPECT_FAILS(MPI_Win_flush(0, win), MPI_ERR_RMA_SYNC, "MPI_Win_flush");
  EXPECT_FAILS(MPI_Win_flush_all(win), MPI_ERR_RMA_SYNC, "MPI_Win_flush_all");
  EXPECT_FAILS(MPI_Win_flush_local(0, win), MPI_ERR_RMA_SYNC, "MPI_Win_flush_local");
  EXPECT_FAILS(MPI_Win_flush_local_all(win), MPI_ERR_RMA_SYNC, "MPI_Win_flush_local_all");
  CHECK_MPI(MPI_Win_lock_all(0, win));
  TEST_EXPECT_ERROR(MPI_Win_lock_all(0, win), MPI_ERR_RMA_SYNC, "MPI_Win_lock_all");
  TEST_EXPECT_ERROR(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win), MPI_ERR_RMA_SYNC, "MPI_Win_lock");
  TEST_EXPECT_ERROR(MPI_Win_unlock(0, win), MPI_ERR_RMA_SYNC, "MPI_Win_unlock");
  TEST_EXPECT_ERROR(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC, "MPI_Win_fence");
  win_tmp = win;
  TEST_EXPECT_ERROR(MPI_Win_free(&win_tmp), MPI_ERR_RMA_SYNC, "MPI_Win_free");
  CHECK(win_tmp == win);
  CHECK_MPI(MPI_Win_flush(size - 1, win)); /* the epoch is still open */
  CHECK_MPI(MPI_Win_unlock_all(win));
  still_works(__LINE__);
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
  TEST_EXPECT_ERROR(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win), MPI_ERR_RMA_SYNC, "MPI_Win_lock");
  TEST_EXPECT_ERROR(MPI_Win_lock_all(0, win), MPI_ERR_RMA_SYNC, "MPI_Win_lock_all");
  TEST_EXPECT_ERROR(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC, "MPI_Win_fence");
  if (size > 1) TEST_EXPECT_ERROR(MPI_Win_flush((rank + 1) % size, win), MPI_ERR_RMA_SYNC, "MPI_Win_flush");
  win_tmp = win;
  TEST_EXPECT_ERROR(MPI_Win_free(&win_tmp), MPI_ERR_RMA_SYNC, "MPI_Win_free");
  CHECK_MPI(MPI_Win_flush(rank, win));
  CHECK_MPI(MPI_Win_flush_all(win));
  CHECK_MPI(MPI_Win_unlock(rank, win));
  /* Before anyone's lock_all (in still_works) meets a process still waiting for its exclusive lock. */
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  still_works(__LINE__);

  /* The error message names the bad value. */
  char msg[MPI_MAX_ERROR_STRING];
  int err = MPI_Win_shared_query(win, size + 3, &sz, &du, &p), msglen = 0;
  CHECK_MPI(MPI_Error_string(err, msg, &msglen));
  char want[32];
  snprintf(want, sizeof want, "rank %d", size + 3);
  CHECK(strstr(msg, want) != NULL);
  still_works(__LINE__);

  CHECK_MPI(MPI_Win_free(&win));
  CHECK(win == MPI_WIN_NULL);
  if (rank == 0) printf("win_bad_input: %d ranks OK\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
