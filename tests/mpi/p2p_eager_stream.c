/* Messages between 16 and 64 KiB go eagerly through the shared-memory rings but stay in them until the receiver can
 * use them (transport/engine.cpp, kLazyEagerBytes). Whatever the protocol, MPI semantics hold:
 *   1. rank 0 Isends ten 64 KiB messages with tags 0..9; rank 1 first probes for tag 9 (behind all the others), then
 *      receives them in reverse tag order, each checked (matching by tag, not arrival);
 *   2. rank 0 sends 200 messages of 48 KiB with blocking MPI_Send while rank 1 sleeps 50 ms before receiving them:
 *      the sends wait for the receiver where the rings are full, and every message arrives intact, in order;
 *   3. the same with MPI_Iprobe polling before each receive (a probe must see a message still in the ring);
 *   4. a 64 KiB message (MPI_Isend) and then an 8-byte one on another tag: the small one can be received first;
 *   5. a 640 KiB message (rendezvous) and then a 48 KiB one, received in that order: the large one's bytes follow
 *      the 48 KiB message through the ring (where they go in ring pieces: STRATA_P2P_CMA=0), which must not stay
 *      there blocking them.
 * Between nodes the same messages go eagerly as several fabric messages each (transport/wire.hpp: More).
 * Any even number of ranks (pairs 2k, 2k+1); a plain MPI program (also passes with MPICH). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>

#include "test_util.h"

enum { BIG = 64 * 1024, MEDIUM = 48 * 1024, MANY = 200, TAGS = 10 };

static void fill(unsigned char *p, int n, int seed) {
  for (int i = 0; i < n; ++i) p[i] = (unsigned char)(seed * 31 + i * 7);
}

static void check_fill(const unsigned char *p, int n, int seed) {
  for (int i = 0; i < n; ++i)
    if (p[i] != (unsigned char)(seed * 31 + i * 7)) test_fail(__FILE__, __LINE__, "payload differs", "");
}

int main(int argc, char **argv) {
  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(size % 2 == 0);
  const int peer = rank ^ 1, sender = rank % 2 == 0;
  unsigned char *buf = malloc((size_t)BIG * TAGS);
  CHECK(buf != NULL);

  /* 1. Out-of-order receives of large eager messages, after a probe for the last one. */
  if (sender) {
    MPI_Request reqs[TAGS];
    for (int t = 0; t < TAGS; ++t) {
      fill(buf + (size_t)t * BIG, BIG, t);
      CHECK_MPI(MPI_Isend(buf + (size_t)t * BIG, BIG, MPI_BYTE, peer, t, MPI_COMM_WORLD, &reqs[t]));
    }
    for (int t = 0; t < TAGS; ++t) CHECK_MPI(MPI_Wait(&reqs[t], MPI_STATUS_IGNORE));
  } else {
    MPI_Status st;
    CHECK_MPI(MPI_Probe(peer, TAGS - 1, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_TAG == TAGS - 1 && test_count(&st, MPI_BYTE) == BIG);
    for (int t = TAGS - 1; t >= 0; --t) {
      CHECK_MPI(MPI_Recv(buf, BIG, MPI_BYTE, peer, t, MPI_COMM_WORLD, &st));
      CHECK(st.MPI_TAG == t && test_count(&st, MPI_BYTE) == BIG);
      check_fill(buf, BIG, t);
    }
  }

  /* 2 and 3. A stream of blocking sends to a receiver that starts late; then the same received after Iprobe. */
  for (int probing = 0; probing <= 1; ++probing) {
    if (sender) {
      for (int i = 0; i < MANY; ++i) {
        fill(buf, MEDIUM, i);
        CHECK_MPI(MPI_Send(buf, MEDIUM, MPI_BYTE, peer, 100, MPI_COMM_WORLD));
      }
    } else {
      const struct timespec pause = {0, 50 * 1000 * 1000};
      nanosleep(&pause, NULL);
      for (int i = 0; i < MANY; ++i) {
        int flag = 0;
        while (probing && !flag) CHECK_MPI(MPI_Iprobe(peer, 100, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Recv(buf, MEDIUM, MPI_BYTE, peer, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        check_fill(buf, MEDIUM, i);
      }
    }
  }

  /* 4. A small message behind a large one on another tag is received first. */
  if (sender) {
    fill(buf, BIG, 7);
    long small = 4242;
    MPI_Request big;
    CHECK_MPI(MPI_Isend(buf, BIG, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &big));
    CHECK_MPI(MPI_Send(&small, 1, MPI_LONG, peer, 2, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&big, MPI_STATUS_IGNORE));
  } else {
    long small = 0;
    CHECK_MPI(MPI_Recv(&small, 1, MPI_LONG, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(small == 4242);
    CHECK_MPI(MPI_Recv(buf, BIG, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    check_fill(buf, BIG, 7);
  }

  /* 5. A large eager message ahead of a rendezvous's data in the ring. */
  unsigned char *medium = malloc(MEDIUM);
  CHECK(medium != NULL);
  if (sender) {
    fill(buf, BIG * TAGS, 5);
    fill(medium, MEDIUM, 6);
    MPI_Request reqs[2];
    CHECK_MPI(MPI_Isend(buf, BIG * TAGS, MPI_BYTE, peer, 5, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Isend(medium, MEDIUM, MPI_BYTE, peer, 6, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
  } else {
    CHECK_MPI(MPI_Recv(buf, BIG * TAGS, MPI_BYTE, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    check_fill(buf, BIG * TAGS, 5);
    CHECK_MPI(MPI_Recv(medium, MEDIUM, MPI_BYTE, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    check_fill(medium, MEDIUM, 6);
  }

  free(medium);
  free(buf);
  CHECK_MPI(MPI_Finalize());
  if (rank == 0) printf("p2p_eager_stream: ok\n");
  return 0;
}
