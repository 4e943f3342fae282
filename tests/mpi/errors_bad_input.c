/* Invalid arguments with MPI_ERRORS_RETURN (MPI-4.0 9.3, 9.4): each bad call returns an error code whose class
 * (MPI_Error_class) is the right one, and whose message (MPI_Error_string) names the call. Valid communication
 * still works afterwards. Error handlers are set on MPI_COMM_WORLD and MPI_COMM_SELF, since errors that cannot be
 * tied to a valid communicator may be raised on either. NULL status pointers are refused (MPI_ERR_ARG), not written. */
#include "test_util.h"

static int rank, size;

#define EXPECT_ERROR(call, want_class, name) expect_error((call), (want_class), (name), #call, __LINE__)

static void expect_error(int err, int want_class, const char *name, const char *text, int line) {
  int cls = -1, len = -1;
  char msg[MPI_MAX_ERROR_STRING];
  msg[0] = '\0';
  if (err != MPI_SUCCESS) {
    CHECK_MPI(MPI_Error_class(err, &cls));
    CHECK_MPI(MPI_Error_string(err, msg, &len));
  }
  if (err == MPI_SUCCESS || cls != want_class || strstr(msg, name) == NULL) {
    fprintf(stderr, "line %d: %s: returned %d, class %d (wanted %d), message '%s' (should name %s)\n", line, text,
            err, cls, want_class, msg, name);
    CHECK(!"wrong error for an invalid call");
  }
  CHECK(len == (int)strlen(msg));
}

static void point_to_point(void) {
  int buf[4] = {0, 0, 0, 0}, peer = (rank + 1) % size;
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Status st;

  /* Ranks: one past the end, negative, and the receive-only wildcard. */
  EXPECT_ERROR(MPI_Send(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "MPI_Send");
  EXPECT_ERROR(MPI_Send(buf, 1, MPI_INT, -5, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "MPI_Send");
  EXPECT_ERROR(MPI_Send(buf, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "MPI_Send");
  EXPECT_ERROR(MPI_Recv(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK, "MPI_Recv");
  EXPECT_ERROR(MPI_Recv(buf, 1, MPI_INT, -5, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK, "MPI_Recv");
  EXPECT_ERROR(MPI_Isend(buf, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, &req), MPI_ERR_RANK, "MPI_Isend");
  EXPECT_ERROR(MPI_Probe(size, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK, "MPI_Probe");

  /* Tags: negative, and MPI_ANY_TAG where a send needs a real tag. */
  EXPECT_ERROR(MPI_Send(buf, 1, MPI_INT, peer, -7, MPI_COMM_WORLD), MPI_ERR_TAG, "MPI_Send");
  EXPECT_ERROR(MPI_Send(buf, 1, MPI_INT, peer, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG, "MPI_Send");
  EXPECT_ERROR(MPI_Recv(buf, 1, MPI_INT, peer, -7, MPI_COMM_WORLD, &st), MPI_ERR_TAG, "MPI_Recv");
  EXPECT_ERROR(MPI_Issend(buf, 1, MPI_INT, peer, -7, MPI_COMM_WORLD, &req), MPI_ERR_TAG, "MPI_Issend");

  /* Counts and datatypes. */
  EXPECT_ERROR(MPI_Send(buf, -1, MPI_INT, peer, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Send");
  EXPECT_ERROR(MPI_Irecv(buf, -3, MPI_INT, peer, 0, MPI_COMM_WORLD, &req), MPI_ERR_COUNT, "MPI_Irecv");
  EXPECT_ERROR(MPI_Send(buf, 1, MPI_DATATYPE_NULL, peer, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Send");
  EXPECT_ERROR(MPI_Recv(buf, 1, MPI_DATATYPE_NULL, peer, 0, MPI_COMM_WORLD, &st), MPI_ERR_TYPE, "MPI_Recv");
  int tsize = 0;
  EXPECT_ERROR(MPI_Type_size(MPI_DATATYPE_NULL, &tsize), MPI_ERR_TYPE, "MPI_Type_size");

  /* Communicators: garbage, null, and a handle of another kind. */
  EXPECT_ERROR(MPI_Send(buf, 1, MPI_INT, peer, 0, (MPI_Comm)12345), MPI_ERR_COMM, "MPI_Send");
  EXPECT_ERROR(MPI_Send(buf, 1, MPI_INT, peer, 0, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Send");
  EXPECT_ERROR(MPI_Recv(buf, 1, MPI_INT, peer, 0, MPI_COMM_NULL, &st), MPI_ERR_COMM, "MPI_Recv");
  EXPECT_ERROR(MPI_Send(buf, 1, MPI_INT, peer, 0, (MPI_Comm)MPI_INT), MPI_ERR_COMM, "MPI_Send");
  int r = -1;
  EXPECT_ERROR(MPI_Comm_rank((MPI_Comm)12345, &r), MPI_ERR_COMM, "MPI_Comm_rank");
  EXPECT_ERROR(MPI_Comm_size(MPI_COMM_NULL, &r), MPI_ERR_COMM, "MPI_Comm_size");

  /* Buffers: NULL with a positive count. */
  EXPECT_ERROR(MPI_Send(NULL, 4, MPI_INT, peer, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Send");
  EXPECT_ERROR(MPI_Recv(NULL, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, &st), MPI_ERR_BUFFER, "MPI_Recv");
  EXPECT_ERROR(MPI_Isend(NULL, 2, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req), MPI_ERR_BUFFER, "MPI_Isend");

  /* Requests: a null request where an active one is needed, a garbage handle, a NULL request pointer. */
  req = MPI_REQUEST_NULL;
  EXPECT_ERROR(MPI_Start(&req), MPI_ERR_REQUEST, "MPI_Start");
  MPI_Request bad = (MPI_Request)12345;
  EXPECT_ERROR(MPI_Wait(&bad, &st), MPI_ERR_REQUEST, "MPI_Wait");
  EXPECT_ERROR(MPI_Isend(buf, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Isend");
  EXPECT_ERROR(MPI_Irecv(buf, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Irecv");
  EXPECT_ERROR(MPI_Send_init(buf, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Send_init");
  test_poison_status(&st);
  EXPECT_ERROR(MPI_Get_count(&st, MPI_DATATYPE_NULL, &r), MPI_ERR_TYPE, "MPI_Get_count");
}

/* NULL where a call writes a status or an array of them (MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE ask for none):
 * MPI_ERR_ARG before anything happens, so the request or matched message is still there for a correct call. The
 * peer is MPI_PROC_NULL, so that a missing check writes through NULL at once instead of waiting. */
static void null_statuses(void) {
  int buf[1] = {0}, flag = 0, index = -1, outcount = -1, indices[1];
  MPI_Status st;
  MPI_Message msg = MPI_MESSAGE_NULL;
  MPI_Request req = MPI_REQUEST_NULL;
  EXPECT_ERROR(MPI_Recv(buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Recv");
  EXPECT_ERROR(MPI_Sendrecv(buf, 1, MPI_INT, MPI_PROC_NULL, 0, buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, NULL),
               MPI_ERR_ARG, "MPI_Sendrecv");
  EXPECT_ERROR(MPI_Sendrecv_replace(buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_PROC_NULL, 0, MPI_COMM_WORLD, NULL),
               MPI_ERR_ARG, "MPI_Sendrecv_replace");
  EXPECT_ERROR(MPI_Probe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Probe");
  EXPECT_ERROR(MPI_Iprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, NULL), MPI_ERR_ARG, "MPI_Iprobe");
  EXPECT_ERROR(MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &msg, NULL), MPI_ERR_ARG, "MPI_Improbe");
  EXPECT_ERROR(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, NULL), MPI_ERR_ARG, "MPI_Mprobe");
  CHECK(msg == MPI_MESSAGE_NULL);
  CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st));
  EXPECT_ERROR(MPI_Mrecv(buf, 1, MPI_INT, &msg, NULL), MPI_ERR_ARG, "MPI_Mrecv");
  CHECK(msg == MPI_MESSAGE_NO_PROC); /* not consumed */
  CHECK_MPI(MPI_Mrecv(buf, 1, MPI_INT, &msg, &st));
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL && msg == MPI_MESSAGE_NULL);

  CHECK_MPI(MPI_Irecv(buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req));
  EXPECT_ERROR(MPI_Wait(&req, NULL), MPI_ERR_ARG, "MPI_Wait");
  EXPECT_ERROR(MPI_Test(&req, &flag, NULL), MPI_ERR_ARG, "MPI_Test");
  EXPECT_ERROR(MPI_Request_get_status(req, &flag, NULL), MPI_ERR_ARG, "MPI_Request_get_status");
  EXPECT_ERROR(MPI_Waitany(1, &req, &index, NULL), MPI_ERR_ARG, "MPI_Waitany");
  EXPECT_ERROR(MPI_Testany(1, &req, &index, &flag, NULL), MPI_ERR_ARG, "MPI_Testany");
  EXPECT_ERROR(MPI_Waitall(1, &req, NULL), MPI_ERR_ARG, "MPI_Waitall");
  EXPECT_ERROR(MPI_Testall(1, &req, &flag, NULL), MPI_ERR_ARG, "MPI_Testall");
  EXPECT_ERROR(MPI_Waitsome(1, &req, &outcount, indices, NULL), MPI_ERR_ARG, "MPI_Waitsome");
  EXPECT_ERROR(MPI_Testsome(1, &req, &outcount, indices, NULL), MPI_ERR_ARG, "MPI_Testsome");
  CHECK(req != MPI_REQUEST_NULL); /* still the receive's */
  test_poison_status(&st);
  CHECK_MPI(MPI_Wait(&req, &st));
  CHECK(req == MPI_REQUEST_NULL && st.MPI_SOURCE == MPI_PROC_NULL);
  CHECK_MPI(MPI_Waitall(0, NULL, NULL)); /* no statuses to write */
}

/* Error classes are error codes of themselves; every class has a message. */
static void classes(void) {
  const int some[] = {MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE,    MPI_ERR_TAG,     MPI_ERR_COMM,
                      MPI_ERR_RANK,   MPI_ERR_ARG,   MPI_ERR_REQUEST, MPI_ERR_TRUNCATE, MPI_ERR_OTHER};
  for (size_t i = 0; i < sizeof some / sizeof some[0]; ++i) {
    int cls = -1, len = -1;
    char msg[MPI_MAX_ERROR_STRING];
    CHECK_MPI(MPI_Error_class(some[i], &cls));
    CHECK(cls == some[i]);
    CHECK_MPI(MPI_Error_string(some[i], msg, &len));
    CHECK(len > 0 && len == (int)strlen(msg));
  }
  int cls = -1;
  CHECK_MPI(MPI_Error_class(MPI_SUCCESS, &cls));
  CHECK(cls == MPI_SUCCESS);
}

/* After all that, a valid ring exchange (eager and rendezvous) still works. */
static void still_works(void) {
  int left = (rank - 1 + size) % size, right = (rank + 1) % size;
  for (int n = 1; n <= (1 << 20); n *= 32) {
    unsigned char *out = test_malloc(n), *in = test_malloc(n);
    MPI_Status st;
    test_fill(out, MPI_BYTE, n, rank, right, 9);
    CHECK_MPI(MPI_Sendrecv(out, n, MPI_BYTE, right, 9, in, n, MPI_BYTE, left, 9, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == left && test_count(&st, MPI_BYTE) == n);
    CHECK(test_verify(in, MPI_BYTE, n, left, rank, 9) == -1);
    free(out);
    free(in);
  }
}

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
  CHECK(eh == MPI_ERRORS_RETURN);

  point_to_point();
  null_statuses();
  classes();
  still_works();

  /* Back to fatal errors; the setting is visible. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
  CHECK(eh == MPI_ERRORS_ARE_FATAL);
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
