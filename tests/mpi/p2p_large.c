/* Large messages between ranks 0 and 1 (other ranks idle): 2^30 bytes as MPI_BYTE with Send/Recv, 2^27 doubles
 * with Isend/Irecv(ANY_SOURCE), and with `--huge` also 2^28+1 doubles (just over 2 GiB: byte counts need 64
 * bits). Same node and, under `--nodes 2 --map-by node`, across simulated nodes.
 *
 * Memory stays near one message per rank: each message has one buffer per side, freed before the next. The
 * sender writes every 8-byte word from the pattern; the receiver checks one word in every 4 KiB page (and the
 * last word), after poisoning exactly those words, so an unwritten page cannot pass. */
#include "test_util.h"

#include <limits.h>

enum { PAGE_WORDS = 4096 / 8 };

typedef struct {
  MPI_Datatype type; /* MPI_BYTE or MPI_DOUBLE */
  int count;
  int from, to;
} large_msg;

/* Word j of a message, as raw 64 bits: for doubles an exact integer value (never NaN), for bytes any bits. */
static uint64_t word_at(MPI_Datatype type, int tag, size_t j) {
  uint64_t v = test_pattern(0, 1, tag, j);
  if (type == MPI_DOUBLE) {
    double d = (double)(int32_t)(uint32_t)v;
    memcpy(&v, &d, sizeof v);
  }
  return v;
}

static size_t msg_bytes(const large_msg *m) { return (size_t)m->count * (m->type == MPI_BYTE ? 1 : 8); }

static void run(int rank, const large_msg *m, int tag) {
  size_t bytes = msg_bytes(m), words = bytes / 8; /* all sizes here are multiples of 8 */
  if (rank != m->from && rank != m->to) return;
  uint64_t *buf = test_malloc(bytes);
  if (rank == m->from) {
    for (size_t j = 0; j < words; ++j) buf[j] = word_at(m->type, tag, j);
    if (m->type == MPI_BYTE)
      CHECK_MPI(MPI_Send(buf, m->count, m->type, m->to, tag, MPI_COMM_WORLD));
    else {
      MPI_Request req;
      CHECK_MPI(MPI_Isend(buf, m->count, m->type, m->to, tag, MPI_COMM_WORLD, &req));
      CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
  } else {
    for (size_t j = 0; j < words; j += PAGE_WORDS) buf[j] = ~word_at(m->type, tag, j);
    buf[words - 1] = ~word_at(m->type, tag, words - 1);
    MPI_Status st;
    if (m->type == MPI_BYTE) {
      CHECK_MPI(MPI_Recv(buf, m->count, m->type, m->from, tag, MPI_COMM_WORLD, &st));
    } else {
      MPI_Request req;
      CHECK_MPI(MPI_Irecv(buf, m->count, m->type, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &req));
      CHECK_MPI(MPI_Wait(&req, &st));
    }
    CHECK(st.MPI_SOURCE == m->from && st.MPI_TAG == tag);
    CHECK(test_count(&st, m->type) == m->count);
    /* Byte count of a >2 GiB message does not fit an int: MPI_Get_count says MPI_UNDEFINED (3.2.5). */
    int nbytes = test_count(&st, MPI_BYTE);
    CHECK(bytes <= INT_MAX ? nbytes == (int)bytes : nbytes == MPI_UNDEFINED);
    for (size_t j = 0; j < words; j += PAGE_WORDS) CHECK(buf[j] == word_at(m->type, tag, j));
    CHECK(buf[words - 1] == word_at(m->type, tag, words - 1));
  }
  free(buf);
}

int main(int argc, char **argv) {
  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  int huge = argc > 1 && strcmp(argv[1], "--huge") == 0;
  if (size < 2) {
    if (rank == 0) fprintf(stderr, "p2p_large needs 2 ranks; nothing to do\n");
    CHECK_MPI(MPI_Finalize());
    return 0;
  }

  const large_msg msgs[] = {
      {MPI_BYTE, 1 << 30, 0, 1},
      {MPI_DOUBLE, 1 << 27, 1, 0},
      {MPI_DOUBLE, (1 << 28) + 1, 0, 1},
  };
  int n = huge ? 3 : 2;
  for (int i = 0; i < n; ++i) {
    run(rank, &msgs[i], 40 + i);
    test_barrier();
  }
  CHECK_MPI(MPI_Finalize());
  return 0;
}
