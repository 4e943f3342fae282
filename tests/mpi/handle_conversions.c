/* Handle conversions between C and Fortran (MPI-4.0 19.3.4): for every kind of handle, a real object converted to
 * Fortran and back is the same object (proved by using the converted handle: compare, query, complete), and the
 * null handles come back null. Status conversions (19.3.5): a received status through the Fortran and mpi_f08 forms
 * and back keeps what MPI_Get_count, MPI_Get_elements_x and MPI_Test_cancelled read, with source, tag and error at
 * the MPI_F_* indices; the IGNORE constants are refused. Runs on any number of ranks. */
#include "test_util.h"

static void add_one(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)type;
  for (int i = 0; i < *len; ++i) ((int *)inout)[i] += ((int *)in)[i];
}

static void on_error(MPI_Comm *comm, int *code, ...) {
  (void)comm;
  (void)code;
}

/* The fields a status's readers see, compared between two statuses. */
static void check_same_status(const MPI_Status *a, const MPI_Status *b) {
  int ca = -1, cb = -2, xa = -3, xb = -4;
  MPI_Count ea = -1, eb = -2;
  CHECK(a->MPI_SOURCE == b->MPI_SOURCE && a->MPI_TAG == b->MPI_TAG && a->MPI_ERROR == b->MPI_ERROR);
  CHECK_MPI(MPI_Get_count(a, MPI_SHORT, &ca));
  CHECK_MPI(MPI_Get_count(b, MPI_SHORT, &cb));
  CHECK_MPI(MPI_Get_elements_x(a, MPI_BYTE, &ea));
  CHECK_MPI(MPI_Get_elements_x(b, MPI_BYTE, &eb));
  CHECK_MPI(MPI_Test_cancelled(a, &xa));
  CHECK_MPI(MPI_Test_cancelled(b, &xb));
  CHECK(ca == cb && ea == eb && xa == xb);
}

static void check_status_conversions(MPI_Comm comm, int rank) {
  short out[9] = {0}, in[9];
  MPI_Status st, back;
  CHECK_MPI(MPI_Sendrecv(out, 9, MPI_SHORT, rank, 7, in, 9, MPI_SHORT, rank, 7, comm, &st));
  st.MPI_ERROR = MPI_ERR_TRUNCATE; /* a value the receive leaves alone: it must travel too */
  MPI_Fint f[MPI_F_STATUS_SIZE];
  CHECK_MPI(MPI_Status_c2f(&st, f));
  CHECK(f[MPI_F_SOURCE] == rank && f[MPI_F_TAG] == 7 && f[MPI_F_ERROR] == MPI_ERR_TRUNCATE);
  memset(&back, 0x5b, sizeof back);
  CHECK_MPI(MPI_Status_f2c(f, &back));
  check_same_status(&st, &back);
  int count = -1;
  CHECK_MPI(MPI_Get_count(&back, MPI_SHORT, &count));
  CHECK(count == 9);

  MPI_F08_status f08, f08_from_f;
  CHECK_MPI(MPI_Status_c2f08(&st, &f08));
  CHECK(f08.MPI_SOURCE == rank && f08.MPI_TAG == 7 && f08.MPI_ERROR == MPI_ERR_TRUNCATE);
  memset(&back, 0x5b, sizeof back);
  CHECK_MPI(MPI_Status_f082c(&f08, &back));
  check_same_status(&st, &back);
  CHECK_MPI(MPI_Status_f2f08(f, &f08_from_f));
  MPI_Fint f_again[MPI_F_STATUS_SIZE];
  CHECK_MPI(MPI_Status_f082f(&f08_from_f, f_again));
  CHECK(memcmp(f, f_again, sizeof f) == 0);

  /* A cancelled receive's status keeps saying so. */
  MPI_Request req;
  CHECK_MPI(MPI_Irecv(in, 9, MPI_SHORT, rank, 8, comm, &req));
  CHECK_MPI(MPI_Cancel(&req));
  CHECK_MPI(MPI_Wait(&req, &st));
  CHECK_MPI(MPI_Status_c2f(&st, f));
  CHECK_MPI(MPI_Status_f2c(f, &back));
  int cancelled = 0;
  CHECK_MPI(MPI_Test_cancelled(&back, &cancelled));
  CHECK(cancelled);

  CHECK(MPI_F_STATUS_IGNORE != NULL && MPI_F_STATUSES_IGNORE != NULL && MPI_F_STATUS_IGNORE != MPI_F_STATUSES_IGNORE);
  CHECK(MPI_F08_STATUS_IGNORE != NULL && MPI_F08_STATUS_IGNORE != MPI_F08_STATUSES_IGNORE);
  TEST_EXPECT_ERROR(MPI_Status_c2f(MPI_STATUS_IGNORE, f), MPI_ERR_ARG, "MPI_Status_c2f");
  TEST_EXPECT_ERROR(MPI_Status_c2f(&st, MPI_F_STATUS_IGNORE), MPI_ERR_ARG, "MPI_Status_c2f");
  TEST_EXPECT_ERROR(MPI_Status_f2c(MPI_F_STATUSES_IGNORE, &st), MPI_ERR_ARG, "MPI_Status_f2c");
  TEST_EXPECT_ERROR(MPI_Status_f2c(f, NULL), MPI_ERR_ARG, "MPI_Status_f2c");
  TEST_EXPECT_ERROR(MPI_Status_c2f08(&st, MPI_F08_STATUS_IGNORE), MPI_ERR_ARG, "MPI_Status_c2f08");
  TEST_EXPECT_ERROR(MPI_Status_f082f(MPI_F08_STATUSES_IGNORE, f), MPI_ERR_ARG, "MPI_Status_f082f");
}

int main(int argc, char **argv) {
  int rank, size;
  test_init_returning(&argc, &argv, &rank, &size);

  MPI_Comm comm;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  MPI_Comm comm_back = MPI_Comm_f2c(MPI_Comm_c2f(comm));
  int result = -1;
  CHECK_MPI(MPI_Comm_compare(comm, comm_back, &result));
  CHECK(result == MPI_IDENT);
  CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_NULL)) == MPI_COMM_NULL);

  MPI_Group group;
  CHECK_MPI(MPI_Comm_group(comm, &group));
  CHECK_MPI(MPI_Group_compare(group, MPI_Group_f2c(MPI_Group_c2f(group)), &result));
  CHECK(result == MPI_IDENT);
  CHECK(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_NULL)) == MPI_GROUP_NULL);

  MPI_Datatype type;
  CHECK_MPI(MPI_Type_contiguous(7, MPI_SHORT, &type));
  int type_size = -1;
  CHECK_MPI(MPI_Type_size(MPI_Type_f2c(MPI_Type_c2f(type)), &type_size));
  CHECK(type_size == 7 * (int)sizeof(short));
  CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_DATATYPE_NULL)) == MPI_DATATYPE_NULL);

  MPI_Op op;
  CHECK_MPI(MPI_Op_create(add_one, 0, &op));
  int commute = -1;
  CHECK_MPI(MPI_Op_commutative(MPI_Op_f2c(MPI_Op_c2f(op)), &commute));
  CHECK(commute == 0);
  CHECK(MPI_Op_f2c(MPI_Op_c2f(MPI_OP_NULL)) == MPI_OP_NULL);

  MPI_Errhandler eh;
  CHECK_MPI(MPI_Comm_create_errhandler(on_error, &eh));
  CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_Errhandler_f2c(MPI_Errhandler_c2f(eh))));
  MPI_Errhandler got;
  CHECK_MPI(MPI_Comm_get_errhandler(comm, &got));
  CHECK(got == eh);
  CHECK_MPI(MPI_Errhandler_free(&got));
  CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRHANDLER_NULL)) == MPI_ERRHANDLER_NULL);

  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "color", "teal"));
  char value[16] = "";
  int flag = 0;
  CHECK_MPI(MPI_Info_get(MPI_Info_f2c(MPI_Info_c2f(info)), "color", (int)sizeof value - 1, value, &flag));
  CHECK(flag && strcmp(value, "teal") == 0);
  CHECK(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)) == MPI_INFO_NULL);

  /* A request and a matched message, each completed through its converted handle. */
  int out = 100 + rank, in = -1;
  MPI_Request req;
  CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, rank, 5, comm, &req));
  CHECK_MPI(MPI_Send(&out, 1, MPI_INT, rank, 5, comm));
  MPI_Request req_back = MPI_Request_f2c(MPI_Request_c2f(req));
  CHECK_MPI(MPI_Wait(&req_back, MPI_STATUS_IGNORE));
  CHECK(in == out && req_back == MPI_REQUEST_NULL);
  CHECK(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL);

  MPI_Message msg;
  CHECK_MPI(MPI_Send(&out, 1, MPI_INT, rank, 6, comm));
  CHECK_MPI(MPI_Mprobe(rank, 6, comm, &msg, MPI_STATUS_IGNORE));
  MPI_Message msg_back = MPI_Message_f2c(MPI_Message_c2f(msg));
  in = -1;
  CHECK_MPI(MPI_Mrecv(&in, 1, MPI_INT, &msg_back, MPI_STATUS_IGNORE));
  CHECK(in == out && msg_back == MPI_MESSAGE_NULL);
  CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NULL)) == MPI_MESSAGE_NULL);

  check_status_conversions(comm, rank);

  MPI_Comm shm;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
  int *base;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, shm, &base, &win));
  MPI_Group win_group;
  CHECK_MPI(MPI_Win_get_group(MPI_Win_f2c(MPI_Win_c2f(win)), &win_group));
  int win_group_size = -1, shm_size = -2;
  CHECK_MPI(MPI_Group_size(win_group, &win_group_size));
  CHECK_MPI(MPI_Comm_size(shm, &shm_size));
  CHECK(win_group_size == shm_size);
  CHECK(MPI_Win_f2c(MPI_Win_c2f(MPI_WIN_NULL)) == MPI_WIN_NULL);

  CHECK_MPI(MPI_Group_free(&win_group));
  CHECK_MPI(MPI_Win_free(&win));
  CHECK_MPI(MPI_Comm_free(&shm));
  CHECK_MPI(MPI_Info_free(&info));
  CHECK_MPI(MPI_Errhandler_free(&eh));
  CHECK_MPI(MPI_Op_free(&op));
  CHECK_MPI(MPI_Type_free(&type));
  CHECK_MPI(MPI_Group_free(&group));
  CHECK_MPI(MPI_Comm_free(&comm));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) printf("handle_conversions: OK on %d ranks\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
