/* Every blocking collective of MPI-4.0 chapter 6, checked against results the test computes itself.
 *
 * The matrix: three communicators (MPI_COMM_WORLD; the even and the odd world ranks, split; all ranks reordered by
 * MPI_Comm_split with key (3 * rank + 1) mod size, ties broken by world rank), each collective, roots 0, last and
 * middle (rooted ones), counts 0, 1, 7 and a large one, and types: for data movement MPI_INT, MPI_DOUBLE, a derived
 * type with gaps (resized(vector(2, 1, 3, MPI_INT), 0, 20): ints at bytes 0 and 12 of every 20) and that derived type
 * sent and received as twice as many MPI_INTs (the type signatures match, MPI-4.0 6.1); for reductions predefined
 * types with predefined operators (MPI_INT with MPI_SUM and MPI_BXOR, MPI_DOUBLE with MPI_SUM and MPI_MIN) and a
 * non-commutative user operator, the product of 2 x 2 integer matrices mod 10007 on contiguous(4, MPI_INT), whose
 * result depends on the rank order. Cases that allow MPI_IN_PLACE also run with it. The v-variants get irregular
 * counts (about a quarter of them 0) and displacements in reverse rank order with a gap between blocks; Alltoallw
 * uses a different type (derived or basic) per peer and byte displacements. Not the whole product runs: see
 * selected() for which cases do.
 *
 * Expectations: every input is a pure function of (world rank of the contributor, world rank of the destination
 * where blocks differ per destination, case seed, scalar index): test_pattern. Every rank knows the members of each
 * communicator (computed from the split rule, not asked from MPI) and computes the whole expected receive buffer,
 * results of reductions by a sequential fold in rank order included. Receive buffers are filled with a sentinel and
 * have guard bytes around them: the whole buffer is compared, so gaps inside derived types, gaps between v-blocks,
 * guards, and insignificant receive buffers at non-roots must keep the sentinel. Send buffers must not change.
 * Insignificant arguments at non-roots are NULL (buffers, count arrays) in the runs without MPI_IN_PLACE and valid
 * sentinel buffers (checked untouched) in the others.
 *
 * Large counts: 100000 elements for Bcast, Reduce, Allreduce, Scan and Exscan; 100000 / size + 3 per block for the
 * operations whose buffers hold one block per rank.
 *
 * MPI_Barrier: a barrier must not let any rank out before every rank is in. One "late" rank (the root of the loop)
 * probes many times for a message that the other ranks send only after leaving the barrier: it must find none. These
 * messages travel on a duplicate of the communicator under test: a wildcard receive still pending on the communicator
 * (coll_nonblocking.c's batches) could otherwise match one, as nothing orders messages from different senders.
 *
 * Strata picks algorithms from STRATA_COLL_<OPERATION> in the environment: coll_tests.cmake runs this program with
 * several forced algorithm families. coll_nonblocking.c includes this file (COLL_ALL_NO_MAIN) to reuse the cases with
 * the nonblocking calls: ccase_start issues the blocking call, or the nonblocking one when given a request.
 *
 * A plain MPI-4.0 program: it also builds with mpicc.mpich and passes; cases MPICH 4.0.2 gets wrong are skipped when
 * not built for Strata (mpich_bug(), each with the reason). */
#include "test_util.h"

_Static_assert(sizeof(int) == 4 && sizeof(double) == 8, "the layouts assume 4-byte ints and 8-byte doubles");

enum { SENTINEL = 0xA5, GUARD = 32, LARGE = 100000, MAT_P = 10007, NPROBES = 200, TAG_BARRIER_CHECK = 20000 };

static int wrank, wsize;

/* ---- Communicators under test ----------------------------------------------------------------------------------- */

typedef struct {
  const char *name;
  int id;
  MPI_Comm comm;
  MPI_Comm check; /* a duplicate for the test's own messages, which wildcard receives on comm must never match */
  int size, rank;
  int *world; /* world[r]: the world rank of rank r, from the split rule */
} comm_ctx;

enum { COMM_WORLD, COMM_PARITY, COMM_PERMUTED, NCOMMS };

/* Builds communicator `id` and checks it (size, rank, membership, p2p between every pair). */
static comm_ctx comm_make(int id) {
  static const char *const names[NCOMMS] = {"MPI_COMM_WORLD", "split by parity",
                                            "split with key (3 * rank + 1) mod size"};
  comm_ctx c = {names[id], id, MPI_COMM_WORLD, MPI_COMM_NULL, 0, -1, test_malloc(sizeof(int) * (size_t)wsize)};
  int *key = test_malloc(sizeof(int) * (size_t)wsize), *color = test_malloc(sizeof(int) * (size_t)wsize);
  for (int r = 0; r < wsize; ++r) {
    color[r] = id == COMM_PARITY ? r % 2 : 0;
    key[r] = id == COMM_PERMUTED ? (3 * r + 1) % wsize : r;
  }
  /* Members: the world ranks of my color, ordered by (key, world rank) (MPI-4.0 7.4.2). Insertion sort. */
  for (int r = 0; r < wsize; ++r) {
    if (color[r] != color[wrank]) continue;
    int i = c.size++;
    while (i > 0 && (key[c.world[i - 1]] > key[r])) {
      c.world[i] = c.world[i - 1];
      --i;
    }
    c.world[i] = r;
  }
  if (id != COMM_WORLD) CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color[wrank], key[wrank], &c.comm));
  c.rank = test_index_of(c.world, c.size, wrank);
  test_check_comm(c.comm, c.world, c.size, id, 400 + id);
  CHECK_MPI(MPI_Comm_dup(c.comm, &c.check));
  free(key);
  free(color);
  return c;
}

static void comm_free(comm_ctx *c) {
  if (c->comm != MPI_COMM_WORLD) CHECK_MPI(MPI_Comm_free(&c->comm));
  CHECK_MPI(MPI_Comm_free(&c->check));
  free(c->world);
}

/* ---- Element layouts and values --------------------------------------------------------------------------------- */

/* Scalar kinds: any int; a small int (sums of a few never overflow); a double (an integer / 4: exact, sums of a few
 * too); a matrix entry in [0, MAT_P). */
enum { K_INT, K_SMALL, K_DOUBLE, K_MOD };

/* One element of a datatype: `slots` scalars of one kind at byte offsets off[] within `extent` bytes. */
typedef struct {
  const char *name;
  MPI_Datatype type;
  int kind, slots;
  MPI_Aint extent, off[4];
} layout;

static layout L_int, L_small, L_double, L_vec, L_mat;

static void put_scalar(unsigned char *p, int kind, uint64_t v) {
  if (kind == K_DOUBLE) {
    double x = (double)(int32_t)(uint32_t)v / 4.0;
    memcpy(p, &x, sizeof x);
  } else {
    int x = kind == K_INT ? (int)(uint32_t)v : kind == K_SMALL ? (int)(v % 2000001) - 1000000 : (int)(v % MAT_P);
    memcpy(p, &x, sizeof x);
  }
}

/* `count` elements of L at p: scalar j (elements in order, slots in order) is test_pattern(src, dst, seed, j). A
 * block's scalars depend only on the type signature, so the receiver writes the same values in its own layout. */
static void put_block(unsigned char *p, const layout *L, long count, int src, int dst, int seed) {
  for (long e = 0; e < count; ++e)
    for (int s = 0; s < L->slots; ++s)
      put_scalar(p + e * L->extent + L->off[s], L->kind, test_pattern(src, dst, seed, (uint64_t)(e * L->slots + s)));
}

/* ---- Reduction operators: the reference and the user operator share apply() ------------------------------------ */

enum { OP_SUM, OP_BXOR, OP_MIN, OP_MAT };

/* inout[i] = in[i] op inout[i] for `count` elements of L (MPI-4.0 6.9.5: in holds the lower ranks' part). */
static void apply(int op, const layout *L, const unsigned char *in, unsigned char *inout, long count) {
  if (op == OP_MAT) {
    for (long e = 0; e < count; ++e, in += 16, inout += 16) {
      int a[4], b[4], c[4];
      memcpy(a, in, 16);
      memcpy(b, inout, 16);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          c[2 * i + j] = (int)(((int64_t)a[2 * i] * b[j] + (int64_t)a[2 * i + 1] * b[2 + j]) % MAT_P);
      memcpy(inout, c, 16);
    }
    return;
  }
  const size_t size = L->kind == K_DOUBLE ? 8 : 4;
  for (long i = 0; i < count * L->slots; ++i, in += size, inout += size) {
    if (L->kind == K_DOUBLE) {
      double a, b;
      memcpy(&a, in, 8);
      memcpy(&b, inout, 8);
      b = op == OP_SUM ? a + b : (a < b ? a : b);
      memcpy(inout, &b, 8);
    } else {
      int a, b;
      memcpy(&a, in, 4);
      memcpy(&b, inout, 4);
      b = op == OP_SUM ? a + b : a ^ b;
      memcpy(inout, &b, 4);
    }
  }
}

static void mat_user_op(void *in, void *inout, int *len, MPI_Datatype *type) {
  /* MPI-4.0 6.9.5: the datatype argument is the one passed to the reduction call. */
  if (*type != L_mat.type) test_fail(__FILE__, __LINE__, "user operator", ": called with another datatype");
  apply(OP_MAT, &L_mat, in, inout, *len);
}

/* Rows of the matrix: pairs of send and receive layouts for data movement, (layout, operator) for reductions. */
typedef struct {
  const layout *sl, *rl;
} type_row;
typedef struct {
  const char *name;
  const layout *L;
  int op;
  MPI_Op mop;
} red_row;

enum { NTROWS = 4, NRROWS = 5 };
static type_row trows[NTROWS];
static red_row rrows[NRROWS];

static void make_layouts(void) {
  MPI_Datatype v;
  L_int = (layout){"MPI_INT", MPI_INT, K_INT, 1, 4, {0}};
  L_small = (layout){"MPI_INT", MPI_INT, K_SMALL, 1, 4, {0}};
  L_double = (layout){"MPI_DOUBLE", MPI_DOUBLE, K_DOUBLE, 1, 8, {0}};
  L_vec = (layout){"resized(vector(2,1,3,MPI_INT),0,20)", MPI_DATATYPE_NULL, K_INT, 2, 20, {0, 12}};
  CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &v));
  CHECK_MPI(MPI_Type_create_resized(v, 0, 20, &L_vec.type));
  CHECK_MPI(MPI_Type_free(&v));
  CHECK_MPI(MPI_Type_commit(&L_vec.type));
  L_mat = (layout){"contiguous(4,MPI_INT) matrix", MPI_DATATYPE_NULL, K_MOD, 4, 16, {0, 4, 8, 12}};
  CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &L_mat.type));
  CHECK_MPI(MPI_Type_commit(&L_mat.type));

  trows[0] = (type_row){&L_int, &L_int};
  trows[1] = (type_row){&L_double, &L_double};
  trows[2] = (type_row){&L_vec, &L_vec};
  trows[3] = (type_row){&L_vec, &L_int};
  rrows[0] = (red_row){"MPI_INT, MPI_SUM", &L_small, OP_SUM, MPI_SUM};
  rrows[1] = (red_row){"MPI_INT, MPI_BXOR", &L_int, OP_BXOR, MPI_BXOR};
  rrows[2] = (red_row){"MPI_DOUBLE, MPI_SUM", &L_double, OP_SUM, MPI_SUM};
  rrows[3] = (red_row){"MPI_DOUBLE, MPI_MIN", &L_double, OP_MIN, MPI_MIN};
  rrows[4] = (red_row){"matrix, non-commutative product", &L_mat, OP_MAT, MPI_OP_NULL};
  CHECK_MPI(MPI_Op_create(mat_user_op, 0, &rrows[4].mop));

  /* The product must depend on the order, or the rank-order checks would prove nothing. */
  unsigned char a[16], b[16], ab[16], ba[16];
  put_block(a, &L_mat, 1, 1, 2, 3);
  put_block(b, &L_mat, 1, 2, 1, 3);
  memcpy(ab, b, 16);
  memcpy(ba, a, 16);
  apply(OP_MAT, &L_mat, a, ab, 1);
  apply(OP_MAT, &L_mat, b, ba, 1);
  CHECK(memcmp(ab, ba, 16) != 0);
}

static void free_layouts(void) {
  CHECK_MPI(MPI_Type_free(&L_vec.type));
  CHECK_MPI(MPI_Type_free(&L_mat.type));
  CHECK_MPI(MPI_Op_free(&rrows[4].mop));
}

/* ---- Buffers ---------------------------------------------------------------------------------------------------- */

/* `span` bytes at `at`, GUARD bytes on each side, all filled with the sentinel. */
typedef struct {
  unsigned char *raw, *at;
  size_t bytes;
} tbuf;

static tbuf tbuf_make(size_t span) {
  tbuf b;
  b.bytes = span + 2 * GUARD;
  b.raw = test_malloc(b.bytes);
  b.at = b.raw + GUARD;
  memset(b.raw, SENTINEL, b.bytes);
  return b;
}

/* Offsets of n blocks of bytes[r] bytes: in rank order one after the other, or (irregular) in reverse rank order
 * with `gap` bytes before each. Returns the span. */
static size_t place(int n, const size_t *bytes, size_t gap, int irregular, size_t *off) {
  size_t pos = irregular ? gap : 0;
  for (int i = 0; i < n; ++i) {
    int r = irregular ? n - 1 - i : i;
    off[r] = pos;
    pos += bytes[r] + (irregular ? gap : 0);
  }
  return pos;
}

/* Irregular counts of the v-variants from a base count: about a quarter 0, the others base + 0..2. `sym`: the same
 * for (a, b) and (b, a) (an in-place all-to-all sends each peer as much as it receives from it). */
static int vcount(int base, int a, int b, int sym) {
  if (sym && a > b) {
    int t = a;
    a = b;
    b = t;
  }
  if (base == 0 || (3 * a + 5 * b + 1) % 4 == 0) return 0;
  return base + (a + 2 * b) % 3;
}

/* ---- Cases ------------------------------------------------------------------------------------------------------ */

enum {
  C_BARRIER,
  C_BCAST,
  C_GATHER,
  C_GATHERV,
  C_SCATTER,
  C_SCATTERV,
  C_ALLGATHER,
  C_ALLGATHERV,
  C_ALLTOALL,
  C_ALLTOALLV,
  C_ALLTOALLW,
  C_REDUCE,
  C_ALLREDUCE,
  C_REDUCE_SCATTER,
  C_REDUCE_SCATTER_BLOCK,
  C_SCAN,
  C_EXSCAN,
  NCOLLS
};

/* rooted: the case loops over roots (Barrier: over the late rank); inplace: MPI_IN_PLACE is allowed; per_rank: the
 * buffers hold a block per rank (the large count is divided by the size). */
static const struct {
  const char *name;
  int rooted, reduction, inplace, per_rank;
} colls[NCOLLS] = {
    {"Barrier", 1, 0, 0, 0},   {"Bcast", 1, 0, 0, 0},          {"Gather", 1, 0, 1, 1},
    {"Gatherv", 1, 0, 1, 1},   {"Scatter", 1, 0, 1, 1},        {"Scatterv", 1, 0, 1, 1},
    {"Allgather", 0, 0, 1, 1}, {"Allgatherv", 0, 0, 1, 1},     {"Alltoall", 0, 0, 1, 1},
    {"Alltoallv", 0, 0, 1, 1}, {"Alltoallw", 0, 0, 1, 1},      {"Reduce", 1, 1, 1, 0},
    {"Allreduce", 0, 1, 1, 0}, {"Reduce_scatter", 0, 1, 1, 1}, {"Reduce_scatter_block", 0, 1, 1, 1},
    {"Scan", 0, 1, 1, 0},      {"Exscan", 0, 1, 1, 0},
};

/* One call of one collective with everything needed to check it. */
typedef struct {
  int op, row, count, root, inplace, seed;
  const comm_ctx *cc;
  const layout *sl, *rl; /* send and receive layouts (the same for reductions) */
  const red_row *red;
  tbuf sbuf, rbuf, want;  /* want: the expected image of rbuf */
  unsigned char *sorig;   /* sbuf as filled: the call must not change it */
  size_t dc_off, dc_len;  /* a region of rbuf whose content is undefined after the call (not compared) */
  const void *sptr;       /* what the call gets: sbuf.at, MPI_IN_PLACE or NULL */
  void *rptr;             /* rbuf.at or NULL */
  int scount, rcount;     /* counts of the regular variants (Bcast: of this rank's layout) */
  int *sc, *sd, *rc, *rd; /* per-rank counts and displacements (elements; Alltoallw: bytes); NULL when insignificant */
  MPI_Datatype *st, *rt;  /* Alltoallw's per-rank types */
  char desc[200];
} ccase;

static int relem(const ccase *c, int count) { return count * c->sl->slots / c->rl->slots; }

static void keep_send(ccase *c) {
  c->sptr = c->sbuf.at;
  c->sorig = test_malloc(c->sbuf.bytes);
  memcpy(c->sorig, c->sbuf.raw, c->sbuf.bytes);
}

/* The receive buffer and its expected image (both sentinel-filled). */
static void make_rbuf(ccase *c, size_t span) {
  c->rbuf = tbuf_make(span);
  c->want = tbuf_make(span);
  c->rptr = c->rbuf.at;
}

/* The root sends in the send layout, the others receive in the receive layout; the root's buffer must not change. */
static void prep_bcast(ccase *c) {
  const int is_root = c->cc->rank == c->root;
  const layout *L = is_root ? c->sl : c->rl;
  c->rcount = is_root ? c->count : relem(c, c->count);
  make_rbuf(c, (size_t)c->rcount * L->extent);
  put_block(c->want.at, L, c->rcount, c->cc->world[c->root], -1, c->seed);
  if (is_root) put_block(c->rbuf.at, L, c->rcount, c->cc->world[c->root], -1, c->seed);
}

/* Gather, Gatherv, Allgather, Allgatherv. */
static void prep_gather(ccase *c) {
  const int n = c->cc->size, me = c->cc->rank, *W = c->cc->world;
  const int v = c->op == C_GATHERV || c->op == C_ALLGATHERV, all = c->op == C_ALLGATHER || c->op == C_ALLGATHERV;
  size_t *bytes = test_malloc(sizeof(size_t) * (size_t)n), *off = test_malloc(sizeof(size_t) * (size_t)n);
  for (int r = 0; r < n; ++r) {
    c->rc[r] = relem(c, v ? vcount(c->count, r, 0, 0) : c->count);
    bytes[r] = (size_t)c->rc[r] * c->rl->extent;
  }
  size_t span = place(n, bytes, c->rl->extent, v, off);
  for (int r = 0; r < n; ++r) c->rd[r] = (int)(off[r] / c->rl->extent);
  c->scount = v ? vcount(c->count, me, 0, 0) : c->count;
  c->rcount = relem(c, c->count);
  c->sbuf = tbuf_make((size_t)c->scount * c->sl->extent);
  put_block(c->sbuf.at, c->sl, c->scount, W[me], -1, c->seed);
  keep_send(c);
  if (all || me == c->root) {
    make_rbuf(c, span);
    for (int r = 0; r < n; ++r) put_block(c->want.at + off[r], c->rl, c->rc[r], W[r], -1, c->seed);
    if (c->inplace) {
      put_block(c->rbuf.at + off[me], c->rl, c->rc[me], W[me], -1, c->seed);
      c->sptr = MPI_IN_PLACE;
    }
  } else if (c->inplace) {
    make_rbuf(c, span); /* insignificant: must stay untouched */
  } else {
    free(c->rc);
    free(c->rd);
    c->rc = c->rd = NULL;
  }
  free(bytes);
  free(off);
}

/* Scatter, Scatterv. */
static void prep_scatter(ccase *c) {
  const int n = c->cc->size, me = c->cc->rank, *W = c->cc->world, v = c->op == C_SCATTERV;
  size_t *bytes = test_malloc(sizeof(size_t) * (size_t)n), *off = test_malloc(sizeof(size_t) * (size_t)n);
  for (int r = 0; r < n; ++r) {
    c->sc[r] = v ? vcount(c->count, r, 0, 0) : c->count;
    bytes[r] = (size_t)c->sc[r] * c->sl->extent;
  }
  size_t span = place(n, bytes, c->sl->extent, v, off);
  for (int r = 0; r < n; ++r) c->sd[r] = (int)(off[r] / c->sl->extent);
  c->scount = c->count;
  c->rcount = relem(c, c->sc[me]);
  if (me == c->root) {
    c->sbuf = tbuf_make(span);
    for (int r = 0; r < n; ++r) put_block(c->sbuf.at + off[r], c->sl, c->sc[r], W[me], W[r], c->seed);
    keep_send(c);
  } else if (c->inplace) {
    c->sbuf = tbuf_make(span); /* insignificant */
    keep_send(c);
  } else {
    free(c->sc);
    free(c->sd);
    c->sc = c->sd = NULL;
  }
  if (me == c->root && c->inplace) {
    c->rptr = MPI_IN_PLACE;
  } else {
    make_rbuf(c, (size_t)c->rcount * c->rl->extent);
    put_block(c->want.at, c->rl, c->rcount, W[c->root], W[me], c->seed);
  }
  free(bytes);
  free(off);
}

/* Alltoall, Alltoallv, Alltoallw. Alltoallw: to even peers the send layout, to odd ones the receive layout, and the
 * other way round for receiving, with counts making the same number of scalars. */
static void prep_alltoall(ccase *c) {
  const int n = c->cc->size, me = c->cc->rank, *W = c->cc->world;
  const int w = c->op == C_ALLTOALLW, irregular = c->op != C_ALLTOALL;
  const layout **spl = test_malloc(sizeof(layout *) * (size_t)n), **rpl = test_malloc(sizeof(layout *) * (size_t)n);
  size_t *sbytes = test_malloc(sizeof(size_t) * (size_t)n), *soff = test_malloc(sizeof(size_t) * (size_t)n);
  size_t *rbytes = test_malloc(sizeof(size_t) * (size_t)n), *roff = test_malloc(sizeof(size_t) * (size_t)n);
  for (int p = 0; p < n; ++p) {
    spl[p] = w && p % 2 ? c->rl : c->sl;
    rpl[p] = w && p % 2 ? c->sl : c->rl;
    int out = irregular ? vcount(c->count, me, p, c->inplace) : c->count; /* in send-layout elements */
    int in = irregular ? vcount(c->count, p, me, c->inplace) : c->count;
    c->sc[p] = out * c->sl->slots / spl[p]->slots;
    c->rc[p] = in * c->sl->slots / rpl[p]->slots;
    sbytes[p] = (size_t)c->sc[p] * spl[p]->extent;
    rbytes[p] = (size_t)c->rc[p] * rpl[p]->extent;
    c->st[p] = spl[p]->type;
    c->rt[p] = rpl[p]->type;
  }
  size_t sspan = place(n, sbytes, w ? 8 : c->sl->extent, irregular, soff);
  size_t rspan = place(n, rbytes, w ? 8 : c->rl->extent, irregular, roff);
  for (int p = 0; p < n; ++p) {
    c->sd[p] = (int)(w ? soff[p] : soff[p] / c->sl->extent);
    c->rd[p] = (int)(w ? roff[p] : roff[p] / c->rl->extent);
  }
  c->scount = c->count;
  c->rcount = relem(c, c->count);
  make_rbuf(c, rspan);
  for (int p = 0; p < n; ++p) put_block(c->want.at + roff[p], rpl[p], c->rc[p], W[p], W[me], c->seed);
  if (c->inplace) { /* the outgoing blocks sit where the incoming ones will be (counts are symmetric) */
    for (int p = 0; p < n; ++p) put_block(c->rbuf.at + roff[p], rpl[p], c->rc[p], W[me], W[p], c->seed);
    c->sptr = MPI_IN_PLACE;
  } else {
    c->sbuf = tbuf_make(sspan);
    for (int p = 0; p < n; ++p) put_block(c->sbuf.at + soff[p], spl[p], c->sc[p], W[me], W[p], c->seed);
    keep_send(c);
  }
  free(spl);
  free(rpl);
  free(sbytes);
  free(soff);
  free(rbytes);
  free(roff);
}

/* Reduce, Allreduce, Reduce_scatter, Reduce_scatter_block, Scan, Exscan. Rank r's input: `total` elements, block
 * (world rank of r, -1, seed). The result at rank me: the fold of ranks 0..hi in rank order, elements res_off .. */
static void prep_reduction(ccase *c) {
  const int n = c->cc->size, me = c->cc->rank, *W = c->cc->world;
  const layout *L = c->sl;
  const size_t ext = (size_t)L->extent;
  long total = c->count, res_off = 0, res_cnt = c->count;
  int hi = n - 1, receives = c->op != C_REDUCE || me == c->root;
  if (c->op == C_SCAN) hi = me;
  if (c->op == C_EXSCAN) hi = me - 1; /* rank 0: undefined (MPI-4.0 6.11.2) */
  if (c->op == C_REDUCE_SCATTER || c->op == C_REDUCE_SCATTER_BLOCK) {
    total = 0;
    for (int r = 0; r < n; ++r) {
      c->rc[r] = c->op == C_REDUCE_SCATTER_BLOCK ? c->count : vcount(c->count, r, 0, 0);
      if (r == me) res_off = total;
      total += c->rc[r];
    }
    res_cnt = c->rc[me];
  }
  c->scount = c->rcount = c->count;
  tbuf in = tbuf_make((size_t)total * ext);
  put_block(in.at, L, total, W[me], -1, c->seed);
  if (c->inplace && receives) { /* the input is in the receive buffer, the result replaces its start */
    c->rbuf = in;
    c->rptr = in.at;
    c->want = tbuf_make((size_t)total * ext);
    c->sptr = MPI_IN_PLACE;
    c->dc_off = (size_t)res_cnt * ext;
    c->dc_len = (size_t)(total - res_cnt) * ext;
  } else {
    c->sbuf = in;
    keep_send(c);
    if (receives || c->inplace) make_rbuf(c, (size_t)res_cnt * ext);
  }
  if (!receives) return; /* a non-root's receive buffer (if any) must stay untouched */
  if (hi < 0) {
    c->dc_off = 0;
    c->dc_len = (size_t)res_cnt * ext;
    return;
  }
  unsigned char *acc = test_malloc((size_t)total * ext), *tmp = test_malloc((size_t)total * ext);
  put_block(acc, L, total, W[0], -1, c->seed);
  for (int r = 1; r <= hi; ++r) {
    put_block(tmp, L, total, W[r], -1, c->seed);
    apply(c->red->op, L, acc, tmp, total);
    unsigned char *t = acc;
    acc = tmp;
    tmp = t;
  }
  memcpy(c->want.at, acc + (size_t)res_off * ext, (size_t)res_cnt * ext);
  free(acc);
  free(tmp);
}

/* Fills a case: row indexes trows[] (data movement) or rrows[] (reductions); for Barrier `root` is the late rank. */
static ccase ccase_make(const comm_ctx *cc, int op, int row, int count, int root, int inplace, int seed) {
  ccase c;
  memset(&c, 0, sizeof c);
  c.op = op;
  c.row = row;
  c.count = count;
  c.root = root;
  c.inplace = inplace;
  c.seed = seed;
  c.cc = cc;
  c.sl = colls[op].reduction ? rrows[row].L : trows[row].sl;
  c.rl = colls[op].reduction ? rrows[row].L : trows[row].rl;
  c.red = colls[op].reduction ? &rrows[row] : NULL;
  char types[96];
  snprintf(types, sizeof types, "%s%s%s", c.red ? c.red->name : c.sl->name, c.red ? "" : " -> ",
           c.red ? "" : c.rl->name);
  snprintf(c.desc, sizeof c.desc, "%s on %s (rank %d of %d), %s, count %d, %s %d%s", colls[op].name, cc->name, cc->rank,
           cc->size, types, count, op == C_BARRIER ? "late rank" : "root", colls[op].rooted ? root : -1,
           inplace ? ", MPI_IN_PLACE" : "");
  const size_t n = (size_t)cc->size;
  c.sc = test_malloc(sizeof(int) * n);
  c.sd = test_malloc(sizeof(int) * n);
  c.rc = test_malloc(sizeof(int) * n);
  c.rd = test_malloc(sizeof(int) * n);
  c.st = test_malloc(sizeof(MPI_Datatype) * n);
  c.rt = test_malloc(sizeof(MPI_Datatype) * n);
  switch (op) {
    case C_BARRIER:
      break;
    case C_BCAST:
      prep_bcast(&c);
      break;
    case C_GATHER:
    case C_GATHERV:
    case C_ALLGATHER:
    case C_ALLGATHERV:
      prep_gather(&c);
      break;
    case C_SCATTER:
    case C_SCATTERV:
      prep_scatter(&c);
      break;
    case C_ALLTOALL:
    case C_ALLTOALLV:
    case C_ALLTOALLW:
      prep_alltoall(&c);
      break;
    default:
      prep_reduction(&c);
      break;
  }
  return c;
}

/* Just before the call starts (for a persistent one: before each MPI_Start). Barrier: the late rank makes sure
 * nobody has left the barrier yet (the others tell it when they are out, in ccase_check). */
static void ccase_before(const ccase *c) {
  if (c->op != C_BARRIER || c->cc->rank != c->root) return;
  for (int i = 0; i < NPROBES; ++i) {
    int flag = 1;
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, TAG_BARRIER_CHECK + c->seed % 5000, c->cc->check, &flag, MPI_STATUS_IGNORE));
    if (flag) test_fail(__FILE__, __LINE__, "a rank left the barrier before the late rank entered", c->desc);
  }
}

/* Issues the call: the blocking collective; with `req` the nonblocking one; with `req` and `init_info` the
 * persistent one's init (MPI-4.0 6.13; the caller then starts it). Returns the MPI error code. */
#define COLL_CALL(blocking, nonblocking, init, ...) \
  (init_info ? init(__VA_ARGS__, *init_info, req) : req ? nonblocking(__VA_ARGS__, req) : blocking(__VA_ARGS__))
static int ccase_call(ccase *c, MPI_Request *req, const MPI_Info *init_info) {
  const MPI_Comm comm = c->cc->comm;
  const MPI_Datatype stype = c->sl->type, rtype = c->rl->type;
  const MPI_Op mop = c->red ? c->red->mop : MPI_OP_NULL;
  switch (c->op) {
    case C_BARRIER:
      return COLL_CALL(MPI_Barrier, MPI_Ibarrier, MPI_Barrier_init, comm);
    case C_BCAST:
      return COLL_CALL(MPI_Bcast, MPI_Ibcast, MPI_Bcast_init, c->rptr, c->rcount,
                       c->cc->rank == c->root ? stype : rtype, c->root, comm);
    case C_GATHER:
      return COLL_CALL(MPI_Gather, MPI_Igather, MPI_Gather_init, c->sptr, c->scount, stype, c->rptr, c->rcount, rtype,
                       c->root, comm);
    case C_GATHERV:
      return COLL_CALL(MPI_Gatherv, MPI_Igatherv, MPI_Gatherv_init, c->sptr, c->scount, stype, c->rptr, c->rc, c->rd,
                       rtype, c->root, comm);
    case C_SCATTER:
      return COLL_CALL(MPI_Scatter, MPI_Iscatter, MPI_Scatter_init, c->sptr, c->scount, stype, c->rptr, c->rcount,
                       rtype, c->root, comm);
    case C_SCATTERV:
      return COLL_CALL(MPI_Scatterv, MPI_Iscatterv, MPI_Scatterv_init, c->sptr, c->sc, c->sd, stype, c->rptr, c->rcount,
                       rtype, c->root, comm);
    case C_ALLGATHER:
      return COLL_CALL(MPI_Allgather, MPI_Iallgather, MPI_Allgather_init, c->sptr, c->scount, stype, c->rptr, c->rcount,
                       rtype, comm);
    case C_ALLGATHERV:
      return COLL_CALL(MPI_Allgatherv, MPI_Iallgatherv, MPI_Allgatherv_init, c->sptr, c->scount, stype, c->rptr, c->rc,
                       c->rd, rtype, comm);
    case C_ALLTOALL:
      return COLL_CALL(MPI_Alltoall, MPI_Ialltoall, MPI_Alltoall_init, c->sptr, c->scount, stype, c->rptr, c->rcount,
                       rtype, comm);
    case C_ALLTOALLV:
      return COLL_CALL(MPI_Alltoallv, MPI_Ialltoallv, MPI_Alltoallv_init, c->sptr, c->sc, c->sd, stype, c->rptr, c->rc,
                       c->rd, rtype, comm);
    case C_ALLTOALLW:
      return COLL_CALL(MPI_Alltoallw, MPI_Ialltoallw, MPI_Alltoallw_init, c->sptr, c->sc, c->sd, c->st, c->rptr, c->rc,
                       c->rd, c->rt, comm);
    case C_REDUCE:
      return COLL_CALL(MPI_Reduce, MPI_Ireduce, MPI_Reduce_init, c->sptr, c->rptr, c->scount, stype, mop, c->root,
                       comm);
    case C_ALLREDUCE:
      return COLL_CALL(MPI_Allreduce, MPI_Iallreduce, MPI_Allreduce_init, c->sptr, c->rptr, c->scount, stype, mop,
                       comm);
    case C_REDUCE_SCATTER:
      return COLL_CALL(MPI_Reduce_scatter, MPI_Ireduce_scatter, MPI_Reduce_scatter_init, c->sptr, c->rptr, c->rc, stype,
                       mop, comm);
    case C_REDUCE_SCATTER_BLOCK:
      return COLL_CALL(MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, MPI_Reduce_scatter_block_init, c->sptr,
                       c->rptr, c->rcount, stype, mop, comm);
    case C_SCAN:
      return COLL_CALL(MPI_Scan, MPI_Iscan, MPI_Scan_init, c->sptr, c->rptr, c->scount, stype, mop, comm);
    default:
      return COLL_CALL(MPI_Exscan, MPI_Iexscan, MPI_Exscan_init, c->sptr, c->rptr, c->scount, stype, mop, comm);
  }
}
#undef COLL_CALL

/* inline: not every file that includes this one uses it */
static inline int ccase_start(ccase *c, MPI_Request *req) {
  ccase_before(c);
  return ccase_call(c, req, NULL);
}

static void expect_bytes(const ccase *c, const unsigned char *got, const unsigned char *want, size_t bytes,
                         const char *what, int line) {
  if (memcmp(got, want, bytes) == 0) return;
  size_t i = 0;
  while (got[i] == want[i]) ++i;
  char detail[400];
  snprintf(detail, sizeof detail, ": %s: %s byte %ld (0 = the first byte given to MPI) is 0x%02x, expected 0x%02x%s",
           c->desc, what, (long)i - GUARD, got[i], want[i],
           want[i] == SENTINEL ? " (the sentinel: a byte the call must not write?)" : "");
  test_fail(__FILE__, line, "collective result", detail);
}

/* After the call completed: checks everything. */
static void ccase_check(ccase *c) {
  if (c->op == C_BARRIER && c->cc->size > 1) { /* see ccase_start: the others tell the late rank they are out */
    const int tag = TAG_BARRIER_CHECK + c->seed % 5000;
    if (c->cc->rank != c->root) {
      CHECK_MPI(MPI_Send(&c->seed, 1, MPI_INT, c->root, tag, c->cc->check));
    } else {
      for (int r = 0; r < c->cc->size - 1; ++r) {
        int got = -1;
        CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, tag, c->cc->check, MPI_STATUS_IGNORE));
        CHECK(got == c->seed);
      }
    }
  }
  if (c->rbuf.raw) {
    memcpy(c->want.at + c->dc_off, c->rbuf.at + c->dc_off, c->dc_len);
    expect_bytes(c, c->rbuf.raw, c->want.raw, c->rbuf.bytes, "receive buffer", __LINE__);
  }
  if (c->sorig) expect_bytes(c, c->sbuf.raw, c->sorig, c->sbuf.bytes, "send buffer (must not change)", __LINE__);
}

static void ccase_free(ccase *c) {
  free(c->sbuf.raw);
  free(c->rbuf.raw);
  free(c->want.raw);
  free(c->sorig);
  free(c->sc);
  free(c->sd);
  free(c->rc);
  free(c->rd);
  free(c->st);
  free(c->rt);
}

static inline void ccase_finish(ccase *c) {
  ccase_check(c);
  ccase_free(c);
}

/* The count of column ci of the matrix for an operation on n ranks. */
static const int base_counts[] = {0, 1, 7, -1 /* large */};
enum { NCOUNTS = sizeof base_counts / sizeof base_counts[0], CI_FULL = 2, CI_LARGE = 3 };
static int case_count(int op, int ci, int n) {
  if (base_counts[ci] >= 0) return base_counts[ci];
  return colls[op].per_rank ? LARGE / n + 3 : LARGE;
}

/* The distinct roots among 0, last and middle of n ranks; returns how many. */
static int roots_of(int n, int roots[3]) {
  const int all[3] = {0, n - 1, n / 2};
  int k = 0;
  for (int i = 0; i < 3; ++i)
    if (k == 0 || (all[i] != roots[0] && all[i] != roots[k - 1])) roots[k++] = all[i];
  return k;
}

static int nrows_of(int op) { return op == C_BARRIER ? 1 : colls[op].reduction ? NRROWS : NTROWS; }

/* A seed unique to every case of a communicator (the same on all its members). */
static int case_seed(int comm_id, int op, int row, int ci, int ri, int inplace) {
  return ((((comm_id * NCOLLS + op) * 8 + row) * NCOUNTS + ci) * 3 + ri) * 2 + inplace;
}

/* Cases MPICH 4.0.2 gets wrong; the test skips them when it is not built for Strata (it is itself checked against
 * MPICH, see the header). nb: the nonblocking call. */
static int mpich_bug(const comm_ctx *cc, int op, int row, int ci, int root, int inplace, int nb) {
#ifdef STRATA
  (void)cc, (void)op, (void)row, (void)ci, (void)root, (void)inplace, (void)nb;
  return 0;
#else
  /* In-place MPI_Reduce at a non-zero root above 2 KiB (its reduce_scatter_gather algorithm): SIGSEGV, reading
   * MPI_IN_PLACE as a buffer (pmodels/mpich#6540, fixed in 4.1.2). */
  if (op == C_REDUCE && inplace && root != 0 && ci == CI_LARGE) return 1;
  /* In-place MPI_Reduce_scatter above 512 KiB (pairwise algorithm) with a block longer than its offset: moves the
   * block to the start of the buffer with memcpy on overlapping ranges ("memcpy argument memory ranges overlap"). */
  if (op == C_REDUCE_SCATTER && inplace && ci == CI_LARGE) return 1;
  /* MPI_Allgatherv on one rank copies the block to displacement 0 instead of displs[0]. */
  if (op == C_ALLGATHERV && cc->size == 1) return 1;
  /* MPI_Ialltoallw with MPI_IN_PLACE and receive types that differ between peers (same signatures) delivers wrong
   * data (MPI_Alltoallw is right). */
  if (op == C_ALLTOALLW && inplace && nb && trows[row].sl != trows[row].rl) return 1;
  return 0;
#endif
}

/* The call must have returned MPI_SUCCESS. */
static void expect_success(const ccase *c, int err, int line) {
  if (err == MPI_SUCCESS) return;
  char msg[MPI_MAX_ERROR_STRING + 256];
  int len = 0;
  snprintf(msg, sizeof msg, ": %s -> ", c->desc);
  MPI_Error_string(err, msg + strlen(msg), &len);
  test_fail(__FILE__, line, "collective call", msg);
}

#ifdef COLL_ALL_NO_MAIN
/* Makes the case of the given coordinates for the blocking (nb 0) or the nonblocking call, or returns 0 when MPICH is
 * known to get it wrong (see coll_all.c). Cases with different salts get different data. */
static int make_case(ccase *c, const comm_ctx *cc, int op, int row, int ci, int ri, int inplace, int salt, int nb) {
  int roots[3];
  const int nroots = roots_of(cc->size, roots);
  ri %= nroots;
  inplace = inplace && colls[op].inplace;
  row %= nrows_of(op);
  if (mpich_bug(cc, op, row, ci, roots[ri], inplace, nb)) return 0;
  *c = ccase_make(cc, op, row, case_count(op, ci, cc->size), roots[ri], inplace,
                  case_seed(cc->id + NCOMMS * salt, op, row, ci, ri, inplace));
  return 1;
}
#endif

#ifndef COLL_ALL_NO_MAIN
/* Which cases of the product run: the whole product would take minutes (under MPICH, 8 ranks on 2 cores spend
 * ~10 ms in every call). On MPI_COMM_WORLD every row runs with count 7 at every root and in both modes (with and
 * without MPI_IN_PLACE); counts 0 and 1 run every row, the large count the rows with distinct data paths (not
 * MPI_DOUBLE among the data rows; MPI_INT sum and the matrix product among the reductions), each at one root and in
 * one mode, rotating. On the split communicators each count runs one row, rotating, count 7 at every root and in
 * both modes, the other counts at one root and in one mode. Barrier runs with every late rank. */
static int selected(int comm_id, int op, int row, int ci, int ri, int nroots, int inplace) {
  const int spin = op + row + ci + comm_id;
  if (op == C_BARRIER) return 1;
  if (comm_id != COMM_WORLD && row != (op + ci + comm_id) % nrows_of(op)) return 0;
  if (ci == CI_LARGE && comm_id == COMM_WORLD &&
      (colls[op].reduction ? row != 0 && row != NRROWS - 1 : trows[row].sl == &L_double))
    return 0;
  if (ci == CI_FULL) return 1;
  return ri == spin % nroots && inplace == (spin / 3) % (colls[op].inplace + 1);
}

static void run_blocking(const comm_ctx *cc) {
  int roots[3];
  const int nroots = roots_of(cc->size, roots);
  for (int op = 0; op < NCOLLS; ++op)
    for (int row = 0; row < nrows_of(op); ++row)
      for (int ci = 0; ci < (op == C_BARRIER ? 1 : NCOUNTS); ++ci)
        for (int ri = 0; ri < (colls[op].rooted ? nroots : 1); ++ri)
          for (int inplace = 0; inplace <= colls[op].inplace; ++inplace) {
            if (!selected(cc->id, op, row, ci, colls[op].rooted ? ri : 0, colls[op].rooted ? nroots : 1, inplace) ||
                mpich_bug(cc, op, row, ci, roots[ri], inplace, 0))
              continue;
            ccase c = ccase_make(cc, op, row, case_count(op, ci, cc->size), roots[ri], inplace,
                                 case_seed(cc->id, op, row, ci, ri, inplace));
            expect_success(&c, ccase_start(&c, NULL), __LINE__);
            ccase_finish(&c);
          }
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &wrank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &wsize));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  make_layouts();
  for (int id = 0; id < NCOMMS; ++id) {
    comm_ctx cc = comm_make(id);
    run_blocking(&cc);
    comm_free(&cc);
    test_barrier();
  }
  free_layouts();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
#endif
