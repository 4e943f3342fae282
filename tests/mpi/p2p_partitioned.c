/* Partitioned communication (MPI-4.0 chapter 4) in a ring (each rank sends to its right, receives from its left;
 * itself on one rank): MPI_Psend_init / MPI_Precv_init started many times, partitions marked ready in a shuffled
 * order by MPI_Pready, MPI_Pready_range and MPI_Pready_list, and each receive partition read as soon as
 * MPI_Parrived says it is in. The two sides cut the message differently; receive types that are not contiguous;
 * messages large enough for rendezvous; matching in init order even when the requests start in another order;
 * MPI_PROC_NULL; truncation; requests freed without ever being started; and bad arguments. */
#include "test_util.h"

enum { TAG_CUTS = 40, TAG_ORDER = 41, TAG_OTHER = 42, TAG_TRUNC = 43, TAG_UNUSED = 44, ROUNDS = 4 };

static int rank, size, left, right;

/* Element i of round `round` of the message from `src` to `dst`. */
static int value(int src, int dst, int tag, int round, long i) {
  return (int)test_pattern(src, dst, tag * 64 + round, (uint64_t)i);
}

/* Marks every partition ready, in an order drawn from `rng`, switching between the three calls. */
static void mark_all(MPI_Request req, int partitions, test_rng *rng) {
  int *order = test_malloc(sizeof(int) * partitions);
  for (int k = 0; k < partitions; ++k) order[k] = k;
  for (int k = partitions - 1; k > 0; --k) {
    int j = (int)test_rng_below(rng, (uint64_t)k + 1), t = order[k];
    order[k] = order[j];
    order[j] = t;
  }
  for (int k = 0; k < partitions;) {
    int way = (int)test_rng_below(rng, 3), left_over = partitions - k;
    if (way == 0 || left_over == 1) {
      CHECK_MPI(MPI_Pready(order[k], req));
      ++k;
    } else if (way == 1) {
      int n = 1 + (int)test_rng_below(rng, (uint64_t)left_over);
      CHECK_MPI(MPI_Pready_list(n, order + k, req));
      k += n;
    } else { /* a range: the partitions [order[k], order[k] + n) that are still unmarked and next in `order` */
      int n = 1;
      while (k + n < partitions && order[k + n] == order[k] + n) ++n;
      CHECK_MPI(MPI_Pready_range(order[k], order[k] + n - 1, req));
      k += n;
    }
  }
  free(order);
}

/* One exchange of `total` ints cut into `sparts` send and `rparts` receive partitions; the receive type places
 * element i at rbuf[i * stride] (stride 1: MPI_INT, else a vector type whose gaps must stay untouched). */
static void exchange(long total, int sparts, int rparts, int stride) {
  int scount = (int)(total / sparts), rcount = (int)(total / rparts);
  int *sbuf = test_malloc(sizeof(int) * total), *rbuf = test_malloc(sizeof(int) * total * stride);
  MPI_Datatype rtype = MPI_INT;
  if (stride > 1) {
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(rcount, 1, stride, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_create_resized(vec, 0, (MPI_Aint)sizeof(int) * rcount * stride, &rtype));
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Type_commit(&rtype));
  }
  MPI_Request sreq, rreq;
  CHECK_MPI(MPI_Precv_init(rbuf, rparts, stride > 1 ? 1 : rcount, rtype, left, TAG_CUTS, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &rreq));
  CHECK_MPI(MPI_Psend_init(sbuf, sparts, scount, MPI_INT, right, TAG_CUTS, MPI_COMM_WORLD, MPI_INFO_NULL, &sreq));
  if (stride > 1) CHECK_MPI(MPI_Type_free(&rtype)); /* the request keeps it */
  test_rng rng = test_rng_make((uint64_t)rank * 7919 + (uint64_t)total);
  char *seen = test_malloc((size_t)rparts);
  for (int round = 0; round < ROUNDS; ++round) {
    for (long i = 0; i < total; ++i) sbuf[i] = value(rank, right, TAG_CUTS, round, i);
    for (long i = 0; i < total * stride; ++i) rbuf[i] = -7;
    memset(seen, 0, (size_t)rparts);
    MPI_Request both[2] = {rreq, sreq};
    CHECK_MPI(MPI_Startall(2, both));
    mark_all(sreq, sparts, &rng);
    /* Read each receive partition once MPI_Parrived says it is in; its data must then be complete. */
    for (int in = 0; in < rparts;) {
      for (int j = 0; j < rparts; ++j) {
        int flag = 0;
        if (seen[j]) continue;
        CHECK_MPI(MPI_Parrived(rreq, j, &flag));
        if (!flag) continue;
        for (long i = (long)j * rcount; i < (long)(j + 1) * rcount; ++i) {
          CHECK(rbuf[i * stride] == value(left, rank, TAG_CUTS, round, i));
          for (int g = 1; g < stride; ++g) CHECK(rbuf[i * stride + g] == -7);
        }
        seen[j] = 1;
        ++in;
      }
    }
    MPI_Status st[2];
    CHECK_MPI(MPI_Waitall(2, both, st));
    CHECK(both[0] == rreq && both[1] == sreq); /* persistent: inactive again, not freed */
    CHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == TAG_CUTS && test_count(&st[0], MPI_INT) == total);
    int flag = 0;
    CHECK_MPI(MPI_Parrived(rreq, 0, &flag)); /* an inactive request: every partition counts as arrived */
    CHECK(flag);
  }
  free(seen);
  CHECK_MPI(MPI_Request_free(&rreq));
  CHECK_MPI(MPI_Request_free(&sreq));
  CHECK(rreq == MPI_REQUEST_NULL && sreq == MPI_REQUEST_NULL);
  free(sbuf);
  free(rbuf);
}

/* Two partitioned sends with one tag and two with another, initialised in one order and started in another:
 * they match in init order (MPI-4.0 4.2.2), the receiver also having mixed the tags' order. */
static void init_order(void) {
  enum { N = 4, COUNT = 3 };
  int out[N][COUNT], in[N][COUNT];
  const int tags[N] = {TAG_ORDER, TAG_ORDER, TAG_OTHER, TAG_OTHER};
  MPI_Request s[N], r[N];
  for (int k = 0; k < N; ++k)
    for (int i = 0; i < COUNT; ++i) out[k][i] = value(rank, right, tags[k], k, i);
  for (int k = 0; k < N; ++k)
    CHECK_MPI(MPI_Psend_init(out[k], COUNT, 1, MPI_INT, right, tags[k], MPI_COMM_WORLD, MPI_INFO_NULL, &s[k]));
  const int recv_order[N] = {2, 0, 3, 1}; /* per tag still first-then-second */
  for (int n = 0; n < N; ++n) {
    int k = recv_order[n];
    CHECK_MPI(MPI_Precv_init(in[k], 1, COUNT, MPI_INT, left, tags[k], MPI_COMM_WORLD, MPI_INFO_NULL, &r[k]));
  }
  for (int k = N - 1; k >= 0; --k) { /* started backwards */
    CHECK_MPI(MPI_Start(&r[k]));
    CHECK_MPI(MPI_Start(&s[k]));
    CHECK_MPI(MPI_Pready_range(0, COUNT - 1, s[k]));
  }
  CHECK_MPI(MPI_Waitall(N, s, MPI_STATUSES_IGNORE));
  CHECK_MPI(MPI_Waitall(N, r, MPI_STATUSES_IGNORE));
  for (int k = 0; k < N; ++k) {
    for (int i = 0; i < COUNT; ++i) CHECK(in[k][i] == value(left, rank, tags[k], k, i));
    CHECK_MPI(MPI_Request_free(&s[k]));
    CHECK_MPI(MPI_Request_free(&r[k]));
  }
}

/* MPI_PROC_NULL ends: complete at once; zero partitions and zero counts complete too. */
static void empty_ends(void) {
  int buf[4] = {1, 2, 3, 4};
  MPI_Request s, r;
  MPI_Status st;
  int flag = 0;
  CHECK_MPI(MPI_Psend_init(buf, 2, 2, MPI_INT, MPI_PROC_NULL, TAG_CUTS, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
  CHECK_MPI(MPI_Precv_init(buf, 2, 2, MPI_INT, MPI_PROC_NULL, TAG_CUTS, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Start(&s));
  CHECK_MPI(MPI_Start(&r));
  CHECK_MPI(MPI_Pready_range(0, 1, s));
  CHECK_MPI(MPI_Parrived(r, 1, &flag));
  CHECK(flag);
  CHECK_MPI(MPI_Wait(&s, &st));
  test_poison_status(&st);
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(test_status_is_proc_null(&st));
  CHECK(buf[0] == 1 && buf[3] == 4);
  CHECK_MPI(MPI_Request_free(&s));
  CHECK_MPI(MPI_Request_free(&r));

  for (int zero_partitions = 0; zero_partitions < 2; ++zero_partitions) {
    int parts = zero_partitions ? 0 : 3, count = zero_partitions ? 5 : 0;
    CHECK_MPI(MPI_Psend_init(buf, parts, count, MPI_INT, right, TAG_CUTS, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_MPI(MPI_Precv_init(buf, parts, count, MPI_INT, left, TAG_CUTS, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    for (int round = 0; round < 2; ++round) {
      CHECK_MPI(MPI_Start(&r));
      CHECK_MPI(MPI_Start(&s));
      if (parts > 0) CHECK_MPI(MPI_Pready_range(0, parts - 1, s));
      CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
      CHECK_MPI(MPI_Wait(&r, &st));
      CHECK(st.MPI_SOURCE == left && st.MPI_TAG == TAG_CUTS && test_count(&st, MPI_INT) == 0);
    }
    CHECK_MPI(MPI_Request_free(&s));
    CHECK_MPI(MPI_Request_free(&r));
  }
}

/* A receive smaller than the message: MPI_ERR_TRUNCATE, with the part that fits delivered. */
static void truncation(void) {
  int out[12], in[8];
  for (int i = 0; i < 12; ++i) out[i] = value(rank, right, TAG_TRUNC, 0, i);
  for (int i = 0; i < 8; ++i) in[i] = -1;
  MPI_Request s, r;
  MPI_Status st;
  CHECK_MPI(MPI_Psend_init(out, 3, 4, MPI_INT, right, TAG_TRUNC, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
  CHECK_MPI(MPI_Precv_init(in, 2, 4, MPI_INT, left, TAG_TRUNC, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Start(&r));
  CHECK_MPI(MPI_Start(&s));
  CHECK_MPI(MPI_Pready_range(0, 2, s));
  CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
  TEST_EXPECT_ERROR(MPI_Wait(&r, &st), MPI_ERR_TRUNCATE, "MPI_Wait");
  for (int i = 0; i < 8; ++i) CHECK(in[i] == value(left, rank, TAG_TRUNC, 0, i));
  CHECK_MPI(MPI_Request_free(&s));
  CHECK_MPI(MPI_Request_free(&r));
}

/* Requests freed without a start (their hellos still travel) leave the next pair of the same tag unharmed. */
static void never_started(void) {
  int a = 0, b = 0;
  MPI_Request s, r;
  for (int i = 0; i < 3; ++i) {
    CHECK_MPI(MPI_Psend_init(&a, 1, 1, MPI_INT, right, TAG_UNUSED, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_MPI(MPI_Precv_init(&b, 1, 1, MPI_INT, left, TAG_UNUSED, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Request_free(&s));
    CHECK_MPI(MPI_Request_free(&r));
  }
  a = rank + 1000;
  CHECK_MPI(MPI_Psend_init(&a, 1, 1, MPI_INT, right, TAG_UNUSED, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
  CHECK_MPI(MPI_Precv_init(&b, 1, 1, MPI_INT, left, TAG_UNUSED, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Start(&s));
  CHECK_MPI(MPI_Start(&r));
  CHECK_MPI(MPI_Pready(0, s));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
  CHECK(b == left + 1000);
  CHECK_MPI(MPI_Request_free(&s));
  CHECK_MPI(MPI_Request_free(&r));
}

static void bad_input(void) {
  int buf[8] = {0}, in[8];
  MPI_Request s, r, plain;
  int flag = 0;
  TEST_EXPECT_ERROR(MPI_Psend_init(buf, -1, 1, MPI_INT, right, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &s), MPI_ERR_ARG,
                    "MPI_Psend_init");
  TEST_EXPECT_ERROR(MPI_Psend_init(buf, 1, -1, MPI_INT, right, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &s), MPI_ERR_COUNT,
                    "MPI_Psend_init");
  TEST_EXPECT_ERROR(MPI_Psend_init(buf, 1, 1, MPI_INT, size, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &s), MPI_ERR_RANK,
                    "MPI_Psend_init");
  TEST_EXPECT_ERROR(MPI_Psend_init(buf, 1, 1, MPI_INT, right, -5, MPI_COMM_WORLD, MPI_INFO_NULL, &s), MPI_ERR_TAG,
                    "MPI_Psend_init");
  TEST_EXPECT_ERROR(MPI_Psend_init(buf, 1, 1, MPI_DATATYPE_NULL, right, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &s),
                    MPI_ERR_TYPE, "MPI_Psend_init");
  TEST_EXPECT_ERROR(MPI_Psend_init(buf, 1, 1, MPI_INT, right, 1, MPI_COMM_NULL, MPI_INFO_NULL, &s), MPI_ERR_COMM,
                    "MPI_Psend_init");
  TEST_EXPECT_ERROR(MPI_Precv_init(buf, 1, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                    MPI_ERR_RANK, "MPI_Precv_init");
  TEST_EXPECT_ERROR(MPI_Precv_init(buf, 1, 1, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                    MPI_ERR_TAG, "MPI_Precv_init");
  TEST_EXPECT_ERROR(MPI_Precv_init(buf, 1, 1, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_INFO_NULL, NULL), MPI_ERR_ARG,
                    "MPI_Precv_init");

  CHECK_MPI(MPI_Psend_init(buf, 4, 2, MPI_INT, right, TAG_CUTS, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
  CHECK_MPI(MPI_Precv_init(in, 4, 2, MPI_INT, left, TAG_CUTS, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  TEST_EXPECT_ERROR(MPI_Pready(0, s), MPI_ERR_REQUEST, "MPI_Pready"); /* not started */
  CHECK_MPI(MPI_Start(&r));
  CHECK_MPI(MPI_Start(&s));
  TEST_EXPECT_ERROR(MPI_Pready(4, s), MPI_ERR_ARG, "MPI_Pready");
  TEST_EXPECT_ERROR(MPI_Pready(-1, s), MPI_ERR_ARG, "MPI_Pready");
  TEST_EXPECT_ERROR(MPI_Pready(0, r), MPI_ERR_REQUEST, "MPI_Pready");
  TEST_EXPECT_ERROR(MPI_Pready(0, MPI_REQUEST_NULL), MPI_ERR_REQUEST, "MPI_Pready");
  TEST_EXPECT_ERROR(MPI_Pready_range(2, 1, s), MPI_ERR_ARG, "MPI_Pready_range");
  TEST_EXPECT_ERROR(MPI_Pready_list(-1, NULL, s), MPI_ERR_ARG, "MPI_Pready_list");
  const int twice[2] = {1, 1};
  TEST_EXPECT_ERROR(MPI_Pready_list(2, twice, s), MPI_ERR_ARG, "MPI_Pready_list"); /* and nothing was marked */
  const int then_bad[2] = {2, 9};
  TEST_EXPECT_ERROR(MPI_Pready_list(2, then_bad, s), MPI_ERR_ARG, "MPI_Pready_list"); /* 2 stays unmarked */
  TEST_EXPECT_ERROR(MPI_Parrived(s, 0, &flag), MPI_ERR_REQUEST, "MPI_Parrived");
  TEST_EXPECT_ERROR(MPI_Parrived(r, 4, &flag), MPI_ERR_ARG, "MPI_Parrived");
  TEST_EXPECT_ERROR(MPI_Parrived(r, 0, NULL), MPI_ERR_ARG, "MPI_Parrived");
  TEST_EXPECT_ERROR(MPI_Request_free(&s), MPI_ERR_REQUEST, "MPI_Request_free"); /* active: s waits for its partitions */
  TEST_EXPECT_ERROR(MPI_Cancel(&s), MPI_ERR_REQUEST, "MPI_Cancel");
  CHECK_MPI(MPI_Pready(1, s));
  TEST_EXPECT_ERROR(MPI_Pready_range(0, 1, s), MPI_ERR_ARG, "MPI_Pready_range"); /* 1 is marked already */
  CHECK_MPI(MPI_Pready_list(3, (const int[]){0, 3, 2}, s));
  CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Request_free(&s));
  CHECK_MPI(MPI_Request_free(&r));

  /* MPI_Parrived on a null request, and on a request that is not partitioned. */
  flag = 0;
  CHECK_MPI(MPI_Parrived(MPI_REQUEST_NULL, 0, &flag));
  CHECK(flag);
  CHECK_MPI(MPI_Irecv(in, 1, MPI_INT, left, TAG_UNUSED, MPI_COMM_WORLD, &plain));
  TEST_EXPECT_ERROR(MPI_Parrived(plain, 0, &flag), MPI_ERR_REQUEST, "MPI_Parrived");
  TEST_EXPECT_ERROR(MPI_Pready(0, plain), MPI_ERR_REQUEST, "MPI_Pready");
  CHECK_MPI(MPI_Cancel(&plain));
  CHECK_MPI(MPI_Wait(&plain, MPI_STATUS_IGNORE));
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;

  exchange(60, 6, 4, 1);        /* cuts that do not line up */
  exchange(60, 4, 6, 1);
  exchange(60, 5, 3, 3);        /* a receive type with gaps: staged, unpacked per landed partition */
  exchange(1, 1, 1, 1);
  exchange(1 << 18, 4, 16, 1);  /* 256 KiB partitions: rendezvous */
  exchange(1 << 16, 16, 2, 2);
  init_order();
  empty_ends();
  truncation();
  never_started();
  bad_input();

  test_barrier();
  CHECK_MPI(MPI_Finalize());
  if (rank == 0) printf("p2p_partitioned: OK\n");
  return 0;
}
