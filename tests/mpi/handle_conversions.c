/* Handle conversions between C and Fortran (MPI-4.0 19.3.4): for every kind of handle, a real object converted to
 * Fortran and back is the same object (proved by using the converted handle: compare, query, complete), and the
 * null handles come back null. Runs on any number of ranks. */
#include "test_util.h"

static void add_one(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)type;
  for (int i = 0; i < *len; ++i) ((int *)inout)[i] += ((int *)in)[i];
}

static void on_error(MPI_Comm *comm, int *code, ...) {
  (void)comm;
  (void)code;
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
