/* Bad input to the communicator calls, with MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF: each call
 * returns an error of the right class whose message names the call (TEST_EXPECT_ERROR), and the state is not
 * damaged: the communicators involved still work afterwards, a later valid call of the same kind succeeds.
 * Collective calls are made with the same bad arguments on every rank, so each rank fails locally.
 * Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;
static int *world_ids;

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);
  world_ids = test_malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) world_ids[r] = r;

  MPI_Comm out = MPI_COMM_NULL, freed = MPI_COMM_NULL, world = MPI_COMM_WORLD, self = MPI_COMM_SELF,
           null = MPI_COMM_NULL;
  int result = -1, flag = -1, n = -1;
  MPI_Request req = MPI_REQUEST_NULL;

  /* A freed communicator handle (a copy of it, since Comm_free nulls the variable). */
  MPI_Comm tmp;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &tmp));
  freed = tmp;
  CHECK_MPI(MPI_Comm_free(&tmp));

  /* Null, freed, garbage and wrong-kind communicators. */
  TEST_EXPECT_ERROR(MPI_Comm_dup(MPI_COMM_NULL, &out), MPI_ERR_COMM, "MPI_Comm_dup");
  TEST_EXPECT_ERROR(MPI_Comm_dup(freed, &out), MPI_ERR_COMM, "MPI_Comm_dup");
  TEST_EXPECT_ERROR(MPI_Comm_dup((MPI_Comm)MPI_INFO_ENV, &out), MPI_ERR_COMM, "MPI_Comm_dup");
  TEST_EXPECT_ERROR(MPI_Comm_idup(MPI_COMM_NULL, &out, &req), MPI_ERR_COMM, "MPI_Comm_idup");
  TEST_EXPECT_ERROR(MPI_Comm_dup_with_info(MPI_COMM_NULL, MPI_INFO_NULL, &out), MPI_ERR_COMM,
                    "MPI_Comm_dup_with_info");
  TEST_EXPECT_ERROR(MPI_Comm_split(MPI_COMM_NULL, 0, 0, &out), MPI_ERR_COMM, "MPI_Comm_split");
  TEST_EXPECT_ERROR(MPI_Comm_split_type(freed, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &out), MPI_ERR_COMM,
                    "MPI_Comm_split_type");
  TEST_EXPECT_ERROR(MPI_Comm_create(MPI_COMM_NULL, MPI_GROUP_EMPTY, &out), MPI_ERR_COMM, "MPI_Comm_create");
  TEST_EXPECT_ERROR(MPI_Comm_create_group(freed, MPI_GROUP_EMPTY, 0, &out), MPI_ERR_COMM, "MPI_Comm_create_group");
  TEST_EXPECT_ERROR(MPI_Comm_size(freed, &n), MPI_ERR_COMM, "MPI_Comm_size");
  TEST_EXPECT_ERROR(MPI_Comm_rank(freed, &n), MPI_ERR_COMM, "MPI_Comm_rank");
  TEST_EXPECT_ERROR(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_NULL, &result), MPI_ERR_COMM, "MPI_Comm_compare");
  TEST_EXPECT_ERROR(MPI_Comm_compare(freed, MPI_COMM_WORLD, &result), MPI_ERR_COMM, "MPI_Comm_compare");
  TEST_EXPECT_ERROR(MPI_Comm_test_inter(MPI_COMM_NULL, &flag), MPI_ERR_COMM, "MPI_Comm_test_inter");
  MPI_Group g = MPI_GROUP_NULL;
  TEST_EXPECT_ERROR(MPI_Comm_group(MPI_COMM_NULL, &g), MPI_ERR_COMM, "MPI_Comm_group");
  TEST_EXPECT_ERROR(MPI_Comm_set_name(MPI_COMM_NULL, "x"), MPI_ERR_COMM, "MPI_Comm_set_name");
  char name[MPI_MAX_OBJECT_NAME];
  TEST_EXPECT_ERROR(MPI_Comm_get_name(freed, name, &n), MPI_ERR_COMM, "MPI_Comm_get_name");
  MPI_Info info = MPI_INFO_NULL;
  TEST_EXPECT_ERROR(MPI_Comm_get_info(MPI_COMM_NULL, &info), MPI_ERR_COMM, "MPI_Comm_get_info");
  CHECK_MPI(MPI_Info_create(&info));
  TEST_EXPECT_ERROR(MPI_Comm_set_info(freed, info), MPI_ERR_COMM, "MPI_Comm_set_info");
  CHECK_MPI(MPI_Info_free(&info));

  /* Freeing: the null handle, a freed handle, the predefined communicators. The variable is left alone. */
  TEST_EXPECT_ERROR(MPI_Comm_free(&null), MPI_ERR_COMM, "MPI_Comm_free");
  tmp = freed;
  TEST_EXPECT_ERROR(MPI_Comm_free(&tmp), MPI_ERR_COMM, "MPI_Comm_free");
  TEST_EXPECT_ERROR(MPI_Comm_free(&world), MPI_ERR_COMM, "MPI_Comm_free");
  CHECK(world == MPI_COMM_WORLD);
  TEST_EXPECT_ERROR(MPI_Comm_free(&self), MPI_ERR_COMM, "MPI_Comm_free");
  CHECK(self == MPI_COMM_SELF);
  TEST_EXPECT_ERROR(MPI_Comm_free(NULL), MPI_ERR_ARG, "MPI_Comm_free");
  /* Disconnecting checks the same, before it waits for anyone. */
  TEST_EXPECT_ERROR(MPI_Comm_disconnect(&null), MPI_ERR_COMM, "MPI_Comm_disconnect");
  tmp = freed;
  TEST_EXPECT_ERROR(MPI_Comm_disconnect(&tmp), MPI_ERR_COMM, "MPI_Comm_disconnect");
  TEST_EXPECT_ERROR(MPI_Comm_disconnect(&world), MPI_ERR_COMM, "MPI_Comm_disconnect");
  CHECK(world == MPI_COMM_WORLD);
  TEST_EXPECT_ERROR(MPI_Comm_disconnect(NULL), MPI_ERR_ARG, "MPI_Comm_disconnect");

  /* Bad groups for Comm_create / Comm_create_group. */
  TEST_EXPECT_ERROR(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &out), MPI_ERR_GROUP, "MPI_Comm_create");
  MPI_Group fg, wg0;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg0));
  CHECK_MPI(MPI_Group_incl(wg0, 1, &rank, &fg));
  CHECK_MPI(MPI_Group_free(&wg0));
  MPI_Group freed_group = fg;
  CHECK_MPI(MPI_Group_free(&fg));
#ifdef STRATA /* MPICH does not detect freed group handles (it reads freed memory) */
  TEST_EXPECT_ERROR(MPI_Comm_create(MPI_COMM_WORLD, freed_group, &out), MPI_ERR_GROUP, "MPI_Comm_create");
#endif
  (void)freed_group;
  TEST_EXPECT_ERROR(MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_NULL, 0, &out), MPI_ERR_GROUP,
                    "MPI_Comm_create_group");
  MPI_Group wg;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
  TEST_EXPECT_ERROR(MPI_Comm_create_group(MPI_COMM_WORLD, wg, -1, &out), MPI_ERR_TAG, "MPI_Comm_create_group");

  /* Bad info handles. */
  MPI_Info finfo;
  CHECK_MPI(MPI_Info_create(&finfo));
  MPI_Info freed_info = finfo;
  CHECK_MPI(MPI_Info_free(&finfo));
#ifdef STRATA /* MPICH does not detect freed info handles either */
  TEST_EXPECT_ERROR(MPI_Comm_dup_with_info(MPI_COMM_WORLD, freed_info, &out), MPI_ERR_INFO,
                    "MPI_Comm_dup_with_info");
  MPI_Request no_request = MPI_REQUEST_NULL;
  TEST_EXPECT_ERROR(MPI_Comm_idup_with_info(MPI_COMM_WORLD, freed_info, &out, &no_request), MPI_ERR_INFO,
                    "MPI_Comm_idup_with_info");
  CHECK(no_request == MPI_REQUEST_NULL);
  TEST_EXPECT_ERROR(MPI_Comm_set_info(MPI_COMM_WORLD, freed_info), MPI_ERR_INFO, "MPI_Comm_set_info");
  TEST_EXPECT_ERROR(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, freed_info, &out), MPI_ERR_INFO,
                    "MPI_Comm_split_type");
#endif
  (void)freed_info;

  /* Bad arguments: negative color, unknown split type, NULL output pointers. */
#ifdef STRATA /* MPI-4.0 7.4.2: color must be non-negative or MPI_UNDEFINED; MPICH 4.0.2 does not check */
  TEST_EXPECT_ERROR(MPI_Comm_split(MPI_COMM_WORLD, -2, 0, &out), MPI_ERR_ARG, "MPI_Comm_split");
#endif
  TEST_EXPECT_ERROR(MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &out), MPI_ERR_ARG,
                    "MPI_Comm_split_type");
  TEST_EXPECT_ERROR(MPI_Comm_dup(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_dup");
  TEST_EXPECT_ERROR(MPI_Comm_idup(MPI_COMM_WORLD, &out, NULL), MPI_ERR_ARG, "MPI_Comm_idup");
  TEST_EXPECT_ERROR(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, NULL), MPI_ERR_ARG, "MPI_Comm_compare");
  TEST_EXPECT_ERROR(MPI_Comm_size(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_size");
  TEST_EXPECT_ERROR(MPI_Comm_get_name(MPI_COMM_WORLD, NULL, &n), MPI_ERR_ARG, "MPI_Comm_get_name");
  TEST_EXPECT_ERROR(MPI_Comm_set_name(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_set_name");
  TEST_EXPECT_ERROR(MPI_Comm_get_info(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_get_info");

  /* Nothing was damaged: the outputs were not touched into something valid, the predefined communicators keep
   * their names, and new communicators work. */
  CHECK(out == MPI_COMM_NULL);
  n = -1;
  CHECK_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &n));
  CHECK(strcmp(name, "MPI_COMM_WORLD") == 0);
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
  CHECK(n == size);
  CHECK_MPI(MPI_Comm_size(MPI_COMM_SELF, &n));
  CHECK(n == 1);
  MPI_Comm d;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
  test_check_comm(d, world_ids, size, 1, 1);
  test_comm_exchange(MPI_COMM_WORLD, world_ids, 2, 2);
  MPI_Comm s;
  CHECK_MPI(MPI_Comm_split(d, 0, -rank, &s));
  int *rev = test_malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) rev[r] = size - 1 - r;
  test_check_comm(s, rev, size, 3, 3);
  MPI_Comm c;
  CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, wg, 0, &c));
  test_check_comm(c, world_ids, size, 4, 4);
  CHECK_MPI(MPI_Comm_free(&c));
  CHECK_MPI(MPI_Comm_free(&s));
  CHECK_MPI(MPI_Comm_free(&d));
  CHECK_MPI(MPI_Group_free(&wg));
  free(rev);

  test_barrier();
  free(world_ids);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
