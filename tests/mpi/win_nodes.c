/* Shared-memory windows across simulated nodes (mpiexec --nodes 2): a window on a communicator that spans nodes
 * fails with MPI_ERR_RMA_SHARED on every process (none hangs), naming the nodes; split by MPI_COMM_TYPE_SHARED,
 * each node gets its own window holding exactly its processes' data. Needs at least 2 ranks on 2 nodes. */
#include "win_util.h"

int main(int argc, char **argv) {
  int rank, size;
  test_init_returning(&argc, &argv, &rank, &size);
  void *p = NULL;
  MPI_Win win = MPI_WIN_NULL;

  /* MPI_COMM_WORLD spans both nodes: every process gets the error. */
  int err = MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &win);
  TEST_EXPECT_ERROR(err, MPI_ERR_RMA_SHARED, "MPI_Win_allocate_shared");
  CHECK(win == MPI_WIN_NULL);
  char msg[MPI_MAX_ERROR_STRING];
  int len;
  CHECK_MPI(MPI_Error_string(err, msg, &len));
  CHECK(strstr(msg, "2 nodes") != NULL && strstr(msg, "node 0") != NULL);

  /* One window per node. */
  MPI_Comm node;
  int nrank, nsize;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
  CHECK_MPI(MPI_Comm_rank(node, &nrank));
  CHECK_MPI(MPI_Comm_size(node, &nsize));
  int *members = test_malloc(sizeof(int) * (size_t)nsize);
  CHECK_MPI(MPI_Allgather(&rank, 1, MPI_INT, members, 1, MPI_INT, node));
  int leaders = 0, is_leader = nrank == 0;
  CHECK_MPI(MPI_Allreduce(&is_leader, &leaders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(leaders == 2);

  for (int noncontig = 0; noncontig <= 1; ++noncontig) {
    MPI_Info info = MPI_INFO_NULL;
    if (noncontig) {
      CHECK_MPI(MPI_Info_create(&info));
      CHECK_MPI(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
    }
    const int count = 16 * (nrank + 1);
    int *mine = NULL;
    CHECK_MPI(MPI_Win_allocate_shared((MPI_Aint)(count * sizeof(int)), sizeof(int), info, node, &mine, &win));
    if (noncontig) CHECK_MPI(MPI_Info_free(&info));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int i = 0; i < count; ++i) mine[i] = rank * 10000 + i;
    CHECK_MPI(MPI_Win_sync(win));
    CHECK_MPI(MPI_Barrier(node));
    CHECK_MPI(MPI_Win_sync(win));
    for (int r = 0; r < nsize; ++r) {
      MPI_Aint sz;
      int du, *part;
      CHECK_MPI(MPI_Win_shared_query(win, r, &sz, &du, &part));
      CHECK(sz == (MPI_Aint)(16 * (r + 1) * sizeof(int)) && du == (int)sizeof(int));
      if (noncontig) CHECK((uintptr_t)part % test_page_size() == 0);
      for (int i = 0; i < 16 * (r + 1); ++i) CHECK(part[i] == members[r] * 10000 + i);
    }
    CHECK_MPI(MPI_Barrier(node));
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_NO_WINDOW_SEGMENT();
    CHECK_MPI(MPI_Win_free(&win));
  }

  /* A smaller communicator: ranks 0 and size-1 fail together exactly when they are on different nodes. */
  const int last_on_my_node = test_index_of(members, nsize, size - 1) != MPI_UNDEFINED;
  int apart = rank == 0 ? !last_on_my_node : 0;
  CHECK_MPI(MPI_Bcast(&apart, 1, MPI_INT, 0, MPI_COMM_WORLD));
  MPI_Comm pair;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank == 0 || rank == size - 1 ? 0 : MPI_UNDEFINED, rank, &pair));
  if (pair != MPI_COMM_NULL) {
    CHECK_MPI(MPI_Comm_set_errhandler(pair, MPI_ERRORS_RETURN));
    err = MPI_Win_allocate_shared(8, 1, MPI_INFO_NULL, pair, &p, &win);
    if (apart) {
      TEST_EXPECT_ERROR(err, MPI_ERR_RMA_SHARED, "MPI_Win_allocate_shared");
    } else {
      CHECK_MPI(err);
      CHECK_MPI(MPI_Win_free(&win));
    }
    CHECK_MPI(MPI_Comm_free(&pair));
  }

  free(members);
  CHECK_MPI(MPI_Comm_free(&node));
  if (rank == 0) printf("win_nodes: %d ranks OK\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
