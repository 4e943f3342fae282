/* Non-overtaking (MPI-4.0 3.5): messages from one sender that match the same receive are received in the order
 * sent — with one tag, with MPI_ANY_TAG over varying tags, and with MPI_ANY_SOURCE — whatever their sizes (small
 * eager, zero-byte and rendezvous messages interleaved), and whether the receives are posted before the messages
 * arrive or after.
 *
 * Every ordered pair of ranks runs every variant. Protocol per variant, so that a rank in receive mode only ever
 * has its partner's data in flight towards it (the wildcards would otherwise catch unrelated messages):
 *   receiver: [post receives] -> GO -> [wait for the marker] -> receive -> ACK
 *   sender:   wait GO -> Isend all [-> marker] -> Waitall -> wait ACK */
#include "test_util.h"

enum { K = 24, TAG_MARKER = 97, TAG_GO = 98, TAG_ACK = 99, DATA_TAG = 3 };
enum { MODE_BLOCKING, MODE_PREPOSTED, MODE_AFTER_ARRIVAL, NMODES };

/* Eager and rendezvous sizes interleaved (bytes); one 1 MiB+1 message per sequence. */
static int msg_size(int i) {
  static const int sizes[12] = {1, 262147, 0, 8, 3, 65539, 4096, 4097, 5, 70000, 2, 1048577};
  int s = sizes[i % 12];
  return (i >= 12 && s > 300000) ? 17 : s;
}
static const int max_size = 1048577;

/* The MPI tag of message i: fixed, or varying when the receiver uses MPI_ANY_TAG. */
static int msg_tag(int i, int tag_wild) { return tag_wild ? 10 + (i * 5) % 7 : DATA_TAG; }

static void run_sender(int rank, int peer, int mode, int tag_wild) {
  int token = 0;
  MPI_Request reqs[K];
  unsigned char *bufs[K];
  CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, peer, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  for (int i = 0; i < K; ++i) {
    bufs[i] = test_malloc(msg_size(i));
    test_fill(bufs[i], MPI_BYTE, msg_size(i), rank, peer, 100 + i);
    CHECK_MPI(MPI_Isend(bufs[i], msg_size(i), MPI_BYTE, peer, msg_tag(i, tag_wild), MPI_COMM_WORLD, &reqs[i]));
  }
  if (mode == MODE_AFTER_ARRIVAL) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, peer, TAG_MARKER, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Waitall(K, reqs, MPI_STATUSES_IGNORE));
  for (int i = 0; i < K; ++i) free(bufs[i]);
  CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, peer, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

/* The i-th completed receive must hold the i-th message sent. */
static void check_nth(int rank, int peer, int i, int tag_wild, const void *buf, const MPI_Status *st) {
  CHECK(st->MPI_SOURCE == peer);
  CHECK(st->MPI_TAG == msg_tag(i, tag_wild));
  CHECK(test_count(st, MPI_BYTE) == msg_size(i));
  CHECK(test_verify(buf, MPI_BYTE, msg_size(i), peer, rank, 100 + i) == -1);
}

static void run_receiver(int rank, int peer, int mode, int src_wild, int tag_wild) {
  int token = 0;
  int src = src_wild ? MPI_ANY_SOURCE : peer;
  int tag = tag_wild ? MPI_ANY_TAG : DATA_TAG;
  if (mode == MODE_PREPOSTED) {
    MPI_Request reqs[K];
    MPI_Status sts[K];
    unsigned char *bufs[K];
    for (int i = 0; i < K; ++i) {
      bufs[i] = test_malloc(max_size);
      CHECK_MPI(MPI_Irecv(bufs[i], max_size, MPI_BYTE, src, tag, MPI_COMM_WORLD, &reqs[i]));
    }
    CHECK_MPI(MPI_Send(&token, 1, MPI_INT, peer, TAG_GO, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Waitall(K, reqs, sts));
    for (int i = 0; i < K; ++i) {
      check_nth(rank, peer, i, tag_wild, bufs[i], &sts[i]);
      free(bufs[i]);
    }
  } else {
    unsigned char *buf = test_malloc(max_size);
    CHECK_MPI(MPI_Send(&token, 1, MPI_INT, peer, TAG_GO, MPI_COMM_WORLD));
    /* The marker was sent after all data: once it is here, the eager messages have most likely arrived too and
     * sit unexpected; the order must hold either way. */
    if (mode == MODE_AFTER_ARRIVAL)
      CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, peer, TAG_MARKER, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < K; ++i) {
      MPI_Status st;
      test_poison_status(&st);
      CHECK_MPI(MPI_Recv(buf, max_size, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st));
      check_nth(rank, peer, i, tag_wild, buf, &st);
    }
    free(buf);
  }
  CHECK_MPI(MPI_Send(&token, 1, MPI_INT, peer, TAG_ACK, MPI_COMM_WORLD));
}

/* Wildcard combinations: (source, tag) = (exact, exact), (exact, ANY_TAG), (ANY_SOURCE, exact). ANY_SOURCE
 * together with ANY_TAG is covered by p2p_any_source, which can quiesce the whole job around it. */
static const int wild[3][2] = {{0, 0}, {0, 1}, {1, 0}};

static void run_pair(int rank, int peer) {
  for (int turn = 0; turn < 2; ++turn) {
    int sending = (turn == 0) == (rank < peer);
    for (int w = 0; w < 3; ++w)
      for (int mode = 0; mode < NMODES; ++mode) {
        if (sending)
          run_sender(rank, peer, mode, wild[w][1]);
        else
          run_receiver(rank, peer, mode, wild[w][0], wild[w][1]);
      }
  }
}

int main(int argc, char **argv) {
  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

  /* Pairs in one global order: deadlock-free although every step blocks. */
  for (int a = 0; a < size; ++a)
    for (int b = a + 1; b < size; ++b)
      if (rank == a || rank == b) run_pair(rank, rank == a ? b : a);
  test_barrier();

  /* Self-messages keep their order too: Isend all to oneself, then receive them one by one. */
  {
    MPI_Request reqs[K];
    unsigned char *bufs[K], *rbuf = test_malloc(max_size);
    for (int i = 0; i < K; ++i) {
      bufs[i] = test_malloc(msg_size(i));
      test_fill(bufs[i], MPI_BYTE, msg_size(i), rank, rank, 100 + i);
      CHECK_MPI(MPI_Isend(bufs[i], msg_size(i), MPI_BYTE, rank, msg_tag(i, 1), MPI_COMM_WORLD, &reqs[i]));
    }
    for (int i = 0; i < K; ++i) {
      MPI_Status st;
      CHECK_MPI(MPI_Recv(rbuf, max_size, MPI_BYTE, rank, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
      check_nth(rank, rank, i, 1, rbuf, &st);
    }
    CHECK_MPI(MPI_Waitall(K, reqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < K; ++i) free(bufs[i]);
    free(rbuf);
  }
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
