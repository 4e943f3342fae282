/* MPI_Comm_create and MPI_Comm_create_group (MPI-4.0 7.4.2).
 *
 * Comm_create is collective over the parent: processes outside the group (and everybody, for the empty group) get
 * MPI_COMM_NULL; the new ranks follow the group's order (a reversed group gives reversed ranks). Since MPI-2.2 the
 * processes may pass different, disjoint groups, each getting its own communicator. Comm_create_group is collective
 * over the group's members (anyone else's call, or one with MPI_GROUP_EMPTY, is local and gives MPI_COMM_NULL);
 * several calls on overlapping groups, made in the same order everywhere, and calls on
 * disjoint groups at the same time (same tag) must all work. Every result is checked for size, rank, membership and
 * an all-pairs exchange. Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;
static MPI_Group world_group;

/* A group of world ranks (n may be 0). */
static MPI_Group make_group(const int *world, int n) {
  MPI_Group g = MPI_GROUP_NULL;
  CHECK_MPI(MPI_Group_incl(world_group, n, world, &g));
  int gs = -1;
  CHECK_MPI(MPI_Group_size(g, &gs));
  CHECK(gs == n);
  return g;
}

static void free_group(MPI_Group *g) {
  if (*g != MPI_GROUP_EMPTY) CHECK_MPI(MPI_Group_free(g)); /* a constructor may return MPI_GROUP_EMPTY itself */
  *g = MPI_GROUP_NULL;
}

/* Comm_create(parent, group of `world` ranks) on every rank of parent; checks the result. */
static void create_and_check(MPI_Comm parent, const int *world, int n, int comm_id) {
  MPI_Group g = make_group(world, n);
  MPI_Comm c = (MPI_Comm)-12345;
  CHECK_MPI(MPI_Comm_create(parent, g, &c));
  if (test_index_of(world, n, rank) == MPI_UNDEFINED) {
    CHECK(c == MPI_COMM_NULL);
  } else {
    test_check_comm(c, world, n, comm_id, 10);
    int result = -1;
    MPI_Group cg;
    CHECK_MPI(MPI_Comm_group(c, &cg));
    CHECK_MPI(MPI_Group_compare(cg, g, &result));
    CHECK(result == MPI_IDENT);
    CHECK_MPI(MPI_Group_free(&cg));
    CHECK_MPI(MPI_Comm_free(&c));
  }
  free_group(&g);
}

static void test_comm_create(void) {
  int *list = test_malloc(sizeof(int) * (size_t)size);
  int n = 0;

  /* Everybody, in order: congruent with the parent. */
  for (int r = 0; r < size; ++r) list[r] = r;
  create_and_check(MPI_COMM_WORLD, list, size, 1);

  /* Even ranks. */
  n = 0;
  for (int r = 0; r < size; r += 2) list[n++] = r;
  create_and_check(MPI_COMM_WORLD, list, n, 2);

  /* Reversed: every rank, new rank = size-1-rank; similar to WORLD when size > 1. */
  for (int r = 0; r < size; ++r) list[r] = size - 1 - r;
  {
    MPI_Group g = make_group(list, size);
    MPI_Comm c = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, g, &c));
    test_check_comm(c, list, size, 3, 11);
    int result = -1;
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, c, &result));
    CHECK(result == (size > 1 ? MPI_SIMILAR : MPI_CONGRUENT));

    /* Comm_create on a parent that is not WORLD: the last half of c's group, taken from c's ranks. */
    MPI_Group cg, half;
    CHECK_MPI(MPI_Comm_group(c, &cg));
    int h = size / 2, *ranks = test_malloc(sizeof(int) * (size_t)(size - h)), *world = test_malloc(sizeof(int) * (size_t)(size - h));
    for (int i = 0; i < size - h; ++i) {
      ranks[i] = h + i;           /* ranks in c */
      world[i] = size - 1 - (h + i); /* their world ranks */
    }
    CHECK_MPI(MPI_Group_incl(cg, size - h, ranks, &half));
    MPI_Comm hc = (MPI_Comm)-12345;
    CHECK_MPI(MPI_Comm_create(c, half, &hc));
    if (test_index_of(world, size - h, rank) == MPI_UNDEFINED) {
      CHECK(hc == MPI_COMM_NULL);
    } else {
      test_check_comm(hc, world, size - h, 4, 12);
      CHECK_MPI(MPI_Comm_free(&hc));
    }
    CHECK_MPI(MPI_Group_free(&half));
    CHECK_MPI(MPI_Group_free(&cg));
    free(ranks);
    free(world);
    CHECK_MPI(MPI_Comm_free(&c));
    free_group(&g);
  }

  /* The empty group: MPI_COMM_NULL everywhere, given as MPI_GROUP_EMPTY or as an empty constructed group. */
  MPI_Comm c = (MPI_Comm)-12345;
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c));
  CHECK(c == MPI_COMM_NULL);
  create_and_check(MPI_COMM_WORLD, list, 0, 5);

  /* A single rank (the last one). */
  list[0] = size - 1;
  create_and_check(MPI_COMM_WORLD, list, 1, 6);

  /* Disjoint groups (MPI-2.2): even ranks pass the even group, odd ranks the odd group. */
  {
    n = 0;
    for (int r = rank % 2; r < size; r += 2) list[n++] = r;
    MPI_Group g = make_group(list, n);
    MPI_Comm dc = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, g, &dc));
    test_check_comm(dc, list, n, 7 + rank % 2, 13);
    CHECK_MPI(MPI_Comm_free(&dc));
    free_group(&g);
  }

  /* Disjoint groups that leave some processes out: blocks of three; the middle rank of each block passes the
   * empty group and gets MPI_COMM_NULL. */
  {
    int block = rank / 3, pos = rank % 3;
    n = 0;
    if (pos != 1)
      for (int r = 3 * block; r < 3 * block + 3 && r < size; ++r)
        if (r % 3 != 1) list[n++] = r;
    MPI_Group g = make_group(list, n);
    MPI_Comm bc = (MPI_Comm)-12345;
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, g, &bc));
    if (pos == 1) {
      CHECK(bc == MPI_COMM_NULL);
    } else {
      test_check_comm(bc, list, n, 20 + block, 14);
      CHECK_MPI(MPI_Comm_free(&bc));
    }
    free_group(&g);
  }
  free(list);
}

/* Comm_create_group: the calls are made, in this fixed order, by the members of each group only. */
static void test_comm_create_group(void) {
  enum { NGROUPS = 6 };
  int *lists[NGROUPS], counts[NGROUPS], tags[NGROUPS];
  for (int k = 0; k < NGROUPS; ++k) lists[k] = test_malloc(sizeof(int) * (size_t)size);
  /* 0: even ranks; 1: the first half (rounded up); 2: all ranks reversed; 3: odd ranks, reversed;
   * 4: all ranks in order; 5: the last rank and rank 0 (one rank when size is 1). */
  counts[0] = counts[1] = counts[3] = 0;
  for (int r = 0; r < size; r += 2) lists[0][counts[0]++] = r;
  for (int r = 0; r < (size + 1) / 2; ++r) lists[1][counts[1]++] = r;
  for (int r = 0; r < size; ++r) lists[2][r] = size - 1 - r;
  counts[2] = size;
  for (int r = size - 1; r >= 0; --r)
    if (r % 2) lists[3][counts[3]++] = r;
  for (int r = 0; r < size; ++r) lists[4][r] = r;
  counts[4] = size;
  lists[5][0] = size - 1;
  lists[5][1] = 0;
  counts[5] = size > 1 ? 2 : 1;
  for (int k = 0; k < NGROUPS; ++k) tags[k] = 40 + k;

  MPI_Comm made[NGROUPS];
  for (int k = 0; k < NGROUPS; ++k) {
    made[k] = MPI_COMM_WORLD; /* must be overwritten */
    MPI_Group g = make_group(lists[k], counts[k]);
    /* A non-member may call too: a local call that gives MPI_COMM_NULL (MPI-4.0 7.4.2), as does MPI_GROUP_EMPTY. */
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, tags[k], &made[k]));
    CHECK((made[k] != MPI_COMM_NULL) == (test_index_of(lists[k], counts[k], rank) != MPI_UNDEFINED));
    free_group(&g);
  }
  MPI_Comm none = MPI_COMM_WORLD;
  CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_EMPTY, 99, &none));
  CHECK(none == MPI_COMM_NULL);
  /* All alive at once: check them (the same exchange tag on all, distinct comm ids). */
  for (int k = 0; k < NGROUPS; ++k)
    if (made[k] != MPI_COMM_NULL) test_check_comm(made[k], lists[k], counts[k], 100 + k, 15);

  /* Disjoint groups created at the same time with the same tag: even and odd ranks. */
  {
    int n = 0;
    for (int r = rank % 2; r < size; r += 2) lists[0][n++] = r;
    MPI_Group g = make_group(lists[0], n);
    MPI_Comm c = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, 7, &c));
    test_check_comm(c, lists[0], n, 200 + rank % 2, 16);
    /* ... and create_group on that communicator as parent: its reversed group. */
    MPI_Group cg, rg;
    CHECK_MPI(MPI_Comm_group(c, &cg));
    int *ranks = test_malloc(sizeof(int) * (size_t)n), *world = test_malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; ++i) {
      ranks[i] = n - 1 - i;
      world[i] = lists[0][n - 1 - i];
    }
    CHECK_MPI(MPI_Group_incl(cg, n, ranks, &rg));
    MPI_Comm rc = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_create_group(c, rg, 0, &rc));
    test_check_comm(rc, world, n, 300 + rank % 2, 17);
    CHECK_MPI(MPI_Comm_free(&rc));
    CHECK_MPI(MPI_Group_free(&rg));
    CHECK_MPI(MPI_Group_free(&cg));
    CHECK_MPI(MPI_Comm_free(&c));
    free_group(&g);
    free(ranks);
    free(world);
  }

  /* Every rank alone: create_group with the group {me} (also what MPI_COMM_SELF's group is). */
  {
    MPI_Group sg;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &sg));
    MPI_Comm c = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, sg, 1, &c));
    int me[1] = {rank};
    test_check_comm(c, me, 1, 400, 18);
    int result = -1;
    CHECK_MPI(MPI_Comm_compare(c, MPI_COMM_SELF, &result));
    CHECK(result == MPI_CONGRUENT);
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Group_free(&sg));
  }

  for (int k = 0; k < NGROUPS; ++k) {
    if (made[k] != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&made[k]));
    free(lists[k]);
  }
}

/* The parent's other processes may use it meanwhile (create_group is collective over the group only): each round,
 * every rank but 0 and j creates on a fresh parent with tag 0, while 0 and j enter a reduce on that parent, which the
 * members join once they are done. The reduce goes by messages (binomial), as between nodes. Until 2026-11-30 the
 * members' agreement used the user's tag on the parent's collective context, where the parent's first collective
 * takes tag 0 too: at 8 ranks, rank 5's reduce message answered for member index 5 at rank 4, and the members'
 * next collective never ended (MPICH's comm_group_rand, 8 ranks on 2 nodes). */
static void test_create_group_beside_parent_collectives(void) {
  if (size < 3) return;
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "strata_coll_reduce", "binomial"));
  int *members = test_malloc(sizeof(int) * (size_t)size);
  for (int j = 1; j < size; ++j) {
    MPI_Comm parent;
    CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &parent));
    int n = 0;
    for (int r = 1; r < size; ++r)
      if (r != j) members[n++] = r;
    if (rank != 0 && rank != j) {
      MPI_Group g = make_group(members, n);
      MPI_Comm c = MPI_COMM_NULL;
      CHECK_MPI(MPI_Comm_create_group(parent, g, 0, &c));
      test_check_comm(c, members, n, 500 + j, 19);
      CHECK_MPI(MPI_Barrier(c));
      CHECK_MPI(MPI_Comm_free(&c));
      free_group(&g);
    }
    long mine = rank, sum = -1;
    CHECK_MPI(MPI_Reduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, 0, parent));
    if (rank == 0) CHECK(sum == (long)size * (size - 1) / 2);
    CHECK_MPI(MPI_Comm_free(&parent));
  }
  free(members);
  CHECK_MPI(MPI_Info_free(&info));
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));

  test_comm_create();
  test_comm_create_group();
  test_create_group_beside_parent_collectives();

  CHECK_MPI(MPI_Group_free(&world_group));
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
