/* Rendezvous messages (256 KiB, over the rings' 64 KiB eager limit) between buffers at every kind of distance modulo
 * 4 KiB: the same page offset, 8-63 bytes apart, and 64 bytes and more apart, each way and both ways at once
 * (MPI_Sendrecv). Every byte of every message is checked, and the bytes around it are not touched.
 *
 * How each message travelled is checked too, through Strata's MPI_T counter strata_p2p_messages_read: from a rank of
 * this node the receiver reads the sender's memory, except where the kernel's copy is slow (receive buffer 1-63 bytes
 * past the send buffer modulo 4 KiB, at the distances the MPI_T variable strata_slow_copy_distances names: ring pieces
 * instead), with STRATA_P2P_CMA=0 (pieces), =1 (always a read), or STRATA_CMA=0 (never). Whether the kernel lets this process read its partner at all is probed here, independently,
 * with process_vm_readv. Ranks pair up (2k, 2k+1); an odd last rank sits out. */
#define _GNU_SOURCE /* process_vm_readv */
#include <sys/uio.h>
#include <unistd.h>

#include "test_util.h"

enum { BYTES = 256 * 1024, PAGE = 4096, GUARD = 64, POISON = 0xA5 };

static const int kOffsets[] = {0, 8, 16, 40, 63, 64, 100, PAGE - 24};
static int slow_distance[64]; /* strata_slow_copy_distances */
enum { OFFSETS = sizeof kOffsets / sizeof kOffsets[0] };

static void fill(unsigned char *p, int seed) {
  for (size_t i = 0; i < BYTES; ++i) p[i] = (unsigned char)test_pattern(seed, 0, 0, i);
}

static void check(const unsigned char *p, int seed) {
  for (size_t i = 0; i < BYTES; ++i) CHECK(p[i] == (unsigned char)test_pattern(seed, 0, 0, i));
  for (size_t i = 1; i <= GUARD; ++i) CHECK(p[-(ptrdiff_t)i] == POISON && p[BYTES + i - 1] == POISON);
}

static MPI_T_pvar_session session;
static MPI_T_pvar_handle reads;

static unsigned long long messages_read(void) {
  unsigned long long value = 0;
  CHECK(MPI_T_pvar_read(session, reads, &value) == MPI_SUCCESS);
  return value;
}

static void start_counting_reads(void) {
  int provided, index, count;
  CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_get_index("strata_p2p_messages_read", MPI_T_PVAR_CLASS_COUNTER, &index) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_session_create(&session) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_handle_alloc(session, index, NULL, &reads, &count) == MPI_SUCCESS && count == 1);
  CHECK(MPI_T_pvar_start(session, reads) == MPI_SUCCESS);
}

/* strata_slow_copy_distances: "none", or distances and ranges in 1-63 ("1-15,40"); when STRATA_SLOW_COPY_DISTANCES
 * is set, its value. */
static void read_slow_distances(void) {
  int index, count;
  MPI_T_cvar_handle h;
  CHECK(MPI_T_cvar_get_index("strata_slow_copy_distances", &index) == MPI_SUCCESS);
  CHECK(MPI_T_cvar_handle_alloc(index, NULL, &h, &count) == MPI_SUCCESS);
  char *text = test_malloc((size_t)count);
  CHECK(MPI_T_cvar_read(h, text) == MPI_SUCCESS);
  CHECK(MPI_T_cvar_handle_free(&h) == MPI_SUCCESS);
  const char *given = getenv("STRATA_SLOW_COPY_DISTANCES");
  if (given && *given) CHECK(strcmp(text, given) == 0);
  if (strcmp(text, "none") != 0)
    for (char *at = text;;) {
      char *end;
      const long first = strtol(at, &end, 10);
      const long last = *end == '-' ? strtol(end + 1, &end, 10) : first;
      CHECK(first >= 1 && first <= last && last <= 63 && (*end == ',' || *end == '\0'));
      for (long d = first; d <= last; ++d) slow_distance[d] = 1;
      if (*end == '\0') break;
      at = end + 1;
    }
  free(text);
}

static void stop_counting_reads(void) {
  CHECK(MPI_T_pvar_handle_free(session, &reads) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_session_free(&session) == MPI_SUCCESS);
  CHECK(MPI_T_finalize() == MPI_SUCCESS);
}

/* Whether `partner` shares this node (MPI_COMM_TYPE_SHARED) and the kernel lets this process read its memory.
 * Collective over MPI_COMM_WORLD; a rank without a partner (partner == size) gets 0. */
static int partner_readable(int partner, int size) {
  MPI_Comm node;
  MPI_Group world_group, node_group;
  int on_node;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
  CHECK_MPI(MPI_Comm_group(node, &node_group));
  int asked = partner < size ? partner : 0;
  CHECK_MPI(MPI_Group_translate_ranks(world_group, 1, &asked, node_group, &on_node));
  MPI_Group_free(&world_group);
  MPI_Group_free(&node_group);
  MPI_Comm_free(&node);
  if (partner >= size) return 0;

  static uint64_t probe = 0x5eed;
  uint64_t mine[2] = {(uint64_t)getpid(), (uint64_t)(uintptr_t)&probe}, theirs[2], got = 0;
  CHECK_MPI(MPI_Sendrecv(mine, 2, MPI_UINT64_T, partner, 0, theirs, 2, MPI_UINT64_T, partner, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE));
  struct iovec local = {&got, sizeof got}, remote = {(void *)(uintptr_t)theirs[1], sizeof got};
  const int readable = process_vm_readv((pid_t)theirs[0], &local, 1, &remote, 1, 0) == (ssize_t)sizeof got;
  CHECK(!readable || got == 0x5eed);
  return on_node != MPI_UNDEFINED && readable;
}

/* Whether the transport should read a message sent from page offset `from` into page offset `to`. */
static int expect_read(int readable, int from, int to) {
  const char *cma = getenv("STRATA_CMA"), *p2p = getenv("STRATA_P2P_CMA");
  if (!readable || (cma && strcmp(cma, "0") == 0)) return 0;
  if (p2p && *p2p) return strcmp(p2p, "1") == 0;
  const int distance = ((to - from) % PAGE + PAGE) % PAGE;
  return distance >= 64 || !slow_distance[distance];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int partner = rank ^ 1;
  unsigned char *send_area = aligned_alloc(PAGE, BYTES + 3 * PAGE), *recv_area = aligned_alloc(PAGE, BYTES + 3 * PAGE);
  CHECK(send_area && recv_area);
  start_counting_reads();
  read_slow_distances();
  const int readable = partner_readable(partner, size);
  int tag = 0;
  for (int s = 0; s < OFFSETS; ++s)
    for (int r = 0; r < OFFSETS; ++r, ++tag) {
      if (partner >= size) continue;
      unsigned char *out = send_area + PAGE + kOffsets[s], *in = recv_area + PAGE + kOffsets[r];
      const unsigned long long expected = (unsigned long long)expect_read(readable, kOffsets[s], kOffsets[r]);
      fill(out, tag * 2 + rank);
      memset(recv_area, POISON, BYTES + 3 * PAGE);
      if (rank % 2 == 0) { /* one way: even to odd */
        CHECK_MPI(MPI_Send(out, BYTES, MPI_BYTE, partner, tag, MPI_COMM_WORLD));
      } else {
        const unsigned long long before = messages_read();
        CHECK_MPI(MPI_Recv(in, BYTES, MPI_BYTE, partner, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(messages_read() - before == expected);
        check(in, tag * 2 + partner);
      }
      memset(recv_area, POISON, BYTES + 3 * PAGE);
      const unsigned long long before = messages_read();
      CHECK_MPI(MPI_Sendrecv(out, BYTES, MPI_BYTE, partner, tag, in, BYTES, MPI_BYTE, partner, tag, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE));
      CHECK(messages_read() - before == expected);
      check(in, tag * 2 + partner);
    }
  stop_counting_reads();
  free(send_area);
  free(recv_area);
  MPI_Finalize();
  return 0;
}
