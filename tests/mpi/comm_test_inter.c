/* MPI_Comm_test_inter (MPI-4.0 7.6.1) on intracommunicators: the flag is false for the predefined communicators and
 * for every kind of new communicator (dup, idup, split, split_type, create, create_group). A null communicator is an
 * error (MPI_ERR_COMM). Intercommunicators: comm_intercomm.c.
 * MPI_Comm_get_parent (MPI-4.0 11.8.2) in a process mpiexec started: MPI_COMM_NULL; a NULL argument is MPI_ERR_ARG.
 * Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;

static void expect_intra(MPI_Comm comm) {
  int flag = -1;
  CHECK_MPI(MPI_Comm_test_inter(comm, &flag));
  CHECK(flag == 0);
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

  expect_intra(MPI_COMM_WORLD);
  expect_intra(MPI_COMM_SELF);

  MPI_Comm c[6];
  MPI_Request req;
  MPI_Group g;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c[0]));
  CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c[1], &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &c[2]));
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c[3]));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &g));
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, g, &c[4]));
  CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, 5, &c[5]));
  CHECK_MPI(MPI_Group_free(&g));
  for (int i = 0; i < 6; ++i) {
    expect_intra(c[i]);
    CHECK_MPI(MPI_Comm_free(&c[i]));
  }

  /* Bad input: the null communicator. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  int flag = -1;
  TEST_EXPECT_ERROR(MPI_Comm_test_inter(MPI_COMM_NULL, &flag), MPI_ERR_COMM, "MPI_Comm_test_inter");
  expect_intra(MPI_COMM_WORLD); /* still works */

  MPI_Comm parent = MPI_COMM_WORLD;
  CHECK_MPI(MPI_Comm_get_parent(&parent));
  CHECK(parent == MPI_COMM_NULL);
  TEST_EXPECT_ERROR(MPI_Comm_get_parent(NULL), MPI_ERR_ARG, "MPI_Comm_get_parent");

  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
