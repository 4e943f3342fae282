/* The collectives' node shared memory (coll/node_segment.hpp; Strata only). On a communicator whose bcast is forced
 * to "shared_memory" (info key strata_coll_bcast, on a dup of MPI_COMM_WORLD and on the halves of a split):
 *  - MPIX_Comm_get_coll_info and MPIX_Request_get_algorithm name it;
 *  - blocking bcasts from every root, of 0 bytes up to three node areas and an odd size, give everyone the root's
 *    bytes, with MPI_INT and with a strided vector type at the root against contiguous ints elsewhere;
 *  - 20 Ibcasts outstanding at once (more runs than the 16 rotating slots), waited for in reverse order;
 *  - 20 persistent bcasts (16 with slots of their own, 4 past them, which use messages) are each started 3 times
 *    by one MPI_Startall in an order that depends on the rank, with new data at every start;
 *  - once every member has made a collective call, no strata_<job>_coll segment is left in /dev/shm. */
#include "win_util.h"

enum { AREA = 128 * 1024, NIBCAST = 20, NPERSISTENT = 20, STARTS = 3 };

static int expected(int seed, int root, long i) {
  return (int)(test_mix64(((uint64_t)seed << 40) ^ ((uint64_t)root << 32) ^ (uint64_t)i) & 0x7fffffff);
}

static void fill(int *buf, long n, int seed, int root) {
  for (long i = 0; i < n; ++i) buf[i] = expected(seed, root, i);
}

static void check_filled(const int *buf, long n, int seed, int root) {
  for (long i = 0; i < n; ++i)
    if (buf[i] != expected(seed, root, i)) {
      char detail[128];
      snprintf(detail, sizeof detail, " (element %ld of %ld, seed %d, root %d)", i, n, seed, root);
      test_fail(__FILE__, __LINE__, "bcast result", detail);
    }
}

/* Whether all of comm's ranks share this node (with no collective call on comm: the query below must come first).
 * The shared-memory bcast serves only such communicators: on others the forced name does not apply, and the
 * automatic choice runs. */
static int on_one_node(MPI_Comm comm) {
  MPI_Comm node;
  int size, node_size;
  CHECK_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  CHECK_MPI(MPI_Comm_size(comm, &size));
  CHECK_MPI(MPI_Comm_size(node, &node_size));
  CHECK_MPI(MPI_Comm_free(&node));
  return node_size == size; /* alike everywhere: a communicator spanning nodes leaves every node short */
}

static void check_name(const char *name, int shared) {
  CHECK(shared ? strcmp(name, "shared_memory") == 0 : strcmp(name, "shared_memory") != 0);
}

static void check_algorithm(MPI_Comm comm, int shared) {
  MPI_Info info;
  char value[MPI_MAX_INFO_VAL + 1];
  int flag = 0;
  CHECK_MPI(MPIX_Comm_get_coll_info(comm, "bcast", 1000, &info));
  CHECK_MPI(MPI_Info_get(info, "algorithm", MPI_MAX_INFO_VAL, value, &flag));
  CHECK(flag);
  check_name(value, shared);
  CHECK_MPI(MPI_Info_free(&info));
}

static void blocking(MPI_Comm comm) {
  int rank, size;
  CHECK_MPI(MPI_Comm_rank(comm, &rank));
  CHECK_MPI(MPI_Comm_size(comm, &size));
  const long counts[] = {0, 1, 7, AREA / 4, AREA / 4 + 1, 3 * AREA / 4 - 5};
  const long most = 3 * AREA / 4;
  int *buf = malloc(2 * most * sizeof(int));
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector((int)most, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  for (int root = 0; root < size; ++root)
    for (size_t c = 0; c < sizeof counts / sizeof *counts; ++c) {
      const long n = counts[c];
      const int seed = (int)c + 10 * root;
      if (rank == root) fill(buf, n, seed, root);
      else memset(buf, 0xff, (size_t)n * sizeof(int));
      CHECK_MPI(MPI_Bcast(buf, (int)n, MPI_INT, root, comm));
      check_filled(buf, n, seed, root);
    }
  /* The root describes the same ints with a strided type: only the signatures match. */
  for (int root = 0; root < size; ++root) {
    if (rank == root) {
      int *packed = malloc(most * sizeof(int));
      fill(packed, most, 99, root);
      for (long i = 0; i < most; ++i) buf[2 * i] = packed[i];
      free(packed);
      CHECK_MPI(MPI_Bcast(buf, 1, every_other, root, comm));
    } else {
      memset(buf, 0xff, most * sizeof(int));
      CHECK_MPI(MPI_Bcast(buf, (int)most, MPI_INT, root, comm));
      check_filled(buf, most, 99, root);
    }
  }
  CHECK_MPI(MPI_Type_free(&every_other));
  free(buf);
}

static void nonblocking(MPI_Comm comm, int shared) {
  int size;
  CHECK_MPI(MPI_Comm_size(comm, &size));
  int *bufs[NIBCAST];
  MPI_Request requests[NIBCAST];
  int rank;
  CHECK_MPI(MPI_Comm_rank(comm, &rank));
  for (int k = 0; k < NIBCAST; ++k) {
    const long n = 1000 + (long)k * AREA / 16;
    const int root = k % size;
    bufs[k] = malloc((size_t)n * sizeof(int));
    if (rank == root) fill(bufs[k], n, 1000 + k, root);
    CHECK_MPI(MPI_Ibcast(bufs[k], (int)n, MPI_INT, root, comm, &requests[k]));
  }
  char name[MPI_MAX_OBJECT_NAME];
  int len = 0;
  CHECK_MPI(MPIX_Request_get_algorithm(requests[0], name, &len));
  check_name(name, shared);
  for (int k = NIBCAST - 1; k >= 0; --k) {
    CHECK_MPI(MPI_Wait(&requests[k], MPI_STATUS_IGNORE));
    check_filled(bufs[k], 1000 + (long)k * AREA / 16, 1000 + k, k % size);
    free(bufs[k]);
  }
}

static void persistent(MPI_Comm comm, MPI_Info info) {
  int rank, size;
  CHECK_MPI(MPI_Comm_rank(comm, &rank));
  CHECK_MPI(MPI_Comm_size(comm, &size));
  int *bufs[NPERSISTENT];
  MPI_Request requests[NPERSISTENT], order[NPERSISTENT];
  for (int k = 0; k < NPERSISTENT; ++k) {
    bufs[k] = malloc((size_t)(AREA / 2) * sizeof(int));
    CHECK_MPI(MPI_Bcast_init(bufs[k], (int)(AREA / 2 - k), MPI_INT, k % size, comm, info, &requests[k]));
  }
  for (int start = 0; start < STARTS; ++start) {
    for (int k = 0; k < NPERSISTENT; ++k) {
      const int seed = 2000 + 100 * start + k;
      if (rank == k % size) fill(bufs[k], AREA / 2 - k, seed, k % size);
      /* Odd ranks start them backwards, even ones rotated by their rank. */
      order[k] = requests[rank % 2 ? NPERSISTENT - 1 - k : (k + rank) % NPERSISTENT];
    }
    CHECK_MPI(MPI_Startall(NPERSISTENT, order));
    CHECK_MPI(MPI_Waitall(NPERSISTENT, requests, MPI_STATUSES_IGNORE));
    for (int k = 0; k < NPERSISTENT; ++k) check_filled(bufs[k], AREA / 2 - k, 2000 + 100 * start + k, k % size);
  }
  for (int k = 0; k < NPERSISTENT; ++k) {
    CHECK_MPI(MPI_Request_free(&requests[k]));
    free(bufs[k]);
  }
}

static void run_all(MPI_Comm comm, MPI_Info info) {
  const int shared = on_one_node(comm);
  check_algorithm(comm, shared); /* before any collective call on comm: a query does not attach its segment */
  blocking(comm);
  nonblocking(comm, shared);
  persistent(comm, info);
}

int main(int argc, char **argv) {
  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "strata_coll_bcast", "shared_memory"));
  MPI_Comm world, half;
  CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &world));
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half));
  CHECK_MPI(MPI_Comm_set_info(half, info));
  if (size > 1) run_all(world, info);
  int half_size;
  CHECK_MPI(MPI_Comm_size(half, &half_size));
  if (half_size > 1) run_all(half, info);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK(test_segments_in_dev_shm("coll") == 0);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Comm_free(&world));
  CHECK_MPI(MPI_Comm_free(&half));
  CHECK_MPI(MPI_Info_free(&info));
  if (rank == 0) printf("coll_node_memory: %d ranks passed\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
