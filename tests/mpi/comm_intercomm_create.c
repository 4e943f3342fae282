/* Constructors on an intercommunicator (MPI-4.0 7.4.2): MPI_COMM_WORLD's even and odd ranks joined by
 * MPI_Intercomm_create, then
 *  - MPI_Comm_dup, MPI_Comm_dup_with_info and MPI_Comm_idup: congruent intercommunicators with their own contexts
 *    (a message on the dup never matches a receive on the original) and the attributes copied;
 *  - MPI_Comm_split: members of both groups that chose the same color are joined, ordered by key; a color only one
 *    group chose, and MPI_UNDEFINED, give MPI_COMM_NULL;
 *  - MPI_Comm_create: each group names a subset of itself (reordered); a process outside it gets MPI_COMM_NULL;
 *  - MPI_Intercomm_create_from_groups from the two halves' groups, with the error handler it is given.
 * Every result is checked against membership computed here from world ranks: sizes, ranks, both groups, and a
 * message from every member to every remote member carrying the sender's world rank. Needs at least 2 ranks. */
#include "test_util.h"

static int rank, size;

static int half_size(int parity) { return parity == 0 ? (size + 1) / 2 : size / 2; }

/* The world ranks of `c`'s group (or remote group) in rank order. */
static void world_ranks_of(MPI_Comm c, int remote, int *out, int n) {
  MPI_Group g, world;
  int *ids = test_malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; ++i) ids[i] = i;
  CHECK_MPI(remote ? MPI_Comm_remote_group(c, &g) : MPI_Comm_group(c, &g));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  CHECK_MPI(MPI_Group_translate_ranks(g, n, ids, world, out));
  CHECK_MPI(MPI_Group_free(&g));
  CHECK_MPI(MPI_Group_free(&world));
  free(ids);
}

/* `c` is an intercommunicator of the world ranks local[0..nl) and remote[0..nr), in rank order. */
static void check_inter(MPI_Comm c, const int *local, int nl, const int *remote, int nr, int tag) {
  int flag = -1, n = -1, r = -1, rn = -1;
  CHECK_MPI(MPI_Comm_test_inter(c, &flag));
  CHECK_MPI(MPI_Comm_size(c, &n));
  CHECK_MPI(MPI_Comm_rank(c, &r));
  CHECK_MPI(MPI_Comm_remote_size(c, &rn));
  CHECK(flag == 1 && n == nl && rn == nr && r >= 0 && r < nl && local[r] == rank);
  int *got = test_malloc(sizeof(int) * (size_t)(nl + nr));
  world_ranks_of(c, 0, got, nl);
  for (int i = 0; i < nl; ++i) CHECK(got[i] == local[i]);
  world_ranks_of(c, 1, got, nr);
  for (int i = 0; i < nr; ++i) CHECK(got[i] == remote[i]);
  MPI_Request *reqs = test_malloc(sizeof(MPI_Request) * (size_t)(2 * nr));
  for (int j = 0; j < nr; ++j) {
    CHECK_MPI(MPI_Irecv(&got[j], 1, MPI_INT, j, tag, c, &reqs[j]));
    CHECK_MPI(MPI_Isend(&rank, 1, MPI_INT, j, tag, c, &reqs[nr + j]));
  }
  CHECK_MPI(MPI_Waitall(2 * nr, reqs, MPI_STATUSES_IGNORE));
  for (int j = 0; j < nr; ++j) CHECK(got[j] == remote[j]);
  free(reqs);
  free(got);
}

/* The world ranks of half `parity` whose choice is `color`, in the order of their keys (ties by rank). */
static int members(int parity, int color, int (*color_of)(int), int (*key_of)(int), int *out) {
  int n = 0;
  for (int w = parity; w < size; w += 2)
    if (color != MPI_UNDEFINED && color_of(w) == color) {
      int at = n++;
      while (at > 0 && key_of(out[at - 1]) > key_of(w)) {
        out[at] = out[at - 1];
        --at;
      }
      out[at] = w;
    }
  return n;
}

/* The split: colors by local rank parity, reversed keys; the last even (if not the only one) alone picks 7, and odd
 * local rank 2 stays out. */
static int split_color(int w) {
  const int i = w / 2;
  if (w % 2 == 0 && i > 0 && i == half_size(0) - 1) return 7;
  if (w % 2 == 1 && i == 2) return MPI_UNDEFINED;
  return i % 2;
}
static int split_key(int w) { return -(w / 2); }
/* The create: each half keeps all but its local rank 1, in reverse order (the key is the place in the group). */
static int create_color(int w) { return w / 2 == 1 ? MPI_UNDEFINED : 0; }
static int create_key(int w) { return half_size(w % 2) - w / 2; }

static void check_built(MPI_Comm c, int (*color_of)(int), int (*key_of)(int), int tag) {
  int *local = test_malloc(sizeof(int) * (size_t)size), *remote = test_malloc(sizeof(int) * (size_t)size);
  const int nl = members(rank % 2, color_of(rank), color_of, key_of, local);
  const int nr = members(1 - rank % 2, color_of(rank), color_of, key_of, remote);
  if (nl == 0 || nr == 0) {
    CHECK(c == MPI_COMM_NULL);
  } else {
    CHECK(c != MPI_COMM_NULL);
    check_inter(c, local, nl, remote, nr, tag);
    CHECK_MPI(MPI_Comm_free(&c));
  }
  free(local);
  free(remote);
}

static int copies = 0;
static int count_copy(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag) {
  (void)c, (void)key, (void)extra;
  ++copies;
  *(void **)out = in;
  *flag = 1;
  return MPI_SUCCESS;
}

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);
  CHECK(size >= 2);
  const int parity = rank % 2;
  MPI_Comm local, inter;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, parity, rank, &local));
  CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - parity, 3, &inter));
  int *mine = test_malloc(sizeof(int) * (size_t)size), *theirs = test_malloc(sizeof(int) * (size_t)size);
  const int nl = half_size(parity), nr = half_size(1 - parity);
  for (int i = 0; i < nl; ++i) mine[i] = 2 * i + parity;
  for (int i = 0; i < nr; ++i) theirs[i] = 2 * i + 1 - parity;

  int keyval, value = 42, *attr = NULL, flag = 0, result = -1;
  CHECK_MPI(MPI_Comm_create_keyval(count_copy, MPI_COMM_NULL_DELETE_FN, &keyval, NULL));
  CHECK_MPI(MPI_Comm_set_attr(inter, keyval, &value));
  MPI_Comm dup, dup_info, idup;
  MPI_Request req;
  CHECK_MPI(MPI_Comm_dup(inter, &dup));
  CHECK_MPI(MPI_Comm_dup_with_info(inter, MPI_INFO_NULL, &dup_info));
  CHECK_MPI(MPI_Comm_idup(inter, &idup, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK(copies == 3);
  MPI_Comm dups[3] = {dup, dup_info, idup};
  for (int d = 0; d < 3; ++d) {
    CHECK_MPI(MPI_Comm_compare(inter, dups[d], &result));
    CHECK(result == MPI_CONGRUENT);
    CHECK_MPI(MPI_Comm_get_attr(dups[d], keyval, &attr, &flag));
    CHECK(flag == 1 && attr == &value);
    check_inter(dups[d], mine, nl, theirs, nr, 10 + d);
  }
  /* Contexts apart: the leaders send on the original first, then on the dup; the dup's receive gets the dup's. */
  if (rank < 2) {
    int a = 100 + rank, b = 200 + rank, got = -1;
    MPI_Request sends[2];
    CHECK_MPI(MPI_Isend(&a, 1, MPI_INT, 0, 9, inter, &sends[0]));
    CHECK_MPI(MPI_Isend(&b, 1, MPI_INT, 0, 9, dup, &sends[1]));
    CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 0, 9, dup, MPI_STATUS_IGNORE));
    CHECK(got == 201 - rank);
    CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 0, 9, inter, MPI_STATUS_IGNORE));
    CHECK(got == 101 - rank);
    CHECK_MPI(MPI_Waitall(2, sends, MPI_STATUSES_IGNORE));
  }
  for (int d = 0; d < 3; ++d) CHECK_MPI(MPI_Comm_free(&dups[d]));

  MPI_Comm part;
  CHECK_MPI(MPI_Comm_split(inter, split_color(rank), split_key(rank), &part));
  check_built(part, split_color, split_key, 20);

  /* The group: this half but its local rank 1, last local rank first. */
  MPI_Group group, kept;
  int *ranks = test_malloc(sizeof(int) * (size_t)size), n = 0;
  for (int i = nl - 1; i >= 0; --i)
    if (i != 1) ranks[n++] = i;
  CHECK_MPI(MPI_Comm_group(inter, &group));
  CHECK_MPI(MPI_Group_incl(group, n, ranks, &kept));
  CHECK_MPI(MPI_Comm_create(inter, kept, &part));
  check_built(part, create_color, create_key, 30);
  CHECK_MPI(MPI_Comm_create(inter, MPI_GROUP_EMPTY, &part));
  CHECK(part == MPI_COMM_NULL);

  /* MPI_Intercomm_create_from_groups: the same two halves from the world's group, the error handler given. */
  MPI_Group world_group, halves[2];
  int *half = test_malloc(sizeof(int) * (size_t)size);
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
  for (int p = 0; p < 2; ++p) {
    for (int i = 0; i < half_size(p); ++i) half[i] = 2 * i + p;
    CHECK_MPI(MPI_Group_incl(world_group, half_size(p), half, &halves[p]));
  }
  MPI_Comm from_groups;
  CHECK_MPI(MPI_Intercomm_create_from_groups(halves[parity], 0, halves[1 - parity], 0, "strata halves", MPI_INFO_NULL,
                                             MPI_ERRORS_RETURN, &from_groups));
  check_inter(from_groups, mine, nl, theirs, nr, 50);
  MPI_Errhandler handler;
  CHECK_MPI(MPI_Comm_get_errhandler(from_groups, &handler));
  CHECK(handler == MPI_ERRORS_RETURN);
  CHECK_MPI(MPI_Errhandler_free(&handler));
  CHECK_MPI(MPI_Comm_free(&from_groups));
#ifdef STRATA /* MPICH 4.0.2 does not check the leaders */
  /* Errors in the arguments (no communicator yet) go to MPI_COMM_SELF's handler: a leader outside the group. */
  TEST_EXPECT_ERROR(MPI_Intercomm_create_from_groups(halves[parity], nl, halves[1 - parity], 0, "strata halves",
                                                     MPI_INFO_NULL, MPI_ERRORS_RETURN, &from_groups),
                    MPI_ERR_RANK, "MPI_Intercomm_create_from_groups");
  TEST_EXPECT_ERROR(MPI_Intercomm_create_from_groups(halves[parity], 0, halves[parity], 0, "strata halves",
                                                     MPI_INFO_NULL, MPI_ERRORS_RETURN, &from_groups),
                    MPI_ERR_GROUP, "MPI_Intercomm_create_from_groups");
  TEST_EXPECT_ERROR(MPI_Intercomm_create_from_groups(halves[parity], 0, halves[1 - parity], 0, NULL, MPI_INFO_NULL,
                                                     MPI_ERRORS_RETURN, &from_groups),
                    MPI_ERR_ARG, "MPI_Intercomm_create_from_groups");
#endif
  CHECK_MPI(MPI_Group_free(&halves[0]));
  CHECK_MPI(MPI_Group_free(&halves[1]));
  CHECK_MPI(MPI_Group_free(&world_group));
  free(half);

  /* Bad input on an intercommunicator: a process of the remote group in the group, a negative color. */
  MPI_Group remote, both;
  CHECK_MPI(MPI_Comm_remote_group(inter, &remote));
  CHECK_MPI(MPI_Group_union(group, remote, &both));
  TEST_EXPECT_ERROR(MPI_Comm_create(inter, both, &part), MPI_ERR_GROUP, "MPI_Comm_create");
#ifdef STRATA /* MPICH 4.0.2 takes a negative color on an intercommunicator */
  TEST_EXPECT_ERROR(MPI_Comm_split(inter, -2, 0, &part), MPI_ERR_ARG, "MPI_Comm_split");
#endif
  TEST_EXPECT_ERROR(MPI_Comm_dup(inter, NULL), MPI_ERR_ARG, "MPI_Comm_dup");
  check_inter(inter, mine, nl, theirs, nr, 40);

  CHECK_MPI(MPI_Group_free(&group));
  CHECK_MPI(MPI_Group_free(&kept));
  CHECK_MPI(MPI_Group_free(&remote));
  CHECK_MPI(MPI_Group_free(&both));
  CHECK_MPI(MPI_Comm_free_keyval(&keyval));
  free(ranks);
  free(mine);
  free(theirs);
  CHECK_MPI(MPI_Comm_free(&inter));
  CHECK_MPI(MPI_Comm_free(&local));
  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
