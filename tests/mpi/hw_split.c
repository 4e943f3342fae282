/* Hardware splits checked against the communicators written by hand from each scenario's machine and bindings
 * (tests/mpi/hw_split_tests.cmake; the papers' worked examples among them).
 *
 *   hw_split MODE [--info KEY=VALUE]... [--reverse-key] STEP...
 *
 * MODE
 *   guided     each STEP is one MPI_Comm_split_type(MPI_COMM_WORLD, HW_GUIDED) with STEP's V= value;
 *   resource   the same with MPI_COMM_TYPE_RESOURCE_GUIDED;
 *   unguided   STEP i is the i-th of repeated HW_UNGUIDED splits from MPI_COMM_WORLD (key: rank in the parent);
 *   hsplit     the same with MPIX_Comm_hsplit_with_roots, also checking the roots communicators (R=);
 *   hierarchy  one MPIX_Comm_hierarchy_create (with the --info keys); STEP i is depth i, C= its conduits;
 *   minlevel   each STEP: MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, S=) must be L= on the listed ranks, "Unknown"
 *              on the others;
 *   resinfo    each STEP: on the ranks of G= (all if no G=), MPI_Get_hw_resource_info has exactly the keys of
 *              T= (value "true") and F= ("false").
 * STEP: space-separated items
 *   G=groups   the communicators made, as world ranks: groups separated by '/', each a comma list of ranks and
 *              ranges "a-b"; a rank in no group must get MPI_COMM_NULL ("G=" alone: NULL everywhere);
 *   R=, C=     the same for roots / conduit communicators;
 *   L=name     the level every non-null communicator of the step reports (mpi_hw_resource_type);
 *   V=value    guided: the mpi_hw_resource_type value ("V=-": MPI_INFO_NULL; no V=: an info without the key);
 *   P=name     resource: an mpi_pset_name value;
 *   S=ranks    minlevel: a comma list of world ranks;  T=, F=  resinfo: comma lists of level names.
 * Ranks inside a communicator follow the parent's order (world order here), or its reverse with --reverse-key.
 *
 * Besides the groups, every non-null result is checked for what the standard and the MPIX proposals promise:
 * mpi_hw_resource_type in MPI_Comm_get_info (and, for HW_UNGUIDED, written into the caller's info), the hlevel
 * index and count (the parts are numbered in hardware order, which is world order in every scenario here), strict
 * subset of the parent (MPI_UNEQUAL) for unguided splits, the same group again from HW_GUIDED with the reported
 * level, and MPI_CONGRUENT with MPI_COMM_SELF for singletons. After the last step every process must have reached
 * MPI_COMM_NULL in the walking modes. */
#include "test_util.h"

enum { MAX_RANKS = 256, MAX_STEPS = 32 };

typedef struct {
  int group_of[MAX_RANKS]; /* world rank -> group id, -1 for none */
  int ngroups;
} partition;

typedef struct {
  partition g, r;
  char level[MPI_MAX_INFO_VAL + 1], value[MPI_MAX_INFO_VAL + 1], pset[MPI_MAX_INFO_VAL + 1];
  char ranks[MPI_MAX_INFO_VAL + 1], true_levels[MPI_MAX_INFO_VAL + 1], false_levels[MPI_MAX_INFO_VAL + 1];
  int has_value, has_pset, has_g;
} step_spec;

static int world_rank, world_size, reverse_key;

static void parse_partition(const char *text, partition *p) {
  for (int i = 0; i < MAX_RANKS; ++i) p->group_of[i] = -1;
  p->ngroups = 0;
  const char *s = text;
  while (*s && *s != ' ') {
    int group = p->ngroups++;
    while (*s && *s != ' ' && *s != '/') {
      char *end;
      long a = strtol(s, &end, 10), b = a;
      CHECK(end != s);
      if (*end == '-') {
        s = end + 1;
        b = strtol(s, &end, 10);
      }
      CHECK(a >= 0 && b < world_size && a <= b);
      for (long x = a; x <= b; ++x) {
        CHECK(p->group_of[x] == -1); /* groups of a step are disjoint */
        p->group_of[x] = group;
      }
      s = *end == ',' ? end + 1 : end;
    }
    if (*s == '/') ++s;
  }
}

static void copy_item(const char *s, char *out) {
  size_t n = strcspn(s, " ");
  CHECK(n <= MPI_MAX_INFO_VAL);
  memcpy(out, s, n);
  out[n] = '\0';
}

static void parse_step(const char *text, step_spec *st) {
  memset(st, 0, sizeof *st);
  parse_partition("", &st->g);
  parse_partition("", &st->r);
  for (const char *s = text; *s;) {
    if (*s == ' ') {
      ++s;
      continue;
    }
    CHECK(s[1] == '=');
    switch (s[0]) {
      case 'G': parse_partition(s + 2, &st->g), st->has_g = 1; break;
      case 'S': copy_item(s + 2, st->ranks); break;
      case 'T': copy_item(s + 2, st->true_levels); break;
      case 'F': copy_item(s + 2, st->false_levels); break;
      case 'R':
      case 'C': parse_partition(s + 2, &st->r); break;
      case 'L': copy_item(s + 2, st->level); break;
      case 'V': copy_item(s + 2, st->value), st->has_value = 1; break;
      case 'P': copy_item(s + 2, st->pset), st->has_pset = 1; break;
      default: CHECK(!"unknown item in a step");
    }
    s += strcspn(s, " ");
  }
}

/* The world ranks of comm, in its rank order. */
static int comm_world_ranks(MPI_Comm comm, int *out) {
  int n = 0;
  MPI_Group g, world;
  CHECK_MPI(MPI_Comm_size(comm, &n));
  CHECK_MPI(MPI_Comm_group(comm, &g));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  int ranks[MAX_RANKS];
  for (int i = 0; i < n; ++i) ranks[i] = i;
  CHECK_MPI(MPI_Group_translate_ranks(g, n, ranks, world, out));
  CHECK_MPI(MPI_Group_free(&g));
  CHECK_MPI(MPI_Group_free(&world));
  return n;
}

static int in_comm(const int *members, int n, int w) {
  for (int i = 0; i < n; ++i)
    if (members[i] == w) return 1;
  return 0;
}

/* comm must be exactly my expected group of p (ranks in parent order restricted to the group), or NULL. `parent`
 * limits the expectation to the parent's members. */
static void check_group(MPI_Comm comm, const partition *p, const int *parent, int nparent, const char *what) {
  int mine = p->group_of[world_rank];
  if (mine < 0) {
    if (comm != MPI_COMM_NULL) fprintf(stderr, "rank %d: %s should be MPI_COMM_NULL\n", world_rank, what);
    CHECK(comm == MPI_COMM_NULL);
    return;
  }
  if (comm == MPI_COMM_NULL) fprintf(stderr, "rank %d: %s is MPI_COMM_NULL, expected group %d\n", world_rank, what, mine);
  CHECK(comm != MPI_COMM_NULL);
  int expected[MAX_RANKS], n = 0, got[MAX_RANKS];
  for (int i = 0; i < nparent; ++i) {
    int w = parent[reverse_key ? nparent - 1 - i : i];
    if (p->group_of[w] == mine) expected[n++] = w;
  }
  int size = comm_world_ranks(comm, got);
  int same = size == n;
  for (int i = 0; same && i < n; ++i) same = got[i] == expected[i];
  if (!same) {
    fprintf(stderr, "rank %d: %s has %d members:", world_rank, what, size);
    for (int i = 0; i < size; ++i) fprintf(stderr, " %d", got[i]);
    fprintf(stderr, "; expected");
    for (int i = 0; i < n; ++i) fprintf(stderr, " %d", expected[i]);
    fprintf(stderr, "\n");
  }
  CHECK(same);
}

static void check_info_level(MPI_Info info, const char *level) {
  char value[MPI_MAX_INFO_VAL + 1];
  int flag = 0;
  CHECK_MPI(MPI_Info_get(info, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, value, &flag));
  if (level[0] == '\0') {
    CHECK(!flag);
    return;
  }
  if (!flag || strcmp(value, level) != 0)
    fprintf(stderr, "rank %d: mpi_hw_resource_type is %s, expected %s\n", world_rank, flag ? value : "(absent)", level);
  CHECK(flag && strcmp(value, level) == 0);
}

/* The hlevel count and index: the step's groups inside the parent, numbered in world order. */
static void check_hlevel(MPI_Comm comm, const partition *p, const int *parent, int nparent, const char *level) {
  int num = 0, index = -1, len = 0, seen[MAX_RANKS] = {0};
  char type[MPI_MAX_INFO_VAL + 1];
  CHECK_MPI(MPIX_Comm_get_hlevel_info(comm, &num, &index, type, &len));
  int expected_num = 0, expected_index = -1;
  for (int w = 0; w < world_size; ++w) { /* world order: group ids in order of their lowest member */
    int g = p->group_of[w];
    if (g < 0 || seen[g] || !in_comm(parent, nparent, w)) continue;
    seen[g] = 1;
    if (g == p->group_of[world_rank]) expected_index = expected_num;
    ++expected_num;
  }
  if (num != expected_num || index != expected_index)
    fprintf(stderr, "rank %d: hlevel %d of %d, expected %d of %d\n", world_rank, index, num, expected_index,
            expected_num);
  CHECK(num == expected_num && index == expected_index);
  CHECK(len == (int)strlen(type));
  if (level[0]) CHECK(strcmp(type, level) == 0);
}

static void check_result(MPI_Comm comm, MPI_Comm parent, const step_spec *st, int unguided) {
  int members[MAX_RANKS], n = comm_world_ranks(parent, members);
  check_group(comm, &st->g, members, n, "newcomm");
  if (comm == MPI_COMM_NULL) return;
  MPI_Info used;
  CHECK_MPI(MPI_Comm_get_info(comm, &used));
  if (st->level[0]) check_info_level(used, st->level);
  CHECK_MPI(MPI_Info_free(&used));
  check_hlevel(comm, &st->g, members, n, st->level);
  int result, size;
  CHECK_MPI(MPI_Comm_size(comm, &size));
  if (unguided) {
    CHECK_MPI(MPI_Comm_compare(comm, parent, &result));
    CHECK(result == MPI_UNEQUAL);
  }
  if (size == 1) {
    CHECK_MPI(MPI_Comm_compare(comm, MPI_COMM_SELF, &result));
    CHECK(result == MPI_CONGRUENT);
  }
}

/* HW_GUIDED with the level an unguided step reported gives the same groups on the same parent. */
static void check_guided_again(MPI_Comm parent, const step_spec *st) {
  if (!st->level[0]) return;
  MPI_Info info;
  MPI_Comm again;
  int members[MAX_RANKS], n = comm_world_ranks(parent, members), rank;
  CHECK_MPI(MPI_Comm_rank(parent, &rank));
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", st->level));
  CHECK_MPI(MPI_Comm_split_type(parent, MPI_COMM_TYPE_HW_GUIDED, rank, info, &again));
  check_group(again, &st->g, members, n, "HW_GUIDED with the reported level");
  if (again != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&again));
  CHECK_MPI(MPI_Info_free(&info));
}

static void run_guided(int split_type, const step_spec *steps, int nsteps) {
  for (int s = 0; s < nsteps; ++s) {
    MPI_Info info = MPI_INFO_NULL;
    if (!(steps[s].has_value && strcmp(steps[s].value, "-") == 0)) {
      CHECK_MPI(MPI_Info_create(&info));
      if (steps[s].has_value) CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", steps[s].value));
      if (steps[s].has_pset) CHECK_MPI(MPI_Info_set(info, "mpi_pset_name", steps[s].pset));
    }
    MPI_Comm comm;
    int key = reverse_key ? world_size - world_rank : world_rank;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, split_type, key, info, &comm));
    check_result(comm, MPI_COMM_WORLD, &steps[s], 0);
    if (comm != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&comm));
    if (info != MPI_INFO_NULL) CHECK_MPI(MPI_Info_free(&info));
  }
}

static void run_walk(int with_roots, const step_spec *steps, int nsteps) {
  MPI_Comm comms[MAX_STEPS + 1], roots[MAX_STEPS];
  int depth = 0;
  comms[0] = MPI_COMM_WORLD;
  for (int s = 0; s < nsteps && comms[depth] != MPI_COMM_NULL; ++s) {
    MPI_Comm parent = comms[depth], made;
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", "left over from an earlier call"));
    if (with_roots) {
      CHECK_MPI(MPIX_Comm_hsplit_with_roots(parent, s % 2 ? MPI_INFO_NULL : info, &made, &roots[depth]));
      int members[MAX_RANKS], n = comm_world_ranks(parent, members);
      check_group(roots[depth], &steps[s].r, members, n, "rootscomm");
    } else {
      int rank;
      CHECK_MPI(MPI_Comm_rank(parent, &rank));
      CHECK_MPI(MPI_Comm_split_type(parent, MPI_COMM_TYPE_HW_UNGUIDED, reverse_key ? -rank : rank, info, &made));
    }
    check_result(made, parent, &steps[s], 1);
    if (!with_roots || s % 2 == 0) check_info_level(info, made == MPI_COMM_NULL ? "" : steps[s].level);
    if (!reverse_key) check_guided_again(parent, &steps[s]);
    CHECK_MPI(MPI_Info_free(&info));
    comms[++depth] = made;
  }
  if (comms[depth] != MPI_COMM_NULL) fprintf(stderr, "rank %d: still not MPI_COMM_NULL after the last step\n", world_rank);
  CHECK(comms[depth] == MPI_COMM_NULL);
  for (int d = 1; d < depth; ++d) CHECK_MPI(MPI_Comm_free(&comms[d]));
  for (int d = 0; with_roots && d < depth; ++d)
    if (roots[d] != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&roots[d]));
}

static void run_hierarchy(MPI_Info info, const step_spec *steps, int nsteps) {
  MPI_Comm levels[MAX_STEPS], conduits[MAX_STEPS];
  int nlevels = -1;
  CHECK_MPI(MPIX_Comm_hierarchy_create(MPI_COMM_WORLD, info, MAX_STEPS, &nlevels, levels, conduits));
  int expected_levels = 0;
  while (expected_levels < nsteps && steps[expected_levels].g.group_of[world_rank] >= 0) ++expected_levels;
  CHECK(nlevels == expected_levels);
  MPI_Comm parent = MPI_COMM_WORLD;
  for (int d = 0; d < nsteps && parent != MPI_COMM_NULL; ++d) {
    check_result(levels[d], parent, &steps[d], 0);
    int members[MAX_RANKS], n = comm_world_ranks(parent, members);
    check_group(conduits[d], &steps[d].r, members, n, "conduitcomm");
    parent = levels[d];
  }
  for (int d = nlevels; d < MAX_STEPS; ++d) CHECK(levels[d] == MPI_COMM_NULL && conduits[d] == MPI_COMM_NULL);
  for (int d = 0; d < nlevels; ++d) {
    CHECK_MPI(MPI_Comm_free(&levels[d]));
    if (conduits[d] != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&conduits[d]));
  }
}

static void run_minlevel(const step_spec *steps, int nsteps) {
  for (int s = 0; s < nsteps; ++s) {
    int ranks[MAX_RANKS], n = 0, listed = 0;
    for (const char *p = steps[s].ranks; *p;) {
      char *end;
      ranks[n] = (int)strtol(p, &end, 10);
      CHECK(end != p && n < MAX_RANKS);
      listed |= ranks[n++] == world_rank;
      p = *end == ',' ? end + 1 : end;
    }
    char type[MPI_MAX_INFO_VAL + 1];
    int len = -1;
    CHECK_MPI(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, n, ranks, type, &len));
    const char *want = listed ? steps[s].level : "Unknown";
    if (strcmp(type, want) != 0) fprintf(stderr, "rank %d: min hlevel of S=%s is %s, expected %s\n", world_rank,
                                         steps[s].ranks, type, want);
    CHECK(strcmp(type, want) == 0 && len == (int)strlen(want));
  }
}

/* Every level of `list` is a key of `info` with `value`; returns how many. */
static int check_levels(MPI_Info info, const char *list, const char *value) {
  int count = 0;
  char level[MPI_MAX_INFO_VAL + 1], got[16];
  for (const char *p = list; *p;) {
    size_t n = strcspn(p, ",");
    memcpy(level, p, n);
    level[n] = '\0';
    int flag = 0;
    CHECK_MPI(MPI_Info_get(info, level, sizeof got - 1, got, &flag));
    if (!flag || strcmp(got, value) != 0)
      fprintf(stderr, "rank %d: %s is %s, expected %s\n", world_rank, level, flag ? got : "absent", value);
    CHECK(flag && strcmp(got, value) == 0);
    ++count;
    p += n + (p[n] == ',');
  }
  return count;
}

static void run_resinfo(const step_spec *steps, int nsteps) {
  for (int s = 0; s < nsteps; ++s) {
    if (steps[s].has_g && steps[s].g.group_of[world_rank] < 0) continue;
    MPI_Info info;
    int nkeys = -1;
    CHECK_MPI(MPI_Get_hw_resource_info(&info));
    CHECK_MPI(MPI_Info_get_nkeys(info, &nkeys));
    CHECK(nkeys == check_levels(info, steps[s].true_levels, "true") + check_levels(info, steps[s].false_levels, "false"));
    CHECK_MPI(MPI_Info_free(&info));
  }
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &world_rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &world_size));
  CHECK(argc >= 2 && world_size <= MAX_RANKS);
  const char *mode = argv[1];
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  static step_spec steps[MAX_STEPS];
  int nsteps = 0;
  for (int i = 2; i < argc; ++i) {
    if (strcmp(argv[i], "--reverse-key") == 0) {
      reverse_key = 1;
    } else if (strcmp(argv[i], "--info") == 0 && i + 1 < argc) {
      char key[MPI_MAX_INFO_KEY + 1];
      const char *eq = strchr(argv[++i], '=');
      CHECK(eq != NULL && (size_t)(eq - argv[i]) <= MPI_MAX_INFO_KEY);
      memcpy(key, argv[i], (size_t)(eq - argv[i]));
      key[eq - argv[i]] = '\0';
      CHECK_MPI(MPI_Info_set(info, key, eq + 1));
    } else {
      CHECK(nsteps < MAX_STEPS);
      parse_step(argv[i], &steps[nsteps++]);
    }
  }
  CHECK(nsteps > 0);
  if (strcmp(mode, "guided") == 0) {
    run_guided(MPI_COMM_TYPE_HW_GUIDED, steps, nsteps);
  } else if (strcmp(mode, "resource") == 0) {
    run_guided(MPI_COMM_TYPE_RESOURCE_GUIDED, steps, nsteps);
  } else if (strcmp(mode, "unguided") == 0) {
    run_walk(0, steps, nsteps);
  } else if (strcmp(mode, "hsplit") == 0) {
    run_walk(1, steps, nsteps);
  } else if (strcmp(mode, "hierarchy") == 0) {
    run_hierarchy(info, steps, nsteps);
  } else if (strcmp(mode, "minlevel") == 0) {
    run_minlevel(steps, nsteps);
  } else if (strcmp(mode, "resinfo") == 0) {
    run_resinfo(steps, nsteps);
  } else {
    CHECK(!"unknown mode");
  }
  CHECK_MPI(MPI_Info_free(&info));
  CHECK_MPI(MPI_Finalize());
  return 0;
}
