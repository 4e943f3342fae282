/* Intercommunicators (MPI-4.0 7.6): MPI_COMM_WORLD split into its even and odd ranks, joined by
 * MPI_Intercomm_create (each half's rank 0 leads; the peer communicator is MPI_COMM_WORLD), then:
 *  - the queries: test_inter, size and rank (the local group), remote size, remote group (its world ranks);
 *  - point-to-point names the remote group: every rank sends its world rank to remote rank (local rank mod remote
 *    size), and each receives from MPI_ANY_SOURCE exactly the messages meant for it, the source being the sender's
 *    rank in its own group; a 1 MiB exchange between the leaders (rendezvous);
 *  - MPI_Intercomm_merge with the evens low, with the odds low, and with both alike (then the group holding world
 *    rank 0 comes first): the ranks follow that order, and an allreduce on the merge works;
 *  - refused: scan and MPI_Comm_create_group on the intercommunicator, remote queries on an intracommunicator.
 * Expectations are computed from the world ranks. Needs at least 2 ranks. */
#include "test_util.h"

static int rank, size;

/* World rank of rank i of the half with parity `color`. */
static int world_of(int color, int i) { return 2 * i + color; }
static int half_size(int color) { return color == 0 ? (size + 1) / 2 : size / 2; }

static void check_merge(MPI_Comm inter, int high, int evens_first) {
  MPI_Comm merged;
  int color = rank % 2, r = -1, n = -1, flag = -1;
  CHECK_MPI(MPI_Intercomm_merge(inter, high, &merged));
  CHECK_MPI(MPI_Comm_test_inter(merged, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Comm_size(merged, &n));
  CHECK_MPI(MPI_Comm_rank(merged, &r));
  const int first = evens_first ? 0 : 1;
  CHECK(n == size && r == (color == first ? rank / 2 : half_size(first) + rank / 2));
  /* Rank i of the merge is world rank world_of(...): a gather of world ranks says so on every rank. */
  int *all = test_malloc(sizeof(int) * (size_t)size);
  CHECK_MPI(MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, merged));
  for (int i = 0; i < size; ++i)
    CHECK(all[i] == (i < half_size(first) ? world_of(first, i) : world_of(1 - first, i - half_size(first))));
  free(all);
  CHECK_MPI(MPI_Comm_free(&merged));
}

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);
  CHECK(size >= 2);
  const int color = rank % 2, other = 1 - color;
  MPI_Comm local, inter;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &local));
  CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, world_of(other, 0), 17, &inter));

  int flag = -1, n = -1, r = -1;
  CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
  CHECK(flag == 1);
  CHECK_MPI(MPI_Comm_size(inter, &n));
  CHECK_MPI(MPI_Comm_rank(inter, &r));
  CHECK(n == half_size(color) && r == rank / 2);
  CHECK_MPI(MPI_Comm_remote_size(inter, &n));
  CHECK(n == half_size(other));
  MPI_Group remote, world;
  CHECK_MPI(MPI_Comm_remote_group(inter, &remote));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  int *ids = test_malloc(sizeof(int) * (size_t)size), *in_world = test_malloc(sizeof(int) * (size_t)size);
  for (int i = 0; i < n; ++i) ids[i] = i;
  CHECK_MPI(MPI_Group_translate_ranks(remote, n, ids, world, in_world));
  for (int i = 0; i < n; ++i) CHECK(in_world[i] == world_of(other, i));
  CHECK_MPI(MPI_Group_free(&remote));
  CHECK_MPI(MPI_Group_free(&world));

  /* Each rank sends to remote rank (local rank mod remote size); remote rank j's message comes to j mod ours. */
  const int mine = half_size(color), theirs = half_size(other);
  MPI_Request req;
  CHECK_MPI(MPI_Isend(&rank, 1, MPI_INT, r % theirs, 5, inter, &req));
  int expected = 0;
  for (int j = 0; j < theirs; ++j) expected += j % mine == r;
  for (int k = 0; k < expected; ++k) {
    int got = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 5, inter, &st));
    CHECK(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < theirs && st.MPI_SOURCE % mine == r);
    CHECK(got == world_of(other, st.MPI_SOURCE));
  }
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  if (r == 0) {
    const int len = 1 << 20;
    unsigned char *out = test_malloc(len), *back = test_malloc(len);
    test_fill(out, MPI_BYTE, len, rank, world_of(other, 0), 6);
    CHECK_MPI(MPI_Sendrecv(out, len, MPI_BYTE, 0, 6, back, len, MPI_BYTE, 0, 6, inter, MPI_STATUS_IGNORE));
    CHECK(test_verify(back, MPI_BYTE, len, world_of(other, 0), rank, 6) == -1);
    free(out);
    free(back);
  }

  check_merge(inter, color, 1); /* evens low */
  check_merge(inter, other, 0); /* odds low */
  MPI_Comm bad = MPI_COMM_NULL;
#ifdef STRATA
  /* MPI leaves the order open when both groups say the same; Strata puts world rank 0's group first. Scan and
   * MPI_Comm_create_group are for intracommunicators only. */
  check_merge(inter, 0, 1);
  TEST_EXPECT_ERROR(MPI_Scan(&rank, &n, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM, "MPI_Scan");
  TEST_EXPECT_ERROR(MPI_Comm_create_group(inter, MPI_GROUP_EMPTY, 0, &bad), MPI_ERR_COMM, "MPI_Comm_create_group");
  /* Calls for intercommunicators on an intracommunicator (MPICH and Open MPI do not check). */
  TEST_EXPECT_ERROR(MPI_Comm_remote_size(local, &n), MPI_ERR_COMM, "MPI_Comm_remote_size");
  TEST_EXPECT_ERROR(MPI_Intercomm_merge(local, 0, &bad), MPI_ERR_COMM, "MPI_Intercomm_merge");
  MPI_Group none = MPI_GROUP_NULL;
  TEST_EXPECT_ERROR(MPI_Comm_remote_group(local, &none), MPI_ERR_COMM, "MPI_Comm_remote_group");
  TEST_EXPECT_ERROR(MPI_Comm_remote_size(inter, NULL), MPI_ERR_ARG, "MPI_Comm_remote_size");
  TEST_EXPECT_ERROR(MPI_Intercomm_merge(inter, 0, NULL), MPI_ERR_ARG, "MPI_Intercomm_merge");
  TEST_EXPECT_ERROR(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, world_of(other, 0), 17, NULL), MPI_ERR_ARG,
                    "MPI_Intercomm_create");
  TEST_EXPECT_ERROR(MPI_Intercomm_create(inter, 0, MPI_COMM_WORLD, world_of(other, 0), 17, &bad), MPI_ERR_COMM,
                    "MPI_Intercomm_create");
#endif
  /* Errors every member sees alike. */
  TEST_EXPECT_ERROR(MPI_Send(&rank, 1, MPI_INT, theirs, 5, inter), MPI_ERR_RANK, "MPI_Send");
  TEST_EXPECT_ERROR(MPI_Intercomm_create(local, mine, MPI_COMM_WORLD, 0, 17, &bad), MPI_ERR_RANK,
                    "MPI_Intercomm_create");
  TEST_EXPECT_ERROR(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, world_of(other, 0), -3, &bad), MPI_ERR_TAG,
                    "MPI_Intercomm_create");
#ifdef STRATA
  /* peer_comm and remote_leader count at the leaders only; when both leaders' are wrong, every member of both groups
   * returns the error (MPICH and Open MPI return it at the leaders only, and the others wait). */
  TEST_EXPECT_ERROR(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, r == 0 ? size : 0, 17, &bad), MPI_ERR_RANK,
                    "MPI_Intercomm_create");
  TEST_EXPECT_ERROR(MPI_Intercomm_create(local, 0, r == 0 ? MPI_COMM_NULL : MPI_COMM_WORLD, 0, 17, &bad),
                    MPI_ERR_COMM, "MPI_Intercomm_create");
#endif
  CHECK(bad == MPI_COMM_NULL);

  /* Nothing broken: the intercommunicator still carries messages both ways between the leaders. */
  if (r == 0) {
    int back = -1;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, 0, 7, &back, 1, MPI_INT, 0, 7, inter, MPI_STATUS_IGNORE));
    CHECK(back == world_of(other, 0));
  }

  free(ids);
  free(in_world);
  CHECK_MPI(MPI_Comm_free(&inter));
  CHECK_MPI(MPI_Comm_free(&local));
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
