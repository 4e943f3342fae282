/* MPI_Comm_split (MPI-4.0 7.4.2): random colors (MPI_UNDEFINED among them) and keys with many ties, drawn from a
 * PRNG seeded by the round number, so every rank computes the whole expected partition by itself: the members of
 * each color ordered by (key, rank in the parent). Each new communicator is checked for size, rank, membership
 * (MPI_Group_translate_ranks against MPI_COMM_WORLD), its relation to the parent (MPI_Comm_compare), and used for
 * an all-pairs exchange; all the communicators of a round are used concurrently, so a context shared between two
 * of them would show. Parents alternate between MPI_COMM_WORLD, a reversed copy of it, and the previous round's
 * result (nested splits).
 *
 * Usage: comm_split [rounds] (default 24). Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;

/* The parent of a round: its size and the world rank of each of its ranks. */
typedef struct {
  MPI_Comm comm;
  int n;
  int *world; /* world[r] = world rank of parent rank r */
} parent_t;

static void parent_init(parent_t *p, MPI_Comm comm, int n, const int *world) {
  p->comm = comm;
  p->n = n;
  p->world = test_malloc(sizeof(int) * (size_t)(n ? n : 1));
  memcpy(p->world, world, sizeof(int) * (size_t)n);
}

/* Draws every parent rank's color and key for `round`. Colors: MPI_UNDEFINED with probability ~1/6, otherwise one
 * of `ncolors` values spread out (0, 3, 1000, ...) so that colors need not be small or dense; keys in [-2, 2]. */
static void draw(int round, int n, int *color, int *key) {
  static const int palette[] = {0, 3, 1000, 7, 123456, 1};
  test_rng rng = test_rng_make(0xc011u * 1000003u + (uint64_t)round);
  int ncolors = 1 + (int)test_rng_below(&rng, 4);
  for (int r = 0; r < n; ++r) {
    color[r] = test_rng_below(&rng, 6) == 0 ? MPI_UNDEFINED : palette[test_rng_below(&rng, (uint64_t)ncolors)];
    key[r] = (int)test_rng_below(&rng, 5) - 2;
  }
  if (round % 5 == 0) /* now and then: everybody in one color with one key (the parent's order) */
    for (int r = 0; r < n; ++r) {
      color[r] = 5;
      key[r] = 0;
    }
}

/* Expected members (parent ranks) of the communicator of parent rank `me`, ordered by (key, parent rank). */
static int expected_members(int n, const int *color, const int *key, int me, int *members) {
  int m = 0;
  if (color[me] == MPI_UNDEFINED) return 0;
  for (int r = 0; r < n; ++r)
    if (color[r] == color[me]) members[m++] = r;
  /* insertion sort: stable, so ties keep the parent order */
  for (int i = 1; i < m; ++i) {
    int v = members[i], j = i - 1;
    while (j >= 0 && key[members[j]] > key[v]) {
      members[j + 1] = members[j];
      --j;
    }
    members[j + 1] = v;
  }
  return m;
}

/* One round: split `parent`, check the result; returns the new communicator (or MPI_COMM_NULL) and fills `next` with
 * its description when the caller wants to split it again. */
static MPI_Comm split_round(int round, const parent_t *parent, parent_t *next) {
  int n = parent->n, me = -1;
  CHECK_MPI(MPI_Comm_rank(parent->comm, &me));
  CHECK(parent->world[me] == rank);
  int *color = test_malloc(sizeof(int) * (size_t)n), *key = test_malloc(sizeof(int) * (size_t)n);
  int *members = test_malloc(sizeof(int) * (size_t)n), *world = test_malloc(sizeof(int) * (size_t)n);
  draw(round, n, color, key);

  MPI_Comm comm = (MPI_Comm)-12345;
  CHECK_MPI(MPI_Comm_split(parent->comm, color[me], key[me], &comm));
  int m = expected_members(n, color, key, me, members);
  if (m == 0) {
    CHECK(comm == MPI_COMM_NULL);
  } else {
    for (int i = 0; i < m; ++i) world[i] = parent->world[members[i]];
    /* comm_id: unique among the communicators alive together (the color and the round's place in its triple) */
    test_check_comm(comm, world, m, color[me] * 3 + round % 3, 100 + round % 100);
    int result = -1, want;
    CHECK_MPI(MPI_Comm_compare(parent->comm, comm, &result));
    if (m != n) {
      want = MPI_UNEQUAL;
    } else {
      want = MPI_CONGRUENT;
      for (int i = 0; i < m; ++i)
        if (members[i] != i) want = MPI_SIMILAR;
    }
    if (result != want)
      fprintf(stderr, "rank %d round %d: compare(parent, new) = %d, expected %d\n", rank, round, result, want);
    CHECK(result == want);
    int inter = -1;
    CHECK_MPI(MPI_Comm_test_inter(comm, &inter));
    CHECK(inter == 0);
  }
  if (next) parent_init(next, comm, m, world);
  free(color);
  free(key);
  free(members);
  free(world);
  return comm;
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  int rounds = argc > 1 ? atoi(argv[1]) : 24;

  int *ids = test_malloc(sizeof(int) * (size_t)size), *rev_ids = test_malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) {
    ids[r] = r;
    rev_ids[r] = size - 1 - r;
  }
  parent_t world, reversed;
  parent_init(&world, MPI_COMM_WORLD, size, ids);
  MPI_Comm rev = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &rev)); /* negative keys are fine */
  test_check_comm(rev, rev_ids, size, 1, 1);
  parent_init(&reversed, rev, size, rev_ids);

  for (int round = 0; round < rounds; ++round) {
    /* a split of WORLD, then a split of the result (nested), then a split of the reversed communicator */
    parent_t sub, csub;
    MPI_Comm a = split_round(3 * round, &world, &sub);
    if (a != MPI_COMM_NULL) {
      MPI_Comm b = split_round(3 * round + 1, &sub, NULL);
      if (b != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&b));
    }
    MPI_Comm c = split_round(3 * round + 2, &reversed, &csub);
    /* a and c are alive together: exchanges on one right after the other, same tag, so that a fast rank's messages
     * on c reach ranks still receiving (MPI_ANY_SOURCE) on a; shared contexts would mix them up. */
    if (a != MPI_COMM_NULL) test_comm_exchange(a, sub.world, 1, 99);
    if (c != MPI_COMM_NULL) test_comm_exchange(c, csub.world, 2, 99);
    free(sub.world);
    free(csub.world);
    if (a != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&a));
    if (c != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&c));
    CHECK(a == MPI_COMM_NULL && c == MPI_COMM_NULL);
  }

  /* Everybody MPI_UNDEFINED: MPI_COMM_NULL everywhere. */
  MPI_Comm none = (MPI_Comm)-12345;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, rank, &none));
  CHECK(none == MPI_COMM_NULL);

  /* Every rank its own color: communicators of one. */
  MPI_Comm single = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &single));
  int me[1] = {rank};
  test_check_comm(single, me, 1, 2, 2);
  int result = -1;
  CHECK_MPI(MPI_Comm_compare(single, MPI_COMM_SELF, &result));
  CHECK(result == MPI_CONGRUENT);
  CHECK_MPI(MPI_Comm_free(&single));

  /* Splitting MPI_COMM_SELF. */
  CHECK_MPI(MPI_Comm_split(MPI_COMM_SELF, 4, 4, &single));
  test_check_comm(single, me, 1, 3, 3);
  CHECK_MPI(MPI_Comm_free(&single));
  CHECK_MPI(MPI_Comm_split(MPI_COMM_SELF, MPI_UNDEFINED, 0, &single));
  CHECK(single == MPI_COMM_NULL);

  CHECK_MPI(MPI_Comm_free(&rev));
  free(world.world);
  free(reversed.world);
  free(ids);
  free(rev_ids);
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
