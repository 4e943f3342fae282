/* Groups (MPI-4.0 7.3): Comm_group, Group_size, Group_rank, Group_incl, Group_excl, Group_range_incl,
 * Group_range_excl, Group_union, Group_intersection, Group_difference, Group_translate_ranks, Group_compare,
 * Group_free, MPI_GROUP_EMPTY.
 *
 * Fixed cases first, then random ones checked against a model: a group is modelled as the ordered list of the
 * world ranks of its members, and every call's expected result is computed from that list by the definitions of
 * 7.3.2 (union: group1's members, then group2's members not in group1, in group2's order; intersection: group1's
 * members that are in group2, in group1's order; difference: group1's members not in group2; range triplets
 * expanded as first, first+stride, ... up to last). Each rank draws different random groups (the seed includes the
 * rank) and also checks its own Group_rank, so the checks differ across ranks; groups of sub-communicators are
 * checked too. Usage: group_ops [trials] (default 400). Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;
static MPI_Group world_group;

typedef struct {
  int n;
  int m[64]; /* world ranks, in group order */
} model_t;

static int model_rank_of(const model_t *g, int world) { return test_index_of(g->m, g->n, world); }

/* Checks `group` against `model`: size, own rank, and the translation of every rank to the world group and back. */
static void check_group(MPI_Group group, const model_t *model) {
  int n = -1, r = -2;
  CHECK_MPI(MPI_Group_size(group, &n));
  if (n != model->n) fprintf(stderr, "rank %d: group size %d, expected %d\n", rank, n, model->n);
  CHECK(n == model->n);
  CHECK_MPI(MPI_Group_rank(group, &r));
  CHECK(r == model_rank_of(model, rank));
  if (n == 0) {
    int result = -1;
    CHECK_MPI(MPI_Group_compare(group, MPI_GROUP_EMPTY, &result));
    CHECK(result == MPI_IDENT);
    return;
  }
  int ranks[64], out[64];
  for (int i = 0; i < n; ++i) {
    ranks[i] = i;
    out[i] = -77;
  }
  CHECK_MPI(MPI_Group_translate_ranks(group, n, ranks, world_group, out));
  for (int i = 0; i < n; ++i) {
    if (out[i] != model->m[i])
      fprintf(stderr, "rank %d: member %d is world rank %d, expected %d\n", rank, i, out[i], model->m[i]);
    CHECK(out[i] == model->m[i]);
  }
  /* and back: every world rank to its rank in `group` (MPI_UNDEFINED for non-members) */
  int wr[64], back[64];
  for (int i = 0; i < size; ++i) wr[i] = i;
  CHECK_MPI(MPI_Group_translate_ranks(world_group, size, wr, group, back));
  for (int i = 0; i < size; ++i) CHECK(back[i] == model_rank_of(model, i));
}

static MPI_Group incl(const model_t *model) {
  MPI_Group g = MPI_GROUP_NULL;
  CHECK_MPI(MPI_Group_incl(world_group, model->n, model->m, &g));
  return g;
}

static void free_group(MPI_Group *g) {
  CHECK(*g != MPI_GROUP_NULL);
  if (*g != MPI_GROUP_EMPTY) { /* constructors may return MPI_GROUP_EMPTY itself for empty results */
    CHECK_MPI(MPI_Group_free(g));
    CHECK(*g == MPI_GROUP_NULL);
  }
  *g = MPI_GROUP_NULL;
}

/* ---- model operations ---------------------------------------------------------------------------------------- */
static void model_union(const model_t *a, const model_t *b, model_t *out) {
  *out = *a;
  for (int i = 0; i < b->n; ++i)
    if (model_rank_of(a, b->m[i]) == MPI_UNDEFINED) out->m[out->n++] = b->m[i];
}
static void model_intersection(const model_t *a, const model_t *b, model_t *out) {
  out->n = 0;
  for (int i = 0; i < a->n; ++i)
    if (model_rank_of(b, a->m[i]) != MPI_UNDEFINED) out->m[out->n++] = a->m[i];
}
static void model_difference(const model_t *a, const model_t *b, model_t *out) {
  out->n = 0;
  for (int i = 0; i < a->n; ++i)
    if (model_rank_of(b, a->m[i]) == MPI_UNDEFINED) out->m[out->n++] = a->m[i];
}
/* Group_compare by the definition: IDENT same members same order, SIMILAR same members, else UNEQUAL. */
static int model_compare(const model_t *a, const model_t *b) {
  if (a->n != b->n) return MPI_UNEQUAL;
  int same_order = 1;
  for (int i = 0; i < a->n; ++i) {
    if (model_rank_of(b, a->m[i]) == MPI_UNDEFINED) return MPI_UNEQUAL;
    if (a->m[i] != b->m[i]) same_order = 0;
  }
  return same_order ? MPI_IDENT : MPI_SIMILAR;
}
/* Members of `base` at the given positions (incl) or all others in order (excl). */
static void model_incl(const model_t *base, int n, const int *pos, model_t *out) {
  out->n = n;
  for (int i = 0; i < n; ++i) out->m[i] = base->m[pos[i]];
}
static void model_excl(const model_t *base, int n, const int *pos, model_t *out) {
  out->n = 0;
  for (int i = 0; i < base->n; ++i)
    if (test_index_of(pos, n, i) == MPI_UNDEFINED) out->m[out->n++] = base->m[i];
}
/* Expands range triplets into positions (the definition of 7.3.2). Returns the count. */
static int expand_ranges(int n, int ranges[][3], int *pos) {
  int k = 0;
  for (int i = 0; i < n; ++i) {
    int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    for (int x = first; stride > 0 ? x <= last : x >= last; x += stride) pos[k++] = x;
  }
  return k;
}

/* A random subset of world ranks in random order. */
static void random_model(test_rng *rng, model_t *out, int allow_empty) {
  int perm[64];
  for (int i = 0; i < size; ++i) perm[i] = i;
  for (int i = size - 1; i > 0; --i) {
    int j = (int)test_rng_below(rng, (uint64_t)i + 1), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  int n = (int)test_rng_below(rng, (uint64_t)size + 1);
  if (!allow_empty && n == 0) n = 1;
  out->n = n;
  memcpy(out->m, perm, sizeof(int) * (size_t)n);
}

/* Disjoint random range triplets over [0, n): walks positions in order (or reverse), cutting runs with strides. */
static int random_ranges(test_rng *rng, int n, int ranges[][3]) {
  int k = 0;
  if (n == 0) return 0;
  int reverse = (int)test_rng_below(rng, 2);
  int x = (int)test_rng_below(rng, (uint64_t)n); /* start position; positions visited move away from it */
  int limit = reverse ? 0 : n - 1;
  while (k < 8) {
    int stride = 1 + (int)test_rng_below(rng, 3);
    int room = reverse ? x - limit : limit - x;
    int steps = (int)test_rng_below(rng, (uint64_t)(room / stride) + 1);
    int final = reverse ? x - steps * stride : x + steps * stride; /* the range's last member */
    /* "last" may lie past the final member (not a multiple of the stride away from first), within the group */
    int extra = (int)test_rng_below(rng, (uint64_t)stride);
    int last = reverse ? final - extra : final + extra;
    if (last < 0 || last > n - 1) last = final;
    ranges[k][0] = x;
    ranges[k][1] = last;
    ranges[k][2] = reverse ? -stride : stride;
    ++k;
    int next = reverse ? final - stride - (int)test_rng_below(rng, 2) : final + stride + (int)test_rng_below(rng, 2);
    if (reverse ? next < limit : next > limit) break;
    x = next;
  }
  return k;
}

static void random_trials(int trials) {
  test_rng rng = test_rng_make(0x6709u + 7919u * (uint64_t)rank);
  for (int t = 0; t < trials; ++t) {
    model_t ma, mb, mr;
    random_model(&rng, &ma, 1);
    random_model(&rng, &mb, 1);
    MPI_Group a = incl(&ma), b = incl(&mb), r;
    check_group(a, &ma);
    check_group(b, &mb);

    int result = -1;
    CHECK_MPI(MPI_Group_compare(a, b, &result));
    CHECK(result == model_compare(&ma, &mb));
    CHECK_MPI(MPI_Group_compare(a, a, &result));
    CHECK(result == MPI_IDENT);

    CHECK_MPI(MPI_Group_union(a, b, &r));
    model_union(&ma, &mb, &mr);
    check_group(r, &mr);
    free_group(&r);
    CHECK_MPI(MPI_Group_intersection(a, b, &r));
    model_intersection(&ma, &mb, &mr);
    check_group(r, &mr);
    free_group(&r);
    CHECK_MPI(MPI_Group_difference(a, b, &r));
    model_difference(&ma, &mb, &mr);
    check_group(r, &mr);
    free_group(&r);

    /* translate a's ranks (plus MPI_PROC_NULL) into b */
    int in[65], out[65];
    for (int i = 0; i < ma.n; ++i) in[i] = i;
    in[ma.n] = MPI_PROC_NULL;
    CHECK_MPI(MPI_Group_translate_ranks(a, ma.n + 1, in, b, out));
    for (int i = 0; i < ma.n; ++i) CHECK(out[i] == model_rank_of(&mb, ma.m[i]));
    /* MPI-4.0 7.3.1: MPI_PROC_NULL always translates to MPI_PROC_NULL. (MPICH 4.0.2 gives MPI_UNDEFINED when
     * group2 is empty: a deviation, tolerated only when not built against Strata.) */
#ifndef STRATA
    if (mb.n > 0)
#endif
      CHECK(out[ma.n] == MPI_PROC_NULL);

    /* incl / excl of random distinct positions of a */
    if (ma.n > 0) {
      int pos[64], k = (int)test_rng_below(&rng, (uint64_t)ma.n + 1);
      int perm[64];
      for (int i = 0; i < ma.n; ++i) perm[i] = i;
      for (int i = ma.n - 1; i > 0; --i) {
        int j = (int)test_rng_below(&rng, (uint64_t)i + 1), x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
      }
      memcpy(pos, perm, sizeof(int) * (size_t)k);
      CHECK_MPI(MPI_Group_incl(a, k, pos, &r));
      model_incl(&ma, k, pos, &mr);
      check_group(r, &mr);
      free_group(&r);
      CHECK_MPI(MPI_Group_excl(a, k, pos, &r));
      model_excl(&ma, k, pos, &mr);
      check_group(r, &mr);
      free_group(&r);

      /* range_incl / range_excl */
      int ranges[8][3], rpos[256];
      int nr = random_ranges(&rng, ma.n, ranges);
      int np = expand_ranges(nr, ranges, rpos);
      CHECK_MPI(MPI_Group_range_incl(a, nr, ranges, &r));
      model_incl(&ma, np, rpos, &mr);
      check_group(r, &mr);
      free_group(&r);
      CHECK_MPI(MPI_Group_range_excl(a, nr, ranges, &r));
      model_excl(&ma, np, rpos, &mr);
      check_group(r, &mr);
      free_group(&r);
    }
    free_group(&a);
    free_group(&b);
  }
}

static void fixed_cases(void) {
  model_t all, rev, none, evens, odds, mr;
  all.n = rev.n = size;
  none.n = evens.n = odds.n = 0;
  for (int r = 0; r < size; ++r) {
    all.m[r] = r;
    rev.m[r] = size - 1 - r;
    if (r % 2 == 0) evens.m[evens.n++] = r;
    else odds.m[odds.n++] = r;
  }
  check_group(world_group, &all);

  /* MPI_GROUP_EMPTY */
  int s = -1, r = -2;
  CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &s));
  CHECK_MPI(MPI_Group_rank(MPI_GROUP_EMPTY, &r));
  CHECK(s == 0 && r == MPI_UNDEFINED);
  check_group(MPI_GROUP_EMPTY, &none);

  /* MPI_COMM_SELF's group: just me. */
  MPI_Group self;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &self));
  model_t me = {1, {rank}};
  check_group(self, &me);

  /* incl with n = 0, excl of everybody, intersection of disjoint groups: empty, IDENT to MPI_GROUP_EMPTY. */
  MPI_Group g;
  CHECK_MPI(MPI_Group_incl(world_group, 0, all.m, &g));
  check_group(g, &none);
  free_group(&g);
  CHECK_MPI(MPI_Group_excl(world_group, size, all.m, &g));
  check_group(g, &none);
  free_group(&g);
  /* excl with n = 0: the same group */
  CHECK_MPI(MPI_Group_excl(world_group, 0, all.m, &g));
  check_group(g, &all);
  int result = -1;
  CHECK_MPI(MPI_Group_compare(g, world_group, &result));
  CHECK(result == MPI_IDENT);
  free_group(&g);

  MPI_Group ge = incl(&evens), go = incl(&odds), grev = incl(&rev);
  check_group(ge, &evens);
  check_group(go, &odds);
  check_group(grev, &rev);
  CHECK_MPI(MPI_Group_compare(grev, world_group, &result));
  CHECK(result == (size > 1 ? MPI_SIMILAR : MPI_IDENT));
  CHECK_MPI(MPI_Group_intersection(ge, go, &g));
  check_group(g, &none);
  free_group(&g);
  /* union of evens and odds: evens first, then odds */
  CHECK_MPI(MPI_Group_union(ge, go, &g));
  model_union(&evens, &odds, &mr);
  check_group(g, &mr);
  CHECK_MPI(MPI_Group_compare(g, world_group, &result));
  CHECK(result == (size > 2 ? MPI_SIMILAR : MPI_IDENT));
  free_group(&g);
  /* union with the empty group, in both orders; union of a group with itself */
  CHECK_MPI(MPI_Group_union(grev, MPI_GROUP_EMPTY, &g));
  check_group(g, &rev);
  free_group(&g);
  CHECK_MPI(MPI_Group_union(MPI_GROUP_EMPTY, grev, &g));
  check_group(g, &rev);
  free_group(&g);
  CHECK_MPI(MPI_Group_union(grev, grev, &g));
  check_group(g, &rev);
  free_group(&g);
  /* difference with itself is empty; with the empty group it is the same group */
  CHECK_MPI(MPI_Group_difference(grev, grev, &g));
  check_group(g, &none);
  free_group(&g);
  CHECK_MPI(MPI_Group_difference(grev, MPI_GROUP_EMPTY, &g));
  check_group(g, &rev);
  free_group(&g);
  CHECK_MPI(MPI_Group_difference(MPI_GROUP_EMPTY, grev, &g));
  check_group(g, &none);
  free_group(&g);
  /* intersection keeps group1's order */
  CHECK_MPI(MPI_Group_intersection(grev, ge, &g));
  model_intersection(&rev, &evens, &mr);
  check_group(g, &mr);
  free_group(&g);

  /* range_incl with a negative stride: (size-1, 0, -2) */
  int ranges[2][3] = {{size - 1, 0, -2}, {0, 0, 1}};
  int pos[64];
  int np = expand_ranges(1, ranges, pos);
  CHECK_MPI(MPI_Group_range_incl(world_group, 1, ranges, &g));
  model_incl(&all, np, pos, &mr);
  check_group(g, &mr);
  free_group(&g);
  CHECK_MPI(MPI_Group_range_excl(world_group, 1, ranges, &g));
  model_excl(&all, np, pos, &mr);
  check_group(g, &mr);
  free_group(&g);
  /* a single-element range (first == last) */
  ranges[0][0] = ranges[0][1] = size / 2;
  ranges[0][2] = 5;
  CHECK_MPI(MPI_Group_range_incl(world_group, 1, ranges, &g));
  model_t one = {1, {size / 2}};
  check_group(g, &one);
  free_group(&g);

  /* translate_ranks with n = 0 is fine, MPI_PROC_NULL maps to MPI_PROC_NULL */
  int in[2] = {MPI_PROC_NULL, 0}, out[2] = {-5, -5};
  CHECK_MPI(MPI_Group_translate_ranks(ge, 0, in, go, out));
  CHECK(out[0] == -5);
  CHECK_MPI(MPI_Group_translate_ranks(ge, 2, in, grev, out));
  CHECK(out[0] == MPI_PROC_NULL && out[1] == size - 1);
  /* translation into the empty group: everything undefined */
  CHECK_MPI(MPI_Group_translate_ranks(ge, 1, &in[1], MPI_GROUP_EMPTY, out));
  CHECK(out[0] == MPI_UNDEFINED);

  /* A group obtained twice from the same communicator: two handles, IDENT, freeing one leaves the other. */
  MPI_Group w2;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &w2));
  CHECK_MPI(MPI_Group_compare(w2, world_group, &result));
  CHECK(result == MPI_IDENT);
  CHECK_MPI(MPI_Group_free(&w2));
  check_group(world_group, &all);

  /* A group outlives the group it was built from. */
  MPI_Group base = incl(&rev), sub;
  int two[2] = {0, size - 1};
  CHECK_MPI(MPI_Group_incl(base, size > 1 ? 2 : 1, two, &sub));
  free_group(&base);
  model_t msub = {size > 1 ? 2 : 1, {size - 1, 0}};
  check_group(sub, &msub);
  free_group(&sub);

  free_group(&ge);
  free_group(&go);
  free_group(&grev);
  CHECK_MPI(MPI_Group_free(&self));
}

/* Groups of sub-communicators: the group of a split with reversed keys over the odd/even ranks, translated into
 * the world group, and its relation to a group built directly. */
static void sub_communicators(void) {
  MPI_Comm c;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &c));
  model_t m = {0, {0}};
  for (int r = size - 1; r >= 0; --r)
    if (r % 2 == rank % 2) m.m[m.n++] = r;
  MPI_Group g, direct = incl(&m);
  CHECK_MPI(MPI_Comm_group(c, &g));
  check_group(g, &m);
  int result = -1;
  CHECK_MPI(MPI_Group_compare(g, direct, &result));
  CHECK(result == MPI_IDENT);
  /* the communicator may be freed while its group lives on */
  CHECK_MPI(MPI_Comm_free(&c));
  check_group(g, &m);
  CHECK_MPI(MPI_Group_free(&g));
  free_group(&direct);
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(size <= 64);
  int trials = argc > 1 ? atoi(argv[1]) : 400;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));

  fixed_cases();
  random_trials(trials);
  sub_communicators();

  CHECK_MPI(MPI_Group_free(&world_group));
  CHECK(world_group == MPI_GROUP_NULL);
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
