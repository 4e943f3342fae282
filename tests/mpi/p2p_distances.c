/* Rendezvous messages (256 KiB, over the rings' 64 KiB eager limit) between buffers at every kind of distance modulo
 * 4 KiB: the same page offset, 8-63 bytes apart (where the transport avoids the kernel's slow copy and sends ring
 * pieces instead of reading), and 64 bytes and more apart, each way and both ways at once (MPI_Sendrecv). Every byte
 * of every message is checked, and the bytes around it are not touched. Ranks pair up (2k, 2k+1); an odd last rank
 * sits out. */
#include "test_util.h"

enum { BYTES = 256 * 1024, PAGE = 4096, GUARD = 64, POISON = 0xA5 };

static const int kOffsets[] = {0, 8, 16, 40, 63, 64, 100, PAGE - 24};
enum { OFFSETS = sizeof kOffsets / sizeof kOffsets[0] };

static void fill(unsigned char *p, int seed) {
  for (size_t i = 0; i < BYTES; ++i) p[i] = (unsigned char)test_pattern(seed, 0, 0, i);
}

static void check(const unsigned char *p, int seed) {
  for (size_t i = 0; i < BYTES; ++i) CHECK(p[i] == (unsigned char)test_pattern(seed, 0, 0, i));
  for (size_t i = 1; i <= GUARD; ++i) CHECK(p[-(ptrdiff_t)i] == POISON && p[BYTES + i - 1] == POISON);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int partner = rank ^ 1;
  unsigned char *send_area = aligned_alloc(PAGE, BYTES + 3 * PAGE), *recv_area = aligned_alloc(PAGE, BYTES + 3 * PAGE);
  CHECK(send_area && recv_area);
  int tag = 0;
  for (int s = 0; s < OFFSETS; ++s)
    for (int r = 0; r < OFFSETS; ++r, ++tag) {
      if (partner >= size) continue;
      unsigned char *out = send_area + PAGE + kOffsets[s], *in = recv_area + PAGE + kOffsets[r];
      fill(out, tag * 2 + rank);
      memset(recv_area, POISON, BYTES + 3 * PAGE);
      if (rank % 2 == 0) {  /* one way: even to odd */
        CHECK_MPI(MPI_Send(out, BYTES, MPI_BYTE, partner, tag, MPI_COMM_WORLD));
      } else {
        CHECK_MPI(MPI_Recv(in, BYTES, MPI_BYTE, partner, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        check(in, tag * 2 + partner);
      }
      memset(recv_area, POISON, BYTES + 3 * PAGE);
      CHECK_MPI(MPI_Sendrecv(out, BYTES, MPI_BYTE, partner, tag, in, BYTES, MPI_BYTE, partner, tag, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE));
      check(in, tag * 2 + partner);
    }
  free(send_area);
  free(recv_area);
  MPI_Finalize();
  return 0;
}
