/* Buffered mode (MPI-4.0 3.6): MPI_Buffer_attach / detach, MPI_Bsend, MPI_Ibsend, MPI_Bsend_init.
 *  - Every rank sends to its right neighbour, buffered, before anyone posts a receive: 8 B, 300 KiB (past any eager
 *    limit) and a strided vector type, by Bsend, by Ibsend (complete at once) and by a persistent Bsend_init started
 *    twice. Blocking sends of that size would wait for the receiver; buffered ones return. Then every rank receives
 *    its left neighbour's messages, in order, each checked against its pattern.
 *  - Space comes back: 40 messages of 64 KiB through a buffer holding two, each acknowledged before the next.
 *  - Errors: a message larger than the buffer (MPI_ERR_BUFFER from the call that starts it, Bsend, Ibsend, Start or
 *    Startall; the buffer unchanged and usable), a second attach, a buffered send with no buffer attached. Detach returns the attached address and size.
 * Runs on any number of ranks (one rank sends to itself). */
#include "test_util.h"

enum { kSmall = 8, kLarge = 300 * 1024, kVecBlocks = 1000, kRounds = 40, kRoundBytes = 64 * 1024 };

static int rank, size, right, left;

static void exchange_before_receiving(void) {
  MPI_Datatype vec; /* kVecBlocks ints, every other one */
  CHECK_MPI(MPI_Type_vector(kVecBlocks, 1, 2, MPI_INT, &vec));
  CHECK_MPI(MPI_Type_commit(&vec));
  int vec_size;
  CHECK_MPI(MPI_Type_size(vec, &vec_size));
  int bytes = 0, one;
  CHECK_MPI(MPI_Pack_size(kSmall, MPI_BYTE, MPI_COMM_WORLD, &one));
  bytes += one + MPI_BSEND_OVERHEAD;
  CHECK_MPI(MPI_Pack_size(kLarge, MPI_BYTE, MPI_COMM_WORLD, &one));
  bytes += 3 * (one + MPI_BSEND_OVERHEAD);
  CHECK_MPI(MPI_Pack_size(1, vec, MPI_COMM_WORLD, &one));
  bytes += 3 * (one + MPI_BSEND_OVERHEAD);
  char *buffer = test_malloc((size_t)bytes);
  CHECK_MPI(MPI_Buffer_attach(buffer, bytes));

  unsigned char *small = test_malloc(kSmall), *large = test_malloc(kLarge);
  int *strided = test_malloc(sizeof(int) * 2 * kVecBlocks), *dense = test_malloc(sizeof(int) * kVecBlocks);
  test_fill(small, MPI_BYTE, kSmall, rank, right, 1);
  test_fill(large, MPI_BYTE, kLarge, rank, right, 2);
  test_fill(dense, MPI_INT, kVecBlocks, rank, right, 3);
  for (int i = 0; i < kVecBlocks; ++i) strided[2 * i] = dense[i], strided[2 * i + 1] = -1;
  CHECK_MPI(MPI_Bsend(small, kSmall, MPI_BYTE, right, 1, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Bsend(large, kLarge, MPI_BYTE, right, 2, MPI_COMM_WORLD));
  MPI_Request req;
  MPI_Status st;
  int done = 0;
  CHECK_MPI(MPI_Ibsend(strided, 1, vec, right, 3, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Test(&req, &done, &st)); /* buffered: complete once the message is in the buffer */
  CHECK(done == 1 && req == MPI_REQUEST_NULL);
  /* The user's buffers are free again: change them, the messages already hold the old contents. */
  memset(large, 0, kLarge);
  memset(strided, 0, sizeof(int) * 2 * kVecBlocks);
  test_fill(large, MPI_BYTE, kLarge, rank, right, 4);
  CHECK_MPI(MPI_Bsend_init(large, kLarge, MPI_BYTE, right, 4, MPI_COMM_WORLD, &req));
  for (int k = 0; k < 2; ++k) {
    CHECK_MPI(MPI_Start(&req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  }
  CHECK_MPI(MPI_Request_free(&req));
  for (int i = 0; i < kVecBlocks; ++i) strided[2 * i] = dense[i];
  CHECK_MPI(MPI_Ibsend(strided, 1, vec, right, 5, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Bsend(strided, 1, vec, right, 6, MPI_COMM_WORLD));

  CHECK_MPI(MPI_Recv(small, kSmall, MPI_BYTE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(test_verify(small, MPI_BYTE, kSmall, left, rank, 1) == -1);
  CHECK_MPI(MPI_Recv(large, kLarge, MPI_BYTE, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(test_verify(large, MPI_BYTE, kLarge, left, rank, 2) == -1);
  for (int tag = 3; tag <= 6; tag += tag == 3 ? 2 : 1) { /* the vectors, received dense */
    CHECK_MPI(MPI_Recv(dense, kVecBlocks, MPI_INT, left, tag, MPI_COMM_WORLD, &st));
    CHECK(test_verify(dense, MPI_INT, kVecBlocks, left, rank, 3) == -1);
    int count = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == kVecBlocks && vec_size == kVecBlocks * (int)sizeof(int));
  }
  for (int k = 0; k < 2; ++k) {
    CHECK_MPI(MPI_Recv(large, kLarge, MPI_BYTE, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(test_verify(large, MPI_BYTE, kLarge, left, rank, 4) == -1);
  }

  void *got = NULL;
  int got_size = -1;
  CHECK_MPI(MPI_Buffer_detach(&got, &got_size));
  CHECK(got == buffer && got_size == bytes);
  CHECK_MPI(MPI_Type_free(&vec));
  free(buffer), free(small), free(large), free(strided), free(dense);
}

/* Rank 0 sends to rank size - 1 through a buffer for two messages; each is acknowledged before the next. */
static void space_comes_back(void) {
  const int bytes = 2 * (kRoundBytes + MPI_BSEND_OVERHEAD);
  char *buffer = test_malloc((size_t)bytes);
  unsigned char *msg = test_malloc(kRoundBytes);
  const int last = size - 1;
  CHECK_MPI(MPI_Buffer_attach(buffer, bytes));
  for (int round = 0; round < kRounds; ++round) {
    int ack = 0;
    if (rank == 0) {
      test_fill(msg, MPI_BYTE, kRoundBytes, 0, last, 100 + round);
      CHECK_MPI(MPI_Bsend(msg, kRoundBytes, MPI_BYTE, last, 100 + round, MPI_COMM_WORLD));
    }
    if (rank == last) {
      CHECK_MPI(MPI_Recv(msg, kRoundBytes, MPI_BYTE, 0, 100 + round, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CHECK(test_verify(msg, MPI_BYTE, kRoundBytes, 0, last, 100 + round) == -1);
      if (size > 1) CHECK_MPI(MPI_Send(&ack, 1, MPI_INT, 0, 99, MPI_COMM_WORLD)); /* alone, the Recv was the ack */
    }
    if (rank == 0 && size > 1) CHECK_MPI(MPI_Recv(&ack, 1, MPI_INT, last, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  }
  void *got = NULL;
  int got_size = -1;
  CHECK_MPI(MPI_Buffer_detach(&got, &got_size));
  CHECK(got == buffer && got_size == bytes);
  free(buffer), free(msg);
}

#ifdef STRATA
/* With a buffer that holds kSmall bytes: the nonblocking and persistent forms report a message it has no room for
 * at the call that starts it, as MPI_Bsend does, and leave no active request (reported at completion instead, the
 * receive posted for the message would keep an MPI_Waitall over both from ever returning the error). Startall
 * starts the requests that fit. */
static void no_room_at_start(unsigned char *msg) {
  MPI_Request req = MPI_REQUEST_NULL, pair[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  TEST_EXPECT_ERROR(MPI_Ibsend(msg, kLarge, MPI_BYTE, right, 8, MPI_COMM_WORLD, &req), MPI_ERR_BUFFER, "MPI_Ibsend");
  CHECK(req == MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Bsend_init(msg, kSmall, MPI_BYTE, right, 9, MPI_COMM_WORLD, &pair[0]));
  CHECK_MPI(MPI_Bsend_init(msg, kLarge, MPI_BYTE, right, 8, MPI_COMM_WORLD, &pair[1]));
  TEST_EXPECT_ERROR(MPI_Start(&pair[1]), MPI_ERR_BUFFER, "MPI_Start");
  TEST_EXPECT_ERROR(MPI_Startall(2, pair), MPI_ERR_BUFFER, "MPI_Startall");
  MPI_Status st[2];
  CHECK_MPI(MPI_Waitall(2, pair, st)); /* pair[1] was never started: inactive, so the empty status */
  CHECK(test_status_is_empty(&st[1]));
  unsigned char got[kSmall];
  CHECK_MPI(MPI_Recv(got, kSmall, MPI_BYTE, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(test_verify(got, MPI_BYTE, kSmall, left, rank, 7) == -1);
  CHECK_MPI(MPI_Request_free(&pair[0]));
  CHECK_MPI(MPI_Request_free(&pair[1]));
}
#endif

static void bad_input(void) {
  const int bytes = kSmall + MPI_BSEND_OVERHEAD;
  char *buffer = test_malloc(bytes), *other = test_malloc(bytes);
  unsigned char *msg = test_malloc(kLarge);
  test_fill(msg, MPI_BYTE, kSmall, rank, right, 7);
#ifdef STRATA /* MPICH and Open MPI grow or bypass the buffer for a message larger than it */
  int got_size_unused = 0;
  TEST_EXPECT_ERROR(MPI_Buffer_attach(buffer, -1), MPI_ERR_ARG, "MPI_Buffer_attach");
  TEST_EXPECT_ERROR(MPI_Bsend(msg, kSmall, MPI_BYTE, right, 7, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Bsend");
  CHECK_MPI(MPI_Buffer_attach(buffer, bytes));
  TEST_EXPECT_ERROR(MPI_Bsend(msg, kLarge, MPI_BYTE, right, 7, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Bsend");
  TEST_EXPECT_ERROR(MPI_Buffer_attach(other, bytes), MPI_ERR_BUFFER, "MPI_Buffer_attach");
  no_room_at_start(msg);
  MPI_Request req = MPI_REQUEST_NULL;
  TEST_EXPECT_ERROR(MPI_Ibsend(msg, kSmall, MPI_BYTE, right, 7, MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Ibsend");
  TEST_EXPECT_ERROR(MPI_Bsend_init(msg, -1, MPI_BYTE, right, 7, MPI_COMM_WORLD, &req), MPI_ERR_COUNT,
                    "MPI_Bsend_init");
  CHECK(req == MPI_REQUEST_NULL);
  TEST_EXPECT_ERROR(MPI_Buffer_detach(NULL, &got_size_unused), MPI_ERR_ARG, "MPI_Buffer_detach");
#else
  CHECK_MPI(MPI_Buffer_attach(buffer, bytes));
#endif
  /* Still usable: the small message fits. */
  CHECK_MPI(MPI_Bsend(msg, kSmall, MPI_BYTE, right, 7, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Recv(msg, kSmall, MPI_BYTE, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(test_verify(msg, MPI_BYTE, kSmall, left, rank, 7) == -1);
  void *got = NULL;
  int got_size = -1;
  CHECK_MPI(MPI_Buffer_detach(&got, &got_size));
  CHECK(got == buffer && got_size == bytes);
  free(buffer), free(other), free(msg);
}

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  exchange_before_receiving();
  test_barrier();
  space_comes_back();
  test_barrier();
  bad_input();
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
