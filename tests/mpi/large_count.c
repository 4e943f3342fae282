/* The large-count (_c) calls of MPI-4.0 2.5.8: each family moves or describes real data through its _c calls, and
 * every result is compared with an expectation computed here, independently of the library.
 *
 *  - point-to-point: every send mode (blocking, nonblocking, persistent, buffered), the receives, the matched
 *    receives, the send-receives, MPI_Get_count_c / MPI_Get_elements_c, MPI_Buffer_attach_c / detach_c;
 *  - datatypes: each _c constructor, its size, extent and true extent (_c queries), its envelope and contents
 *    (MPI_Type_get_envelope_c / get_contents_c: the arguments come back as large counts, and the int calls refuse
 *    the type), and its layout, checked by packing a known buffer (MPI_Pack_c) against a hand-made gather;
 *    MPI_Pack_c / Unpack_c / Pack_size_c and the external32 ones;
 *  - beyond INT_MAX: types of more than 2^31 elements and bytes (sizes computed in 64 bits, MPI_Type_size giving
 *    MPI_UNDEFINED), a displacement beyond 2^31, and a status of more than INT_MAX elements (set with
 *    MPI_Status_set_elements_x) read by MPI_Get_count_c / MPI_Get_elements_c (and MPI_UNDEFINED from the int ones);
 *    no message of that size is sent (it would need tens of GiB);
 *  - collectives: all of them, blocking, some nonblocking and persistent, and the neighbourhood ones on a ring;
 *  - one-sided: windows made by the _c calls (MPI_Aint disp_unit), every _c communication call in fence and
 *    passive epochs, MPI_Win_shared_query_c;
 *  - reductions: MPI_Reduce_local_c, and a user function of MPI_Op_create_c (MPI_Count length) in MPI_Allreduce_c;
 *  - bad input with MPI_ERRORS_RETURN: a negative MPI_Count gives MPI_ERR_COUNT with a message naming the _c call,
 *    and so does a v-collective count beyond INT_MAX (Strata's documented limit there).
 *
 * Runs on 2 ranks (any size works: ranks pair up as r ^ 1, the last one alone with itself on an odd size). A plain
 * MPI-4.0 program: it builds against any MPI with the _c calls. */
#include <limits.h>

#include "test_util.h"

enum { N = 64, TAG = 11 };

static int rank, size, peer;

static int value(int src, int i) { return src * 1000 + i; }

static void fill(int* buf, int n, int src) {
  for (int i = 0; i < n; ++i) buf[i] = value(src, i);
}

/* The n ints of buf must be those `src` filled; a failure names the caller's line. */
#define expect_from(buf, n, src) expect_from_at((buf), (n), (src), __LINE__)
static void expect_from_at(const int* buf, int n, int src, int line) {
  for (int i = 0; i < n; ++i)
    if (buf[i] != value(src, i)) {
      char detail[128];
      snprintf(detail, sizeof detail, ": element %d is %d, not %d", i, buf[i], value(src, i));
      test_fail(__FILE__, line, "the data received", detail);
    }
}

/* ---- Point-to-point ------------------------------------------------------------------------------------------- */

/* The receive side of one exchange: `n` ints from the peer, with the status's counts checked. */
static void check_received(const int* buf, MPI_Count n, const MPI_Status* st) {
  MPI_Count count = -1, elements = -1;
  expect_from(buf, (int)n, peer);
  CHECK(st->MPI_SOURCE == peer && st->MPI_TAG == TAG);
  CHECK_MPI(MPI_Get_count_c(st, MPI_INT, &count));
  CHECK_MPI(MPI_Get_elements_c(st, MPI_INT, &elements));
  CHECK(count == n && elements == n);
}

enum Mode { STANDARD, SYNCHRONOUS, READY, BUFFERED };

/* The receive is posted and both ranks have passed a barrier before the send starts (a ready send needs that). */
static void exchange_blocking(enum Mode mode) {
  int out[N], in[N];
  MPI_Request r;
  MPI_Status st;
  fill(out, N, rank);
  memset(in, 0, sizeof in);
  CHECK_MPI(MPI_Irecv_c(in, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  MPI_Count n = N;
  if (mode == STANDARD) CHECK_MPI(MPI_Send_c(out, n, MPI_INT, peer, TAG, MPI_COMM_WORLD));
  if (mode == SYNCHRONOUS) CHECK_MPI(MPI_Ssend_c(out, n, MPI_INT, peer, TAG, MPI_COMM_WORLD));
  if (mode == READY) CHECK_MPI(MPI_Rsend_c(out, n, MPI_INT, peer, TAG, MPI_COMM_WORLD));
  if (mode == BUFFERED) CHECK_MPI(MPI_Bsend_c(out, n, MPI_INT, peer, TAG, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&r, &st));
  check_received(in, N, &st);
}

static void exchange_nonblocking(enum Mode mode, int persistent) {
  int out[N], in[N];
  MPI_Request r[2];
  MPI_Status st[2];
  fill(out, N, rank);
  for (int round = 0; round < (persistent ? 2 : 1); ++round) {
    memset(in, 0, sizeof in);
    if (persistent) {
      if (round == 0) {
        CHECK_MPI(MPI_Recv_init_c(in, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &r[0]));
        if (mode == STANDARD) CHECK_MPI(MPI_Send_init_c(out, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &r[1]));
        if (mode == SYNCHRONOUS) CHECK_MPI(MPI_Ssend_init_c(out, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &r[1]));
        if (mode == READY) CHECK_MPI(MPI_Rsend_init_c(out, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &r[1]));
        if (mode == BUFFERED) CHECK_MPI(MPI_Bsend_init_c(out, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &r[1]));
      }
      CHECK_MPI(MPI_Start(&r[0]));
      CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
      CHECK_MPI(MPI_Start(&r[1]));
    } else {
      CHECK_MPI(MPI_Irecv_c(in, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &r[0]));
      CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
      if (mode == STANDARD) CHECK_MPI(MPI_Isend_c(out, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &r[1]));
      if (mode == SYNCHRONOUS) CHECK_MPI(MPI_Issend_c(out, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &r[1]));
      if (mode == READY) CHECK_MPI(MPI_Irsend_c(out, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &r[1]));
      if (mode == BUFFERED) CHECK_MPI(MPI_Ibsend_c(out, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &r[1]));
    }
    CHECK_MPI(MPI_Waitall(2, r, st));
    check_received(in, N, &st[0]);
  }
  if (persistent) {
    CHECK_MPI(MPI_Request_free(&r[0]));
    CHECK_MPI(MPI_Request_free(&r[1]));
  }
}

static void point_to_point(void) {
  /* Buffered sends need an attached buffer: attach it with the _c call, detach it with the _c call. */
  const MPI_Count bytes = 4 * (N * (MPI_Count)sizeof(int) + MPI_BSEND_OVERHEAD);
  char* attached = malloc((size_t)bytes);
  void* detached = NULL;
  MPI_Count detached_size = -1;
  CHECK(attached != NULL);
  CHECK_MPI(MPI_Buffer_attach_c(attached, bytes));
  for (int mode = STANDARD; mode <= BUFFERED; ++mode) {
    exchange_blocking((enum Mode)mode);
    exchange_nonblocking((enum Mode)mode, 0);
    exchange_nonblocking((enum Mode)mode, 1);
  }
  CHECK_MPI(MPI_Buffer_detach_c(&detached, &detached_size));
  CHECK(detached == attached && detached_size == bytes);
  free(attached);

  int out[N], in[N];
  MPI_Status st;
  MPI_Request r;
  /* Blocking receive. */
  fill(out, N, rank);
  if (rank <= peer) {
    CHECK_MPI(MPI_Send_c(out, N, MPI_INT, peer, TAG, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv_c(in, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &st));
  } else {
    CHECK_MPI(MPI_Recv_c(in, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Send_c(out, N, MPI_INT, peer, TAG, MPI_COMM_WORLD));
  }
  check_received(in, N, &st);
  /* Send-receive, and in place. */
  memset(in, 0, sizeof in);
  CHECK_MPI(MPI_Sendrecv_c(out, N, MPI_INT, peer, TAG, in, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &st));
  check_received(in, N, &st);
  fill(in, N, rank);
  CHECK_MPI(MPI_Sendrecv_replace_c(in, N, MPI_INT, peer, TAG, peer, TAG, MPI_COMM_WORLD, &st));
  check_received(in, N, &st);
  memset(in, 0, sizeof in);
  CHECK_MPI(MPI_Isendrecv_c(out, N, MPI_INT, peer, TAG, in, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Wait(&r, &st));
  check_received(in, N, &st);
  fill(in, N, rank);
  CHECK_MPI(MPI_Isendrecv_replace_c(in, N, MPI_INT, peer, TAG, peer, TAG, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Wait(&r, &st));
  check_received(in, N, &st);
  /* Matched receives: probe, then receive the message the probe matched. */
  MPI_Message m;
  CHECK_MPI(MPI_Isend_c(out, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &r));
  memset(in, 0, sizeof in);
  CHECK_MPI(MPI_Mprobe(peer, TAG, MPI_COMM_WORLD, &m, &st));
  CHECK_MPI(MPI_Mrecv_c(in, N, MPI_INT, &m, &st));
  CHECK(m == MPI_MESSAGE_NULL);
  check_received(in, N, &st);
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  MPI_Request r2;
  CHECK_MPI(MPI_Isend_c(out, N, MPI_INT, peer, TAG, MPI_COMM_WORLD, &r));
  memset(in, 0, sizeof in);
  CHECK_MPI(MPI_Mprobe(peer, TAG, MPI_COMM_WORLD, &m, &st));
  CHECK_MPI(MPI_Imrecv_c(in, N, MPI_INT, &m, &r2));
  CHECK_MPI(MPI_Wait(&r2, &st));
  check_received(in, N, &st);
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  /* A message of 3 ints received as pairs: 1 whole pair counted, 3 elements, MPI_UNDEFINED whole pairs of 2... */
  MPI_Datatype pair;
  MPI_Count count, elements;
  CHECK_MPI(MPI_Type_contiguous_c(2, MPI_INT, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  CHECK_MPI(MPI_Sendrecv_c(out, 3, MPI_INT, peer, TAG, in, 2, pair, peer, TAG, MPI_COMM_WORLD, &st));
  CHECK_MPI(MPI_Get_count_c(&st, pair, &count));
  CHECK_MPI(MPI_Get_elements_c(&st, pair, &elements));
  CHECK(count == MPI_UNDEFINED && elements == 3);
  CHECK_MPI(MPI_Type_free(&pair));
}

/* ---- Datatypes ------------------------------------------------------------------------------------------------ */

/* Packs one element of `t` from `src` (MPI_Pack_c) and compares with the ints at the listed indices of src. */
static void expect_layout(MPI_Datatype t, const int* src, const int* indices, int n) {
  int packed[N];
  MPI_Count position = 0, packed_size = -1;
  CHECK_MPI(MPI_Type_commit(&t));
  CHECK_MPI(MPI_Pack_size_c(1, t, MPI_COMM_WORLD, &packed_size));
  CHECK(packed_size == (MPI_Count)(n * sizeof(int)));
  CHECK_MPI(MPI_Pack_c(src, 1, t, packed, (MPI_Count)sizeof packed, &position, MPI_COMM_WORLD));
  CHECK(position == (MPI_Count)(n * sizeof(int)));
  for (int i = 0; i < n; ++i) CHECK(packed[i] == src[indices[i]]);
}

/* Size, extent, true extent and the envelope; then the contents must be the large counts `counts`. */
static void expect_type(MPI_Datatype t, MPI_Count size_want, MPI_Count lb_want, MPI_Count extent_want,
                        MPI_Count true_lb_want, MPI_Count true_extent_want, int combiner_want, int ni_want,
                        const int* ints_want, int nc_want, const MPI_Count* counts_want, int nt_want) {
  MPI_Count sz, lb, extent, tlb, textent, ni, na, nc, nt;
  int combiner;
  CHECK_MPI(MPI_Type_size_c(t, &sz));
  CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &extent));
  CHECK_MPI(MPI_Type_get_true_extent_c(t, &tlb, &textent));
  CHECK(sz == size_want && lb == lb_want && extent == extent_want);
  CHECK(tlb == true_lb_want && textent == true_extent_want);
  CHECK_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nt, &combiner));
  CHECK(combiner == combiner_want && ni == ni_want && na == 0 && nc == nc_want && nt == nt_want);
  int ints[16];
  MPI_Aint addresses[1];
  MPI_Count counts[32];
  MPI_Datatype types[4];
  CHECK(ni <= 16 && nc <= 32 && nt <= 4);
  CHECK_MPI(MPI_Type_get_contents_c(t, ni, na, nc, nt, ints, addresses, counts, types));
  for (int i = 0; i < ni_want; ++i) CHECK(ints[i] == ints_want[i]);
  for (int i = 0; i < nc_want; ++i) CHECK(counts[i] == counts_want[i]);
  for (int i = 0; i < nt_want; ++i) {
    int ni2, na2, nt2, c2;
    CHECK_MPI(MPI_Type_get_envelope(types[i], &ni2, &na2, &nt2, &c2));
    if (c2 != MPI_COMBINER_NAMED) CHECK_MPI(MPI_Type_free(&types[i]));
  }
}

static void datatypes(void) {
  int src[N];
  fill(src, N, 7);
  MPI_Datatype t;
  const int I = (int)sizeof(int);

  /* contiguous(5, int) */
  CHECK_MPI(MPI_Type_contiguous_c(5, MPI_INT, &t));
  const MPI_Count contiguous_args[] = {5};
  expect_type(t, 5 * I, 0, 5 * I, 0, 5 * I, MPI_COMBINER_CONTIGUOUS, 0, NULL, 1, contiguous_args, 1);
  expect_layout(t, src, (const int[]){0, 1, 2, 3, 4}, 5);
  CHECK_MPI(MPI_Type_free(&t));

  /* vector(3, 2, 4, int): ints 0 1, 4 5, 8 9 */
  CHECK_MPI(MPI_Type_vector_c(3, 2, 4, MPI_INT, &t));
  const MPI_Count vector_args[] = {3, 2, 4};
  expect_type(t, 6 * I, 0, 10 * I, 0, 10 * I, MPI_COMBINER_VECTOR, 0, NULL, 3, vector_args, 1);
  expect_layout(t, src, (const int[]){0, 1, 4, 5, 8, 9}, 6);
  CHECK_MPI(MPI_Type_free(&t));

  /* hvector(2, 3, 20 bytes, int): ints 0 1 2, 5 6 7 */
  CHECK_MPI(MPI_Type_create_hvector_c(2, 3, 5 * I, MPI_INT, &t));
  const MPI_Count hvector_args[] = {2, 3, 5 * I};
  expect_type(t, 6 * I, 0, 8 * I, 0, 8 * I, MPI_COMBINER_HVECTOR, 0, NULL, 3, hvector_args, 1);
  expect_layout(t, src, (const int[]){0, 1, 2, 5, 6, 7}, 6);
  CHECK_MPI(MPI_Type_free(&t));

  /* indexed({2, 1}, {6, 1}): ints 6 7, 1 */
  const MPI_Count blens[] = {2, 1}, disps[] = {6, 1};
  CHECK_MPI(MPI_Type_indexed_c(2, blens, disps, MPI_INT, &t));
  const MPI_Count indexed_args[] = {2, 2, 1, 6, 1};
  expect_type(t, 3 * I, 1 * I, 7 * I, 1 * I, 7 * I, MPI_COMBINER_INDEXED, 0, NULL, 5, indexed_args, 1);
  expect_layout(t, src, (const int[]){6, 7, 1}, 3);
  CHECK_MPI(MPI_Type_free(&t));

  /* hindexed({2, 1}, {24, 4} bytes): ints 6 7, 1 */
  const MPI_Count hdisps[] = {6 * I, 1 * I};
  CHECK_MPI(MPI_Type_create_hindexed_c(2, blens, hdisps, MPI_INT, &t));
  const MPI_Count hindexed_args[] = {2, 2, 1, 6 * I, 1 * I};
  expect_type(t, 3 * I, 1 * I, 7 * I, 1 * I, 7 * I, MPI_COMBINER_HINDEXED, 0, NULL, 5, hindexed_args, 1);
  expect_layout(t, src, (const int[]){6, 7, 1}, 3);
  CHECK_MPI(MPI_Type_free(&t));

  /* indexed_block(2, {3, 0}): ints 3 4, 0 1 */
  const MPI_Count bdisps[] = {3, 0};
  CHECK_MPI(MPI_Type_create_indexed_block_c(2, 2, bdisps, MPI_INT, &t));
  const MPI_Count indexed_block_args[] = {2, 2, 3, 0};
  expect_type(t, 4 * I, 0, 5 * I, 0, 5 * I, MPI_COMBINER_INDEXED_BLOCK, 0, NULL, 4, indexed_block_args, 1);
  expect_layout(t, src, (const int[]){3, 4, 0, 1}, 4);
  CHECK_MPI(MPI_Type_free(&t));

  /* hindexed_block(2, {12, 0} bytes): the same */
  const MPI_Count hbdisps[] = {3 * I, 0};
  CHECK_MPI(MPI_Type_create_hindexed_block_c(2, 2, hbdisps, MPI_INT, &t));
  const MPI_Count hindexed_block_args[] = {2, 2, 3 * I, 0};
  expect_type(t, 4 * I, 0, 5 * I, 0, 5 * I, MPI_COMBINER_HINDEXED_BLOCK, 0, NULL, 4, hindexed_block_args, 1);
  expect_layout(t, src, (const int[]){3, 4, 0, 1}, 4);
  CHECK_MPI(MPI_Type_free(&t));

  /* struct({1, 2}, {8, 20} bytes, {int, int}): ints 2, 5 6 */
  const MPI_Count sblens[] = {1, 2}, sdisps[] = {2 * I, 5 * I};
  const MPI_Datatype stypes[] = {MPI_INT, MPI_INT};
  CHECK_MPI(MPI_Type_create_struct_c(2, sblens, sdisps, stypes, &t));
  const MPI_Count struct_args[] = {2, 1, 2, 2 * I, 5 * I};
  expect_type(t, 3 * I, 2 * I, 5 * I, 2 * I, 5 * I, MPI_COMBINER_STRUCT, 0, NULL, 5, struct_args, 2);
  expect_layout(t, src, (const int[]){2, 5, 6}, 3);
  CHECK_MPI(MPI_Type_free(&t));

  /* subarray 4 x 5 ints (C order), the 2 x 3 block at (1, 2): ints 7 8 9, 12 13 14 */
  const MPI_Count sizes[] = {4, 5}, subsizes[] = {2, 3}, starts[] = {1, 2};
  CHECK_MPI(MPI_Type_create_subarray_c(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t));
  const int subarray_ints[] = {2, MPI_ORDER_C};
  const MPI_Count subarray_args[] = {4, 5, 2, 3, 1, 2};
  expect_type(t, 6 * I, 0, 20 * I, 7 * I, 8 * I, MPI_COMBINER_SUBARRAY, 2, subarray_ints, 6, subarray_args, 1);
  expect_layout(t, src, (const int[]){7, 8, 9, 12, 13, 14}, 6);
  CHECK_MPI(MPI_Type_free(&t));

  /* darray: 8 ints block-distributed over 2 processes, this type for process 1 of 2: ints 4..7 */
  const MPI_Count gsizes[] = {8};
  const int distribs[] = {MPI_DISTRIBUTE_BLOCK}, dargs[] = {MPI_DISTRIBUTE_DFLT_DARG}, psizes[] = {2};
  CHECK_MPI(MPI_Type_create_darray_c(2, 1, 1, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_INT, &t));
  const int darray_ints[] = {2, 1, 1, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_DFLT_DARG, 2, MPI_ORDER_C};
  const MPI_Count darray_args[] = {8};
  expect_type(t, 4 * I, 0, 8 * I, 4 * I, 4 * I, MPI_COMBINER_DARRAY, 7, darray_ints, 1, darray_args, 1);
  expect_layout(t, src, (const int[]){4, 5, 6, 7}, 4);
  CHECK_MPI(MPI_Type_free(&t));

  /* resized(int, -4, 12) */
  CHECK_MPI(MPI_Type_create_resized_c(MPI_INT, -4, 12, &t));
  const MPI_Count resized_args[] = {-4, 12};
  expect_type(t, I, -4, 12, 0, I, MPI_COMBINER_RESIZED, 0, NULL, 2, resized_args, 1);
  /* The int calls cannot describe a type made by a _c constructor (MPI-4.0 5.1.13). The standard names no class:
   * Strata gives MPI_ERR_TYPE (the datatype argument), MPICH 4.0.2 MPI_ERR_OTHER; either is accepted. */
  int ni, na, nt, combiner;
  test_expect_either_at(MPI_Type_get_envelope(t, &ni, &na, &nt, &combiner), MPI_ERR_TYPE, MPI_ERR_OTHER,
                        "MPI_Type_get_envelope", "MPI_Type_get_envelope of a _c type", __FILE__, __LINE__);
  CHECK_MPI(MPI_Type_free(&t));

  /* An int constructor's type through the _c queries: no large counts. */
  MPI_Count cni, cna, cnc, cnt;
  CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &t));
  CHECK_MPI(MPI_Type_get_envelope_c(t, &cni, &cna, &cnc, &cnt, &combiner));
  CHECK(cni == 3 && cna == 0 && cnc == 0 && cnt == 1 && combiner == MPI_COMBINER_VECTOR);
  CHECK_MPI(MPI_Type_free(&t));

  /* Pack and unpack with _c calls, and external32 (big-endian ints). */
  int vec_src[N], back[N];
  fill(vec_src, N, 3);
  for (int i = 0; i < N; ++i) back[i] = -1;
  unsigned char buf[4 * N];
  MPI_Count position = 0, size_c = 0;
  CHECK_MPI(MPI_Type_vector_c(3, 2, 4, MPI_INT, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  CHECK_MPI(MPI_Pack_c(vec_src, 2, t, buf, (MPI_Count)sizeof buf, &position, MPI_COMM_WORLD));
  CHECK(position == 12 * I);
  position = 0;
  CHECK_MPI(MPI_Unpack_c(buf, (MPI_Count)sizeof buf, &position, back, 2, t, MPI_COMM_WORLD));
  CHECK(position == 12 * I);
  for (int i = 0; i < 20; ++i) CHECK(back[i] == (i % 10 % 4 < 2 && i % 10 < 10 ? vec_src[i] : -1));
  CHECK_MPI(MPI_Pack_external_size_c("external32", 2, t, &size_c));
  CHECK(size_c == 48);
  position = 0;
  CHECK_MPI(MPI_Pack_external_c("external32", vec_src, 2, t, buf, (MPI_Count)sizeof buf, &position));
  CHECK(position == 48);
  const int order[12] = {0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19};
  for (int k = 0; k < 12; ++k) {
    const unsigned v = (unsigned)vec_src[order[k]];
    CHECK(buf[4 * k] == (v >> 24 & 0xff) && buf[4 * k + 1] == (v >> 16 & 0xff) && buf[4 * k + 2] == (v >> 8 & 0xff) &&
          buf[4 * k + 3] == (v & 0xff));
  }
  for (int i = 0; i < N; ++i) back[i] = -1;
  position = 0;
  CHECK_MPI(MPI_Unpack_external_c("external32", buf, 48, &position, back, 2, t));
  CHECK(position == 48);
  for (int k = 0; k < 12; ++k) CHECK(back[order[k]] == vec_src[order[k]]);
  CHECK(back[2] == -1 && back[12] == -1);
  CHECK_MPI(MPI_Type_free(&t));
}

/* ---- Beyond INT_MAX ------------------------------------------------------------------------------------------- */
static void beyond_int_max(void) {
  const MPI_Count big = 3000000000LL; /* > INT_MAX */
  MPI_Datatype t;
  MPI_Count sz, lb, extent;
  int isz = 0;
  /* 3e9 chars */
  CHECK_MPI(MPI_Type_contiguous_c(big, MPI_CHAR, &t));
  CHECK_MPI(MPI_Type_size_c(t, &sz));
  CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &extent));
  CHECK(sz == big && lb == 0 && extent == big);
  CHECK_MPI(MPI_Type_size(t, &isz));
  CHECK(isz == MPI_UNDEFINED);
  MPI_Count ni, na, nc, nt, count_back = 0;
  int combiner, ints[1];
  MPI_Aint addrs[1];
  MPI_Datatype old;
  CHECK_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nt, &combiner));
  CHECK(nc == 1);
  CHECK_MPI(MPI_Type_get_contents_c(t, ni, na, nc, nt, ints, addrs, &count_back, &old));
  CHECK(count_back == big && old == MPI_CHAR);
  CHECK_MPI(MPI_Type_free(&t));
  /* 2^31 + 5 ints, every other one: size 4 (2^31 + 5), extent 4 (2 (2^31 + 4) + 1) */
  const MPI_Count n = ((MPI_Count)1 << 31) + 5;
  CHECK_MPI(MPI_Type_vector_c(n, 1, 2, MPI_INT, &t));
  CHECK_MPI(MPI_Type_size_c(t, &sz));
  CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &extent));
  CHECK(sz == 4 * n && lb == 0 && extent == 4 * (2 * (n - 1) + 1));
  CHECK_MPI(MPI_Type_free(&t));
  /* A block 5 GiB away: true lb 5 GiB */
  const MPI_Count one = 1, far = (MPI_Count)5 << 30;
  MPI_Count tlb, textent;
  CHECK_MPI(MPI_Type_create_hindexed_c(1, &one, &far, MPI_DOUBLE, &t));
  CHECK_MPI(MPI_Type_get_true_extent_c(t, &tlb, &textent));
  CHECK(tlb == far && textent == 8);
  CHECK_MPI(MPI_Type_free(&t));
  /* A message of 3e9 ints as a status says it (no such message is sent). */
  MPI_Status st;
  MPI_Count count = 0, elements = 0;
  int icount = 0;
  CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_INT, big));
  CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &count));
  CHECK_MPI(MPI_Get_elements_c(&st, MPI_INT, &elements));
  CHECK(count == big && elements == big);
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &icount));
  CHECK(icount == MPI_UNDEFINED);
  /* ... and as pairs of ints: 1.5e9 pairs, 3e9 elements */
  MPI_Datatype pair;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  CHECK_MPI(MPI_Get_count_c(&st, pair, &count));
  CHECK_MPI(MPI_Get_elements_c(&st, pair, &elements));
  CHECK(count == big / 2 && elements == big);
  CHECK_MPI(MPI_Type_free(&pair));
  /* MPI_Pack_size_c of 3e9 ints */
  CHECK_MPI(MPI_Pack_size_c(big, MPI_INT, MPI_COMM_WORLD, &sz));
  CHECK(sz == 4 * big);
}

/* ---- Collectives ---------------------------------------------------------------------------------------------- */
static void collectives(void) {
  enum { K = 3 };
  int send[K * 16], recv[K * 16];
  MPI_Count counts[16];
  MPI_Aint displs[16];
  MPI_Request req;
  CHECK(size <= 5); /* the buffers' room */
  const int root = size - 1;

  /* Bcast_c, Ibcast_c, Bcast_init_c (started twice) */
  for (int form = 0; form < 3; ++form) {
    if (rank == root) fill(recv, K, root + form);
    else memset(recv, 0, sizeof recv);
    if (form == 0) CHECK_MPI(MPI_Bcast_c(recv, K, MPI_INT, root, MPI_COMM_WORLD));
    if (form == 1) {
      CHECK_MPI(MPI_Ibcast_c(recv, K, MPI_INT, root, MPI_COMM_WORLD, &req));
      CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
    if (form == 2) {
      CHECK_MPI(MPI_Bcast_init_c(recv, K, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
      for (int round = 0; round < 2; ++round) {
        CHECK_MPI(MPI_Start(&req));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
      }
      CHECK_MPI(MPI_Request_free(&req));
    }
    expect_from(recv, K, root + form);
  }

  /* Gather_c, Gatherv_c (rank r gives r + 1 ints, placed at 10 r) */
  fill(send, K * 16, rank);
  CHECK_MPI(MPI_Gather_c(send, K, MPI_INT, recv, K, MPI_INT, root, MPI_COMM_WORLD));
  if (rank == root)
    for (int r = 0; r < size; ++r) expect_from(recv + K * r, K, r);
  for (int r = 0; r < size; ++r) counts[r] = r + 1, displs[r] = r * (r + 1) / 2 + r; /* a gap after each */
  memset(recv, 0, sizeof recv);
  CHECK_MPI(MPI_Gatherv_c(send, rank + 1, MPI_INT, recv, counts, displs, MPI_INT, root, MPI_COMM_WORLD));
  if (rank == root)
    for (int r = 0; r < size; ++r) expect_from(recv + displs[r], r + 1, r);

  /* Scatter_c, Scatterv_c */
  for (int r = 0; r < size; ++r) fill(send + K * r, K, 100 * r + root);
  CHECK_MPI(MPI_Scatter_c(send, K, MPI_INT, recv, K, MPI_INT, root, MPI_COMM_WORLD));
  expect_from(recv, K, 100 * rank + root);
  for (int r = 0; r < size; ++r) counts[r] = K - 1, displs[r] = K * r;
  memset(recv, 0, sizeof recv);
  CHECK_MPI(MPI_Scatterv_c(send, counts, displs, MPI_INT, recv, K - 1, MPI_INT, root, MPI_COMM_WORLD));
  expect_from(recv, K - 1, 100 * rank + root);

  /* Allgather_c, Allgatherv_c, Iallgather_c */
  fill(send, K * 16, rank);
  CHECK_MPI(MPI_Allgather_c(send, K, MPI_INT, recv, K, MPI_INT, MPI_COMM_WORLD));
  for (int r = 0; r < size; ++r) expect_from(recv + K * r, K, r);
  memset(recv, 0, sizeof recv);
  CHECK_MPI(MPI_Iallgather_c(send, K, MPI_INT, recv, K, MPI_INT, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  for (int r = 0; r < size; ++r) expect_from(recv + K * r, K, r);
  for (int r = 0; r < size; ++r) counts[r] = r + 1, displs[r] = size * (size - 1 - r); /* in reverse order */
  memset(recv, 0, sizeof recv);
  CHECK_MPI(MPI_Allgatherv_c(send, rank + 1, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD));
  for (int r = 0; r < size; ++r) expect_from(recv + displs[r], r + 1, r);

  /* Alltoall_c, Alltoallv_c (also nonblocking and persistent), Alltoallw_c: block for rank d holds 100 d + me */
  for (int d = 0; d < size; ++d) fill(send + K * d, K, 100 * d + rank);
  CHECK_MPI(MPI_Alltoall_c(send, K, MPI_INT, recv, K, MPI_INT, MPI_COMM_WORLD));
  for (int s = 0; s < size; ++s) expect_from(recv + K * s, K, 100 * rank + s);
  for (int form = 0; form < 3; ++form) {
    MPI_Count rcounts[16];
    MPI_Aint rdispls[16];
    for (int d = 0; d < size; ++d) counts[d] = 2, displs[d] = K * d, rcounts[d] = 2, rdispls[d] = 2 * (size - 1 - d);
    memset(recv, 0, sizeof recv);
    if (form == 0)
      CHECK_MPI(MPI_Alltoallv_c(send, counts, displs, MPI_INT, recv, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD));
    if (form == 1) {
      CHECK_MPI(
          MPI_Ialltoallv_c(send, counts, displs, MPI_INT, recv, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD, &req));
      CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
    if (form == 2) {
      CHECK_MPI(MPI_Alltoallv_init_c(send, counts, displs, MPI_INT, recv, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD,
                                     MPI_INFO_NULL, &req));
      CHECK_MPI(MPI_Start(&req));
      CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
      CHECK_MPI(MPI_Request_free(&req));
    }
    for (int s = 0; s < size; ++s) expect_from(recv + rdispls[s], 2, 100 * rank + s);
  }
  {
    MPI_Datatype types[16];
    MPI_Aint sbytes[16], rbytes[16];
    for (int d = 0; d < size; ++d)
      counts[d] = K, sbytes[d] = (MPI_Aint)(K * d * sizeof(int)), rbytes[d] = (MPI_Aint)(K * d * sizeof(int)),
      types[d] = MPI_INT;
    memset(recv, 0, sizeof recv);
    CHECK_MPI(MPI_Alltoallw_c(send, counts, sbytes, types, recv, counts, rbytes, types, MPI_COMM_WORLD));
    for (int s = 0; s < size; ++s) expect_from(recv + K * s, K, 100 * rank + s);
  }

  /* Reductions: element i of rank r is r + i */
  for (int i = 0; i < K; ++i) send[i] = rank + i;
  const int sum_ranks = size * (size - 1) / 2;
  CHECK_MPI(MPI_Reduce_c(send, recv, K, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
  if (rank == root)
    for (int i = 0; i < K; ++i) CHECK(recv[i] == sum_ranks + size * i);
  for (int form = 0; form < 3; ++form) {
    memset(recv, 0, sizeof recv);
    if (form == 0) CHECK_MPI(MPI_Allreduce_c(send, recv, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    if (form == 1) {
      CHECK_MPI(MPI_Iallreduce_c(send, recv, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
      CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
    if (form == 2) {
      CHECK_MPI(MPI_Allreduce_init_c(send, recv, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
      CHECK_MPI(MPI_Start(&req));
      CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
      CHECK_MPI(MPI_Request_free(&req));
    }
    for (int i = 0; i < K; ++i) CHECK(recv[i] == sum_ranks + size * i);
  }
  CHECK_MPI(MPI_Scan_c(send, recv, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  for (int i = 0; i < K; ++i) CHECK(recv[i] == rank * (rank + 1) / 2 + (rank + 1) * i);
  CHECK_MPI(MPI_Exscan_c(send, recv, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  if (rank > 0)
    for (int i = 0; i < K; ++i) CHECK(recv[i] == (rank - 1) * rank / 2 + rank * i);
  /* Reduce_scatter_block_c and Reduce_scatter_c: element j of rank r is r + j; rank d gets the sums of its block */
  for (int j = 0; j < K * size; ++j) send[j] = rank + j;
  CHECK_MPI(MPI_Reduce_scatter_block_c(send, recv, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  for (int i = 0; i < K; ++i) CHECK(recv[i] == sum_ranks + size * (K * rank + i));
  for (int d = 0; d < size; ++d) counts[d] = d + 1;
  int first = 0;
  for (int d = 0; d < rank; ++d) first += d + 1;
  CHECK_MPI(MPI_Reduce_scatter_c(send, recv, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  for (int i = 0; i <= rank; ++i) CHECK(recv[i] == sum_ranks + size * (first + i));

  /* Neighbourhood collectives on a periodic ring: neighbours left (rank - 1) then right (rank + 1). */
  MPI_Comm ring;
  const int dims[1] = {size}, periods[1] = {1};
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  fill(send, K, rank);
  memset(recv, 0, sizeof recv);
  CHECK_MPI(MPI_Neighbor_allgather_c(send, K, MPI_INT, recv, K, MPI_INT, ring));
  expect_from(recv, K, left);
  expect_from(recv + K, K, right);
  MPI_Count ncounts[2] = {2, 2};
  MPI_Aint ndispls[2] = {4, 0};
  memset(recv, 0, sizeof recv);
  CHECK_MPI(MPI_Neighbor_allgatherv_c(send, 2, MPI_INT, recv, ncounts, ndispls, MPI_INT, ring));
  expect_from(recv + 4, 2, left);
  expect_from(recv, 2, right);
  /* alltoall: block 0 goes left, block 1 right; a block for neighbour n holds 100 n + me */
  fill(send, K, 100 * left + rank);
  fill(send + K, K, 100 * right + rank);
  memset(recv, 0, sizeof recv);
  CHECK_MPI(MPI_Neighbor_alltoall_c(send, K, MPI_INT, recv, K, MPI_INT, ring));
  if (size > 2) { /* with 2 ranks left == right: both blocks come from the one neighbour, in order */
    expect_from(recv, K, 100 * rank + left);
    expect_from(recv + K, K, 100 * rank + right);
  }
  MPI_Aint sd[2] = {0, K};
  memset(recv, 0, sizeof recv);
  CHECK_MPI(MPI_Neighbor_alltoallv_c(send, ncounts, sd, MPI_INT, recv, ncounts, ndispls, MPI_INT, ring));
  MPI_Datatype ntypes[2] = {MPI_INT, MPI_INT};
  MPI_Aint sb[2] = {0, K * (MPI_Aint)sizeof(int)}, rb[2] = {4 * (MPI_Aint)sizeof(int), 0};
  int recv2[K * 16];
  memset(recv2, 0, sizeof recv2);
  CHECK_MPI(MPI_Neighbor_alltoallw_c(send, ncounts, sb, ntypes, recv2, ncounts, rb, ntypes, ring));
  CHECK(memcmp(recv, recv2, sizeof recv) == 0); /* v and w place the same blocks */
  if (size > 2) {
    expect_from(recv + 4, 2, 100 * rank + left);
    expect_from(recv, 2, 100 * rank + right);
  }
  CHECK_MPI(MPI_Comm_free(&ring));
}

/* ---- One-sided ------------------------------------------------------------------------------------------------ */
static void one_sided(void) {
  int* base = NULL;
  MPI_Win win;
  int out[N], got[N], res[4];
  const int ones[4] = {1, 1, 1, 1}, twos[4] = {2, 2, 2, 2};
  MPI_Request r;
  CHECK_MPI(MPI_Win_allocate_c((MPI_Aint)(N * sizeof(int)), (MPI_Aint)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                               &base, &win));
  fill(base, N, rank);
  fill(out, N, rank + 100);
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Get_c(got, N, MPI_INT, peer, 0, N, MPI_INT, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  expect_from(got, N, peer);
  /* Put the first half of `out` into the peer's window; my first half now holds the peer's. */
  CHECK_MPI(MPI_Put_c(out, N / 2, MPI_INT, peer, 0, N / 2, MPI_INT, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  expect_from(base, N / 2, peer + 100);
  for (int i = N / 2; i < N; ++i) CHECK(base[i] == value(rank, i));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* read before the peer's next epoch writes there */
  CHECK_MPI(MPI_Accumulate_c(ones, 4, MPI_INT, peer, 0, 4, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < 4; ++i) CHECK(base[i] == value(peer + 100, i) + 1);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Get_accumulate_c(twos, 4, MPI_INT, res, 4, MPI_INT, peer, 4, 4, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < 4; ++i) CHECK(res[i] == value(rank + 100, 4 + i) && base[4 + i] == value(peer + 100, 4 + i) + 2);
  /* Request-based calls in a passive epoch, each on its own part of the peer's window. */
  CHECK_MPI(MPI_Win_lock_all(0, win));
  CHECK_MPI(MPI_Rput_c(out + 10, 2, MPI_INT, peer, 10, 2, MPI_INT, win, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Raccumulate_c(ones, 2, MPI_INT, peer, 12, 2, MPI_INT, MPI_SUM, win, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Rget_c(got, 2, MPI_INT, peer, 40, 2, MPI_INT, win, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK(got[0] == value(peer, 40) && got[1] == value(peer, 41));
  CHECK_MPI(MPI_Rget_accumulate_c(twos, 2, MPI_INT, res, 2, MPI_INT, peer, 14, 2, MPI_INT, MPI_SUM, win, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK(res[0] == value(rank + 100, 14) && res[1] == value(rank + 100, 15));
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win)); /* my own window's memory, synchronised */
  for (int i = 10; i < 12; ++i) CHECK(base[i] == value(peer + 100, i));
  for (int i = 12; i < 14; ++i) CHECK(base[i] == value(peer + 100, i) + 1);
  for (int i = 14; i < 16; ++i) CHECK(base[i] == value(peer + 100, i) + 2);
  CHECK_MPI(MPI_Win_unlock(rank, win));
  CHECK_MPI(MPI_Win_free(&win));

  /* MPI_Win_create_c over an array, disp_unit 8 bytes (two ints): displacement 3 is int 6. */
  int mine[N];
  fill(mine, N, rank);
  CHECK_MPI(MPI_Win_create_c(mine, (MPI_Aint)sizeof mine, 2 * (MPI_Aint)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                             &win));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Get_c(got, 4, MPI_INT, peer, 3, 4, MPI_INT, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < 4; ++i) CHECK(got[i] == value(peer, 6 + i));
  CHECK_MPI(MPI_Win_free(&win));

  /* A shared window of the node: each process writes its part, then reads every part through the queried
   * addresses; MPI_Win_shared_query_c gives the size and the MPI_Aint disp_unit. */
  MPI_Comm node;
  int node_rank, node_size;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
  CHECK_MPI(MPI_Comm_rank(node, &node_rank));
  CHECK_MPI(MPI_Comm_size(node, &node_size));
  int* part = NULL;
  CHECK_MPI(MPI_Win_allocate_shared_c(4 * (MPI_Aint)sizeof(int), 3 * (MPI_Aint)sizeof(int), MPI_INFO_NULL, node,
                                      &part, &win));
  CHECK_MPI(MPI_Win_lock_all(0, win));
  fill(part, 4, node_rank);
  CHECK_MPI(MPI_Win_sync(win));
  CHECK_MPI(MPI_Barrier(node));
  CHECK_MPI(MPI_Win_sync(win));
  for (int q = 0; q < node_size; ++q) {
    MPI_Aint qsize = -1, qunit = -1;
    int* qbase = NULL;
    CHECK_MPI(MPI_Win_shared_query_c(win, q, &qsize, &qunit, &qbase));
    CHECK(qsize == 4 * (MPI_Aint)sizeof(int) && qunit == 3 * (MPI_Aint)sizeof(int));
    expect_from(qbase, 4, q);
  }
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Win_free(&win));
  CHECK_MPI(MPI_Comm_free(&node));
}

/* ---- Reductions with an MPI_Count length ---------------------------------------------------------------------- */
static MPI_Count longest_call;

/* inout[i] = in[i] + 2 inout[i]: not MPI_SUM, so the result shows the user function ran. */
static void twice_plus(void* in, void* inout, MPI_Count* len, MPI_Datatype* type) {
  CHECK(*type == MPI_INT);
  if (*len > longest_call) longest_call = *len;
  for (MPI_Count i = 0; i < *len; ++i) ((int*)inout)[i] = ((const int*)in)[i] + 2 * ((int*)inout)[i];
}

static void reductions(void) {
  int in[N], inout[N];
  fill(in, N, 1);
  fill(inout, N, 2);
  CHECK_MPI(MPI_Reduce_local_c(in, inout, N, MPI_INT, MPI_SUM));
  for (int i = 0; i < N; ++i) CHECK(inout[i] == value(1, i) + value(2, i));
  MPI_Op op;
  CHECK_MPI(MPI_Op_create_c(twice_plus, 0, &op));
  fill(inout, N, 2);
  longest_call = 0;
  CHECK_MPI(MPI_Reduce_local_c(in, inout, N, MPI_INT, op));
  for (int i = 0; i < N; ++i) CHECK(inout[i] == value(1, i) + 2 * value(2, i));
  CHECK(longest_call == N); /* the whole count in one call */
  /* In a collective on 2 ranks: rank 0's x and rank 1's y reduce to x + 2 y (operands in rank order). */
  if (size == 2) {
    int mine[4], result[4];
    for (int i = 0; i < 4; ++i) mine[i] = 10 * rank + i;
    CHECK_MPI(MPI_Allreduce_c(mine, result, 4, MPI_INT, op, MPI_COMM_WORLD));
    for (int i = 0; i < 4; ++i) CHECK(result[i] == i + 2 * (10 + i));
  }
  CHECK_MPI(MPI_Op_free(&op));
}

/* ---- Bad input ------------------------------------------------------------------------------------------------ */
static void bad_input(void) {
  int buf[4] = {0, 0, 0, 0};
  MPI_Datatype t = MPI_DATATYPE_NULL;
  MPI_Request req;
  MPI_Count sz;
  const MPI_Count negative = -5;
  TEST_EXPECT_ERROR(MPI_Send_c(buf, negative, MPI_INT, peer, TAG, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Send_c");
  TEST_EXPECT_ERROR(MPI_Recv_c(buf, negative, MPI_INT, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_COUNT,
                    "MPI_Recv_c");
  TEST_EXPECT_ERROR(MPI_Isend_c(buf, negative, MPI_INT, peer, TAG, MPI_COMM_WORLD, &req), MPI_ERR_COUNT,
                    "MPI_Isend_c");
  TEST_EXPECT_ERROR(MPI_Type_contiguous_c(negative, MPI_INT, &t), MPI_ERR_COUNT, "MPI_Type_contiguous_c");
  TEST_EXPECT_ERROR(MPI_Pack_size_c(negative, MPI_INT, MPI_COMM_WORLD, &sz), MPI_ERR_COUNT, "MPI_Pack_size_c");
  TEST_EXPECT_ERROR(MPI_Bcast_c(buf, negative, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Bcast_c");
#ifdef STRATA
  /* MPICH 4.0.2 does not check these two counts (it crashes in the reduction). */
  TEST_EXPECT_ERROR(MPI_Allreduce_c(buf, buf + 2, negative, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT,
                    "MPI_Allreduce_c");
  TEST_EXPECT_ERROR(MPI_Reduce_local_c(buf, buf + 2, negative, MPI_INT, MPI_SUM), MPI_ERR_COUNT, "MPI_Reduce_local_c");
  /* Strata's v and w collectives take counts up to INT_MAX: a larger one is refused, naming the call. */
  MPI_Count counts[16], huge = (MPI_Count)INT_MAX + 1;
  MPI_Aint displs[16];
  for (int r = 0; r < 16; ++r) counts[r] = huge, displs[r] = 0;
  TEST_EXPECT_ERROR(MPI_Alltoallv_c(buf, counts, displs, MPI_INT, buf, counts, displs, MPI_INT, MPI_COMM_WORLD),
                    MPI_ERR_COUNT, "MPI_Alltoallv_c");
  /* Windows keep an int disp_unit: a larger one is refused on every process together. */
  MPI_Win win;
  TEST_EXPECT_ERROR(MPI_Win_create_c(buf, (MPI_Aint)sizeof buf, (MPI_Aint)INT_MAX + 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                                     &win),
                    MPI_ERR_DISP, "MPI_Win_create_c");
#endif
  test_collectives_still_work(__FILE__, __LINE__);
}

int main(int argc, char** argv) {
  test_init_returning(&argc, &argv, &rank, &size);
  peer = (rank ^ 1) < size ? rank ^ 1 : rank;
  point_to_point();
  datatypes();
  beyond_int_max();
  collectives();
  one_sided();
  reductions();
  bad_input();
  CHECK_MPI(MPI_Finalize());
  if (rank == 0) printf("large_count: all checks passed on %d ranks\n", size);
  return 0;
}
