/* MPI_Comm_dup, MPI_Comm_dup_with_info, MPI_Comm_idup(_with_info), MPI_Comm_set_info/get_info (MPI-4.0 7.4.2,
 * 7.4.4); MPI_Comm_disconnect of a duplicate (11.10.4).
 *
 * A duplicate has the same group (MPI_CONGRUENT with the original, MPI_IDENT groups) but its own communication
 * context: a message sent on the duplicate is never matched by a receive posted on the original, even one with
 * MPI_ANY_SOURCE/MPI_ANY_TAG posted first. Info hints: Comm_dup and Comm_idup propagate them, Comm_(i)dup_with_info
 * replaces them with the given ones, Comm_get_info returns a new info object the caller frees.
 * Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;
static int *world_ids; /* world_ids[r] = r */
static MPI_Comm sync_comm; /* barriers only: the wildcard receives below would match barrier messages on WORLD */

/* Proves `dup` and `orig` are separate contexts. Each rank posts a wildcard receive on `orig`, its left neighbour
 * sends on `dup`; the message must arrive on `dup` and never satisfy the receive on `orig`. Iprobe then sees a
 * second message on `dup` only. Finally a message on `orig` completes the wildcard receive. */
static void check_isolation(MPI_Comm orig, MPI_Comm dup, int tag) {
  int n, me;
  CHECK_MPI(MPI_Comm_size(dup, &n));
  CHECK_MPI(MPI_Comm_rank(dup, &me));
  int right = (me + 1) % n, left = (me - 1 + n) % n;
  int orig_buf[2] = {-1, -1}, dup_buf[2] = {-1, -1}, msg[2] = {me, tag}, msg2[2] = {me, tag + 1};
  MPI_Request orig_req, dup_req, send_req;
  MPI_Status st;

  CHECK_MPI(MPI_Irecv(orig_buf, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, orig, &orig_req));
  test_barrier_comm(sync_comm); /* every wildcard receive is posted before any message is sent on dup */
  CHECK_MPI(MPI_Irecv(dup_buf, 2, MPI_INT, left, tag, dup, &dup_req));
  CHECK_MPI(MPI_Isend(msg, 2, MPI_INT, right, tag, dup, &send_req));
  int done = 0, orig_done = 0;
  while (!done) {
    CHECK_MPI(MPI_Test(&dup_req, &done, &st));
    CHECK_MPI(MPI_Test(&orig_req, &orig_done, MPI_STATUS_IGNORE));
    if (orig_done) {
      fprintf(stderr, "rank %d: a message sent on the duplicate (%d, %d) matched a receive on the original\n", rank,
              orig_buf[0], orig_buf[1]);
      CHECK(!orig_done);
    }
  }
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == tag && dup_buf[0] == left && dup_buf[1] == tag);
  CHECK_MPI(MPI_Wait(&send_req, MPI_STATUS_IGNORE));

  /* A second message on dup: visible to Iprobe on dup (eventually), never on orig. */
  CHECK_MPI(MPI_Isend(msg2, 2, MPI_INT, right, tag + 1, dup, &send_req));
  int flag = 0;
  while (!flag) {
    int other = 1;
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, orig, &other, MPI_STATUS_IGNORE));
    CHECK(!other);
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &flag, &st));
  }
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == tag + 1);
  CHECK_MPI(MPI_Test(&orig_req, &orig_done, MPI_STATUS_IGNORE));
  CHECK(!orig_done);
  CHECK_MPI(MPI_Recv(dup_buf, 2, MPI_INT, left, tag + 1, dup, &st));
  CHECK(dup_buf[0] == left && dup_buf[1] == tag + 1);
  CHECK_MPI(MPI_Wait(&send_req, MPI_STATUS_IGNORE));

  test_barrier_comm(sync_comm); /* dup traffic is over: complete the wildcard receives (orig's own ranks) */
  int on, ome;
  CHECK_MPI(MPI_Comm_size(orig, &on));
  CHECK_MPI(MPI_Comm_rank(orig, &ome));
  CHECK(on == n);
  int oright = (ome + 1) % on, oleft = (ome - 1 + on) % on;
  msg[0] = ome;
  msg[1] = tag + 2;
  CHECK_MPI(MPI_Send(msg, 2, MPI_INT, oright, tag + 2, orig));
  CHECK_MPI(MPI_Wait(&orig_req, &st));
  CHECK(st.MPI_SOURCE == oleft && st.MPI_TAG == tag + 2 && orig_buf[0] == oleft && orig_buf[1] == tag + 2);
  test_barrier_comm(sync_comm); /* no rank sends more on orig while another still has its wildcard receive */
}

/* Same size, same rank, MPI_CONGRUENT communicators, MPI_IDENT groups, not the same handle. */
static void check_congruent(MPI_Comm orig, MPI_Comm dup) {
  int s1, s2, r1, r2, result = -1;
  CHECK(dup != MPI_COMM_NULL && dup != orig);
  CHECK_MPI(MPI_Comm_size(orig, &s1));
  CHECK_MPI(MPI_Comm_size(dup, &s2));
  CHECK_MPI(MPI_Comm_rank(orig, &r1));
  CHECK_MPI(MPI_Comm_rank(dup, &r2));
  CHECK(s1 == s2 && r1 == r2);
  CHECK_MPI(MPI_Comm_compare(orig, dup, &result));
  CHECK(result == MPI_CONGRUENT);
  CHECK_MPI(MPI_Comm_compare(dup, orig, &result));
  CHECK(result == MPI_CONGRUENT);
  CHECK_MPI(MPI_Comm_compare(dup, dup, &result));
  CHECK(result == MPI_IDENT);
  MPI_Group g1, g2;
  CHECK_MPI(MPI_Comm_group(orig, &g1));
  CHECK_MPI(MPI_Comm_group(dup, &g2));
  CHECK_MPI(MPI_Group_compare(g1, g2, &result));
  CHECK(result == MPI_IDENT);
  CHECK_MPI(MPI_Group_free(&g1));
  CHECK_MPI(MPI_Group_free(&g2));
}

/* Value of `key` in `info`, or NULL (static buffer). */
static const char *info_value(MPI_Info info, const char *key) {
  static char value[MPI_MAX_INFO_VAL + 1];
  int buflen = (int)sizeof value, flag = -1;
  CHECK_MPI(MPI_Info_get_string(info, key, &buflen, value, &flag));
  CHECK(flag == 0 || flag == 1);
  return flag ? value : NULL;
}

/* The hints of `comm` (a new info object each call, freed here) must contain every key/value of `want` (NULL-
 * terminated pairs) and none of the keys in `absent`. MPI-4.0 7.4.4 allows an implementation to ignore hints it
 * does not support; Strata keeps every hint (issue 3), so the user-defined keys are checked strictly on Strata only.
 * Keys starting with "mpi_" are standard hints that any MPI-4.0 library supports. */
static void check_hints(MPI_Comm comm, const char *const *want, const char *const *absent) {
  MPI_Info a = MPI_INFO_NULL, b = MPI_INFO_NULL;
  CHECK_MPI(MPI_Comm_get_info(comm, &a));
  CHECK_MPI(MPI_Comm_get_info(comm, &b));
  CHECK(a != MPI_INFO_NULL && b != MPI_INFO_NULL && a != b); /* a new object each time */
  for (int i = 0; want[i]; i += 2) {
    const char *v = info_value(a, want[i]);
    int strict = 1;
#ifndef STRATA
    strict = strncmp(want[i], "mpi_", 4) == 0;
#endif
    if (v == NULL && !strict) continue;
    if (v == NULL || strcmp(v, want[i + 1]) != 0)
      fprintf(stderr, "rank %d: hint '%s' is '%s', expected '%s'\n", rank, want[i], v ? v : "(absent)", want[i + 1]);
    CHECK(v != NULL && strcmp(v, want[i + 1]) == 0);
  }
  for (int i = 0; absent[i]; ++i) {
    const char *v = info_value(a, absent[i]);
    if (v) fprintf(stderr, "rank %d: hint '%s' should be absent, is '%s'\n", rank, absent[i], v);
    CHECK(v == NULL);
  }
  /* Changing the returned object changes neither the communicator nor the other returned object. */
  CHECK_MPI(MPI_Info_set(a, "strata_test_scribble", "1"));
  CHECK(info_value(b, "strata_test_scribble") == NULL);
  CHECK_MPI(MPI_Info_free(&a));
  CHECK(a == MPI_INFO_NULL);
  MPI_Info c = MPI_INFO_NULL;
  CHECK_MPI(MPI_Comm_get_info(comm, &c));
  CHECK(info_value(c, "strata_test_scribble") == NULL);
  CHECK_MPI(MPI_Info_free(&c));
  CHECK_MPI(MPI_Info_free(&b));
}

static void test_dup(void) {
  MPI_Comm d1 = MPI_COMM_NULL, d2 = MPI_COMM_NULL, s1 = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d1));
  check_congruent(MPI_COMM_WORLD, d1);
  test_check_comm(d1, world_ids, size, 1, 1);
  check_isolation(MPI_COMM_WORLD, d1, 10);

  /* A duplicate of a duplicate is separate from both. */
  CHECK_MPI(MPI_Comm_dup(d1, &d2));
  check_congruent(d1, d2);
  check_congruent(MPI_COMM_WORLD, d2);
  CHECK(d2 != d1);
  check_isolation(d1, d2, 20);
  check_isolation(MPI_COMM_WORLD, d2, 30);
  check_isolation(d2, d1, 40);

  /* MPI_COMM_SELF duplicates. */
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &s1));
  check_congruent(MPI_COMM_SELF, s1);
  int x = 7, y = 0;
  CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, 0, 3, &y, 1, MPI_INT, 0, 3, s1, MPI_STATUS_IGNORE));
  CHECK(y == 7);
  int result = -1;
  CHECK_MPI(MPI_Comm_compare(s1, d1, &result));
  CHECK(result == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL));

  /* Freeing the original leaves the duplicate working. */
  CHECK_MPI(MPI_Comm_free(&d1));
  CHECK(d1 == MPI_COMM_NULL);
  test_check_comm(d2, world_ids, size, 2, 2);
  CHECK_MPI(MPI_Comm_free(&d2));
  CHECK_MPI(MPI_Comm_free(&s1));
  CHECK(d2 == MPI_COMM_NULL && s1 == MPI_COMM_NULL);
}

/* MPI_Comm_disconnect (11.10.4) ends a duplicate after its traffic: the handle becomes MPI_COMM_NULL, and a new
 * duplicate made afterwards works. MPI_Pcontrol does nothing but succeed without a profiling tool. */
static void test_disconnect(void) {
  MPI_Comm d = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
  int out = 100 + rank, in = -1;
  CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 5, &in, 1, MPI_INT, (rank + size - 1) % size, 5, d,
                         MPI_STATUS_IGNORE));
  CHECK(in == 100 + (rank + size - 1) % size);
  CHECK_MPI(MPI_Comm_disconnect(&d));
  CHECK(d == MPI_COMM_NULL);
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
  test_check_comm(d, world_ids, size, 3, 3);
  CHECK_MPI(MPI_Comm_disconnect(&d));
  CHECK(MPI_Pcontrol(0) == MPI_SUCCESS && MPI_Pcontrol(2, "extra", 1.5) == MPI_SUCCESS);
}

/* A duplicate of a communicator whose ranks are a permutation of the world's (split with reversed keys). */
static void test_dup_of_reordered(void) {
  MPI_Comm rev = MPI_COMM_NULL, d = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
  int *expect = test_malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) expect[r] = size - 1 - r;
  test_check_comm(rev, expect, size, 3, 3);
  CHECK_MPI(MPI_Comm_dup(rev, &d));
  check_congruent(rev, d);
  test_check_comm(d, expect, size, 4, 3);
  check_isolation(rev, d, 50);
  check_isolation(MPI_COMM_WORLD, d, 60);
  CHECK_MPI(MPI_Comm_free(&rev));
  CHECK_MPI(MPI_Comm_free(&d));
  free(expect);
}

static void test_hints(void) {
  static const char *const none[] = {NULL};
  MPI_Info info = MPI_INFO_NULL, other = MPI_INFO_NULL;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_tag", "false"));
  CHECK_MPI(MPI_Info_set(info, "strata_test_hint", "alpha"));

  /* dup_with_info: the new communicator has the given hints; the info object may be freed at once. */
  MPI_Comm a = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &a));
  CHECK_MPI(MPI_Info_free(&info));
  check_congruent(MPI_COMM_WORLD, a);
  check_isolation(MPI_COMM_WORLD, a, 70);
  static const char *const want_a[] = {"mpi_assert_no_any_tag", "false", "strata_test_hint", "alpha", NULL};
  check_hints(a, want_a, none);

  /* Comm_dup propagates the hints of the original (MPI-4.0 7.4.4). */
  MPI_Comm b = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(a, &b));
  check_congruent(a, b);
  check_hints(b, want_a, none);

  /* dup_with_info replaces them: the original's hints are not propagated. */
  CHECK_MPI(MPI_Info_create(&other));
  CHECK_MPI(MPI_Info_set(other, "strata_test_other", "beta"));
  MPI_Comm c = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup_with_info(a, other, &c));
  static const char *const want_c[] = {"strata_test_other", "beta", NULL};
  static const char *const absent_c[] = {"strata_test_hint", NULL};
  check_hints(c, want_c, absent_c);
  check_isolation(a, c, 80);

  /* idup_with_info replaces them the same way, once the request completes. */
  MPI_Comm g = MPI_COMM_NULL;
  MPI_Request req;
  CHECK_MPI(MPI_Comm_idup_with_info(a, other, &g, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  check_congruent(a, g);
  check_hints(g, want_c, absent_c);
  check_isolation(a, g, 90);
  CHECK_MPI(MPI_Comm_free(&g));

  /* dup_with_info with MPI_INFO_NULL: a duplicate without the original's hints. */
  MPI_Comm e = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup_with_info(a, MPI_INFO_NULL, &e));
  check_congruent(a, e);
  check_hints(e, none, absent_c);

  /* Comm_set_info replaces values of existing keys and adds new ones; later dups see the update. */
  CHECK_MPI(MPI_Info_set(other, "strata_test_hint", "gamma"));
  CHECK_MPI(MPI_Comm_set_info(a, other));
  CHECK_MPI(MPI_Info_free(&other));
  static const char *const want_a2[] = {"strata_test_hint", "gamma", "strata_test_other", "beta", NULL};
  check_hints(a, want_a2, none);
  MPI_Comm f = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(a, &f));
  check_hints(f, want_a2, none);
  /* ... while the earlier duplicate keeps what it had. */
  check_hints(b, want_a, none);

  /* The predefined communicators answer too (a new, possibly empty, info object). */
  MPI_Info w = MPI_INFO_NULL;
  CHECK_MPI(MPI_Comm_get_info(MPI_COMM_WORLD, &w));
  CHECK(w != MPI_INFO_NULL);
  int nkeys = -1;
  CHECK_MPI(MPI_Info_get_nkeys(w, &nkeys));
  CHECK(nkeys >= 0);
  CHECK_MPI(MPI_Info_free(&w));
  CHECK_MPI(MPI_Comm_get_info(MPI_COMM_SELF, &w));
  CHECK(w != MPI_INFO_NULL);
  CHECK_MPI(MPI_Info_free(&w));

  test_check_comm(f, world_ids, size, 5, 5);
  MPI_Comm *all[] = {&a, &b, &c, &e, &f};
  for (int i = 0; i < 5; ++i) {
    CHECK_MPI(MPI_Comm_free(all[i]));
    CHECK(*all[i] == MPI_COMM_NULL);
  }
}

/* Comm_idup: several outstanding at once, on different parents, with point-to-point traffic on the parent while
 * they are pending; completion by Wait, Waitall and Test. */
static void test_idup(void) {
  MPI_Comm d[4] = {MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL}, base = MPI_COMM_NULL;
  MPI_Request req[4];
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &base));

  CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &d[0], &req[0]));
  CHECK(req[0] != MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
  CHECK(req[0] == MPI_REQUEST_NULL);
  check_congruent(MPI_COMM_WORLD, d[0]);
  check_isolation(MPI_COMM_WORLD, d[0], 90);

  CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &d[1], &req[1]));
  CHECK_MPI(MPI_Comm_idup(base, &d[2], &req[2]));
  CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &d[3], &req[3]));
  /* The parents stay usable for point-to-point while the duplications are pending. */
  test_comm_exchange(MPI_COMM_WORLD, world_ids, 6, 6);
  test_comm_exchange(base, world_ids, 7, 6);
  CHECK_MPI(MPI_Waitall(3, &req[1], MPI_STATUSES_IGNORE));
  for (int i = 1; i < 4; ++i) {
    CHECK(req[i] == MPI_REQUEST_NULL);
    check_congruent(MPI_COMM_WORLD, d[i]);
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      if (i != j) {
        int result = -1;
        CHECK(d[i] != d[j]);
        CHECK_MPI(MPI_Comm_compare(d[i], d[j], &result));
        CHECK(result == MPI_CONGRUENT);
      }
  check_isolation(d[1], d[3], 100);
  check_isolation(d[3], d[1], 110);
  check_isolation(base, d[2], 120);
  check_isolation(d[2], d[1], 130);
  for (int i = 0; i < 4; ++i) test_check_comm(d[i], world_ids, size, 10 + i, 7);

  /* Completion by MPI_Test. */
  MPI_Comm t = MPI_COMM_NULL;
  MPI_Request treq;
  CHECK_MPI(MPI_Comm_idup(d[2], &t, &treq));
  int flag = 0;
  while (!flag) CHECK_MPI(MPI_Test(&treq, &flag, MPI_STATUS_IGNORE));
  CHECK(treq == MPI_REQUEST_NULL);
  check_congruent(d[2], t);
  check_isolation(d[2], t, 140);

  CHECK_MPI(MPI_Comm_free(&t));
  for (int i = 0; i < 4; ++i) CHECK_MPI(MPI_Comm_free(&d[i]));
  CHECK_MPI(MPI_Comm_free(&base));
}

/* Many duplicates alive at once, all used concurrently: no two share a context. */
static void test_many_alive(void) {
  enum { N = 24 };
  MPI_Comm d[N];
  for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Comm_dup(i == 0 ? MPI_COMM_WORLD : d[(i - 1) / 2], &d[i]));
  int right = (rank + 1) % size, left = (rank - 1 + size) % size;
  int out[N], in[N];
  MPI_Request reqs[2 * N];
  for (int i = 0; i < N; ++i) {
    in[i] = -1;
    CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, left, MPI_ANY_TAG, d[N - 1 - i], &reqs[i]));
  }
  for (int i = 0; i < N; ++i) {
    out[i] = 1000 * i + rank;
    CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, right, 0, d[i], &reqs[N + i]));
  }
  CHECK_MPI(MPI_Waitall(2 * N, reqs, MPI_STATUSES_IGNORE));
  for (int i = 0; i < N; ++i) CHECK(in[i] == 1000 * (N - 1 - i) + left);
  for (int i = N - 1; i >= 0; --i) CHECK_MPI(MPI_Comm_free(&d[i]));
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  world_ids = test_malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) world_ids[r] = r;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &sync_comm));

  test_dup();
  test_disconnect();
  test_dup_of_reordered();
  test_hints();
  test_idup();
  test_many_alive();

  test_barrier();
  CHECK_MPI(MPI_Comm_free(&sync_comm));
  free(world_ids);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
