/* Basic point-to-point: Send/Recv and Isend/Irecv of MPI_BYTE, MPI_CHAR, MPI_INT and MPI_DOUBLE between every pair
 * of ranks, counts from 0 across the eager/rendezvous boundaries up to 4 MiB; MPI_PROC_NULL as source and
 * destination; messages to oneself; MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE.  Runs on any number of ranks. */
#include "test_util.h"

typedef struct {
  MPI_Datatype type;
  int count;
} msg_case;

/* Counts in elements. The byte sizes straddle the usual eager limits (4 KiB pages, 64 KiB) and reach 4 MiB. */
static const msg_case cases[] = {
    {MPI_BYTE, 0},      {MPI_BYTE, 1},     {MPI_BYTE, 7},       {MPI_BYTE, 4095},   {MPI_BYTE, 4096},
    {MPI_BYTE, 4097},   {MPI_BYTE, 65539}, {MPI_BYTE, 1048577}, {MPI_BYTE, 4194304}, {MPI_CHAR, 0},
    {MPI_CHAR, 1},      {MPI_CHAR, 13},    {MPI_CHAR, 4097},    {MPI_CHAR, 65539},  {MPI_INT, 0},
    {MPI_INT, 1},       {MPI_INT, 3},      {MPI_INT, 1023},     {MPI_INT, 1024},    {MPI_INT, 1025},
    {MPI_INT, 16387},   {MPI_INT, 262145}, {MPI_DOUBLE, 0},     {MPI_DOUBLE, 1},    {MPI_DOUBLE, 5},
    {MPI_DOUBLE, 511},  {MPI_DOUBLE, 512}, {MPI_DOUBLE, 513},   {MPI_DOUBLE, 8195}, {MPI_DOUBLE, 131073},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

static size_t case_bytes(int c) { return (size_t)cases[c].count * test_type_size(cases[c].type); }

/* Checks a received case: status fields, count, and content. `tag` is the case index. */
static void check_received(const void *buf, int c, int src, int dst, const MPI_Status *st) {
  CHECK(st->MPI_SOURCE == src);
  CHECK(st->MPI_TAG == c);
  CHECK(test_count(st, cases[c].type) == cases[c].count);
  CHECK(test_count(st, MPI_BYTE) == (int)case_bytes(c));
  CHECK(test_verify(buf, cases[c].type, cases[c].count, src, dst, c) == -1);
}

static void test_type_sizes(void) {
  int s = 0;
  CHECK_MPI(MPI_Type_size(MPI_INT, &s));
  CHECK(s == (int)sizeof(int));
  CHECK_MPI(MPI_Type_size(MPI_DOUBLE, &s));
  CHECK(s == (int)sizeof(double));
  CHECK_MPI(MPI_Type_size(MPI_CHAR, &s));
  CHECK(s == 1);
  CHECK_MPI(MPI_Type_size(MPI_BYTE, &s));
  CHECK(s == 1);
}

/* MPI-4.0 3.11: communication with MPI_PROC_NULL succeeds at once; a receive leaves the buffer alone and returns
 * source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0. */
static void test_proc_null(void) {
  int data[4] = {11, 22, 33, 44};
  MPI_Status st;
  MPI_Request req;

  CHECK_MPI(MPI_Send(data, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Isend(data, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK(req == MPI_REQUEST_NULL);

  test_poison_status(&st);
  CHECK_MPI(MPI_Recv(data, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st));
  CHECK(test_status_is_proc_null(&st));
  CHECK(data[0] == 11 && data[3] == 44);

  test_poison_status(&st);
  CHECK_MPI(MPI_Recv(data, 4, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
  CHECK(test_status_is_proc_null(&st));

  test_poison_status(&st);
  CHECK_MPI(MPI_Irecv(data, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Wait(&req, &st));
  CHECK(req == MPI_REQUEST_NULL);
  CHECK(test_status_is_proc_null(&st));
  CHECK(data[1] == 22 && data[2] == 33);
}

/* Messages to oneself: the send must not block when its receive comes later (Isend then Recv), nor when the
 * receive was posted first (Irecv then blocking Send). Sizes include rendezvous ones. */
static void test_self(int rank) {
  for (int c = 0; c < NCASES; ++c) {
    size_t bytes = case_bytes(c);
    void *sbuf = test_malloc(bytes), *rbuf = test_malloc(bytes);
    MPI_Request req;
    MPI_Status st;
    test_fill(sbuf, cases[c].type, cases[c].count, rank, rank, c);

    memset(rbuf, 0, bytes);
    CHECK_MPI(MPI_Isend(sbuf, cases[c].count, cases[c].type, rank, c, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Recv(rbuf, cases[c].count, cases[c].type, rank, c, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    check_received(rbuf, c, rank, rank, &st);

    /* Wildcards, one at a time: between the barriers around this test only barrier messages travel, so
     * (ANY_SOURCE, case tag) and (own rank, ANY_TAG) can only match the message to oneself. */
    memset(rbuf, 0, bytes);
    if (c % 2 == 0)
      CHECK_MPI(MPI_Irecv(rbuf, cases[c].count, cases[c].type, MPI_ANY_SOURCE, c, MPI_COMM_WORLD, &req));
    else
      CHECK_MPI(MPI_Irecv(rbuf, cases[c].count, cases[c].type, rank, MPI_ANY_TAG, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Send(sbuf, cases[c].count, cases[c].type, rank, c, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&req, &st));
    check_received(rbuf, c, rank, rank, &st);
    free(sbuf);
    free(rbuf);
  }
}

/* Blocking exchange between rank and peer: the lower rank sends first, the higher one receives first. Odd cases
 * receive into a larger buffer than needed (the count must report the message, not the buffer); some cases
 * receive with MPI_STATUS_IGNORE. */
static void exchange_blocking(int rank, int peer) {
  for (int turn = 0; turn < 2; ++turn) {
    int sending = (turn == 0) == (rank < peer);
    for (int c = 0; c < NCASES; ++c) {
      size_t esize = test_type_size(cases[c].type);
      int extra = (c % 2) ? 3 : 0;
      void *buf = test_malloc(case_bytes(c) + extra * esize);
      if (sending) {
        test_fill(buf, cases[c].type, cases[c].count, rank, peer, c);
        CHECK_MPI(MPI_Send(buf, cases[c].count, cases[c].type, peer, c, MPI_COMM_WORLD));
      } else if (c % 4 == 2) {
        CHECK_MPI(MPI_Recv(buf, cases[c].count + extra, cases[c].type, peer, c, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(test_verify(buf, cases[c].type, cases[c].count, peer, rank, c) == -1);
      } else {
        MPI_Status st;
        test_poison_status(&st);
        CHECK_MPI(MPI_Recv(buf, cases[c].count + extra, cases[c].type, peer, c, MPI_COMM_WORLD, &st));
        check_received(buf, c, peer, rank, &st);
      }
      free(buf);
    }
  }
}

/* Every rank exchanges every case with every other rank at once, all nonblocking, completed by one Waitall. */
static void exchange_nonblocking_all(int rank, int size, int ignore_statuses) {
  int n = (size - 1) * NCASES;
  void **sbufs = calloc(n ? n : 1, sizeof *sbufs), **rbufs = calloc(n ? n : 1, sizeof *rbufs);
  MPI_Request *reqs = calloc(2 * (size_t)n + 1, sizeof *reqs);
  MPI_Status *sts = calloc(2 * (size_t)n + 1, sizeof *sts);
  int k = 0;
  for (int d = 1; d < size; ++d) {
    int from = (rank - d + size) % size;
    for (int c = 0; c < NCASES; ++c, ++k) {
      rbufs[k] = test_malloc(case_bytes(c));
      CHECK_MPI(MPI_Irecv(rbufs[k], cases[c].count, cases[c].type, from, c, MPI_COMM_WORLD, &reqs[k]));
    }
  }
  k = 0;
  for (int d = 1; d < size; ++d) {
    int to = (rank + d) % size;
    for (int c = 0; c < NCASES; ++c, ++k) {
      sbufs[k] = test_malloc(case_bytes(c));
      test_fill(sbufs[k], cases[c].type, cases[c].count, rank, to, c);
      CHECK_MPI(MPI_Isend(sbufs[k], cases[c].count, cases[c].type, to, c, MPI_COMM_WORLD, &reqs[n + k]));
    }
  }
  CHECK_MPI(MPI_Waitall(2 * n, reqs, ignore_statuses ? MPI_STATUSES_IGNORE : sts));
  for (int i = 0; i < 2 * n; ++i) CHECK(reqs[i] == MPI_REQUEST_NULL);
  k = 0;
  for (int d = 1; d < size; ++d) {
    int from = (rank - d + size) % size;
    for (int c = 0; c < NCASES; ++c, ++k) {
      if (ignore_statuses)
        CHECK(test_verify(rbufs[k], cases[c].type, cases[c].count, from, rank, c) == -1);
      else
        check_received(rbufs[k], c, from, rank, &sts[k]);
      free(rbufs[k]);
      free(sbufs[k]);
    }
  }
  free(sbufs);
  free(rbufs);
  free(reqs);
  free(sts);
}

int main(int argc, char **argv) {
  int rank, size;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(size >= 1 && rank >= 0 && rank < size);

  test_type_sizes();
  test_proc_null();
  test_barrier();
  test_self(rank);
  test_barrier();

  /* Pairs in one global order: deadlock-free with blocking calls, whatever the rendezvous threshold. */
  for (int a = 0; a < size; ++a)
    for (int b = a + 1; b < size; ++b)
      if (rank == a || rank == b) exchange_blocking(rank, rank == a ? b : a);
  test_barrier();

  exchange_nonblocking_all(rank, size, 0);
  exchange_nonblocking_all(rank, size, 1);
  test_barrier();

  CHECK_MPI(MPI_Finalize());
  return 0;
}
