/* Stress: every ordered pair of ranks (oneself included) exchanges many nonblocking messages of random sizes
 * (0 .. 256 KiB, many small) and random tags. The sizes and tags of the messages from s to d come from a PRNG
 * seeded with (seed, s, d), so the receiver regenerates exactly what the sender drew.
 *
 * Matching is deterministic even with random tags: receives from one source are posted in send order, so the
 * k-th receive for (source, tag) gets the k-th message with that tag (non-overtaking). Receives from odd
 * sources use MPI_ANY_TAG instead: then the k-th receive gets the k-th message.
 *
 * Phase 1 posts all receives before the sends; phase 2 sends first, waits on a barrier (messages pile up
 * unexpected, rendezvous ones wait), then posts the receives.
 * Usage: p2p_stress [messages per pair, default 200] [seed, default 20240501] */
#include "test_util.h"

enum { MAX_SIZE = 256 * 1024, NTAGS = 8 };

typedef struct {
  int size, tag;
} draw;

static draw *draws(uint64_t seed, int phase, int s, int d, int count) {
  test_rng rng = test_rng_make(seed ^ ((uint64_t)phase << 56) ^ ((uint64_t)s << 28) ^ (uint64_t)d);
  draw *out = test_malloc(count * sizeof *out);
  for (int i = 0; i < count; ++i) {
    uint64_t kind = test_rng_below(&rng, 8);
    /* 1 in 8 empty or tiny, 3 in 8 large (up to 256 KiB), the rest eager-sized. */
    out[i].size = kind == 0   ? (int)test_rng_below(&rng, 3)
                  : kind < 4 ? (int)test_rng_below(&rng, MAX_SIZE + 1)
                             : (int)test_rng_below(&rng, 8193);
    out[i].tag = (int)test_rng_below(&rng, NTAGS);
  }
  return out;
}

/* Pattern tag of message i: distinct per message, so a mismatched pairing is caught. */
static int content_tag(int phase, int i) { return phase * 100000 + i; }

static void run_phase(int rank, int size, int per_pair, uint64_t seed, int phase) {
  int total = size * per_pair;
  MPI_Request *rreqs = test_malloc(total * sizeof *rreqs), *sreqs = test_malloc(total * sizeof *sreqs);
  MPI_Status *sts = test_malloc(total * sizeof *sts);
  unsigned char **rbufs = test_malloc(total * sizeof *rbufs), **sbufs = test_malloc(total * sizeof *sbufs);
  draw **from = test_malloc(size * sizeof *from), **to = test_malloc(size * sizeof *to);
  for (int p = 0; p < size; ++p) {
    from[p] = draws(seed, phase, p, rank, per_pair);
    to[p] = draws(seed, phase, rank, p, per_pair);
  }

  for (int turn = 0; turn < 2; ++turn) {
    int post_receives = (turn == 0) == (phase == 1);
    if (post_receives) {
      for (int i = 0; i < per_pair; ++i)
        for (int p = 0; p < size; ++p) {
          int k = p * per_pair + i;
          rbufs[k] = test_malloc(from[p][i].size);
          int tag = (p % 2) ? MPI_ANY_TAG : from[p][i].tag;
          CHECK_MPI(MPI_Irecv(rbufs[k], from[p][i].size, MPI_BYTE, p, tag, MPI_COMM_WORLD, &rreqs[k]));
        }
    } else {
      /* Round-robin over destinations, starting at a rank-dependent one so peers are not hit in lockstep. */
      for (int i = 0; i < per_pair; ++i)
        for (int j = 0; j < size; ++j) {
          int p = (rank + i + j) % size, k = p * per_pair + i;
          sbufs[k] = test_malloc(to[p][i].size);
          test_fill(sbufs[k], MPI_BYTE, to[p][i].size, rank, p, content_tag(phase, i));
          CHECK_MPI(MPI_Isend(sbufs[k], to[p][i].size, MPI_BYTE, p, to[p][i].tag, MPI_COMM_WORLD, &sreqs[k]));
        }
      if (phase == 2) test_barrier(); /* everything is sent (or announced) before anyone receives */
    }
  }

  CHECK_MPI(MPI_Waitall(total, rreqs, sts));
  for (int p = 0; p < size; ++p)
    for (int i = 0; i < per_pair; ++i) {
      int k = p * per_pair + i;
      CHECK(sts[k].MPI_SOURCE == p && sts[k].MPI_TAG == from[p][i].tag);
      CHECK(test_count(&sts[k], MPI_BYTE) == from[p][i].size);
      CHECK(test_verify(rbufs[k], MPI_BYTE, from[p][i].size, p, rank, content_tag(phase, i)) == -1);
      free(rbufs[k]);
    }
  CHECK_MPI(MPI_Waitall(total, sreqs, MPI_STATUSES_IGNORE));
  for (int k = 0; k < total; ++k) free(sbufs[k]);
  for (int p = 0; p < size; ++p) {
    free(from[p]);
    free(to[p]);
  }
  free(rreqs);
  free(sreqs);
  free(sts);
  free(rbufs);
  free(sbufs);
  free(from);
  free(to);
  test_barrier();
}

int main(int argc, char **argv) {
  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  int per_pair = argc > 1 ? atoi(argv[1]) : 200;
  uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 20240501u;
  CHECK(per_pair > 0);

  run_phase(rank, size, per_pair, seed, 1);
  run_phase(rank, size, per_pair, seed, 2);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
