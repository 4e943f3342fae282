/* MPI_Comm_split_type(MPI_COMM_TYPE_HW_GUIDED) against the truth (MPI-4.0 section 7.4.2; PROPERTIES.md, GUIDED-*).
 * For each checked communicator and each level value, every process splits, then tells the others what it got (the
 * world ranks of its new communicator in new-rank order) with one MPI_Allgather of fixed-size records on the input
 * communicator; each process checks the result from its own point of view and the verdicts are combined. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "truth.h"

#ifdef MPI_COMM_TYPE_HW_GUIDED

#define TYPE_KEY "mpi_hw_resource_type"
#define TEXT 200

/* The key every split is given: ties (pairs of ranks share it) and a reversal of the input order. */
static int split_key(int rank, int size) { return (size - rank) / 2; }

/* One checked communicator: its name and the world rank of each of its ranks. */
struct ctx {
  const struct truth *t;
  MPI_Comm comm;
  const char *name;
  int rank, size, me; /* me: my world rank */
  int *world;         /* [size] */
};

/* What one process got from a split: a fixed-size record of 4 + world-size ints. */
enum { REC_RC, REC_NULL, REC_NEWRANK, REC_N, REC_MEMBERS };
#define REC(all, i, x) ((all) + (size_t)(i) * (REC_MEMBERS + (size_t)(x)->t->size))

/* Everyone's result of one split of x->comm, by comm rank. The members are read locally from the new
 * communicator's group, so a broken new communicator cannot hang the exchange. */
static int *exchange(const struct ctx *x, int rc, MPI_Comm newcomm) {
  const int stride = REC_MEMBERS + x->t->size;
  int *mine = calloc((size_t)stride, sizeof(int)), *all = malloc(sizeof(int) * (size_t)stride * (size_t)x->size);
  mine[REC_RC] = rc;
  mine[REC_NULL] = newcomm == MPI_COMM_NULL;
  if (newcomm != MPI_COMM_NULL) {
    MPI_Group g, world;
    int n = 0;
    MPI_Comm_rank(newcomm, &mine[REC_NEWRANK]);
    MPI_Comm_group(newcomm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_size(g, &n);
    if (n > x->t->size) n = x->t->size;
    int *ranks = malloc(sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < n; ++i) ranks[i] = i;
    MPI_Group_translate_ranks(g, n, ranks, world, mine + REC_MEMBERS);
    mine[REC_N] = n;
    free(ranks);
    MPI_Group_free(&g);
    MPI_Group_free(&world);
  }
  MPI_Allgather(mine, stride, MPI_INT, all, stride, MPI_INT, x->comm);
  free(mine);
  return all;
}

static int comm_rank_of(const struct ctx *x, int world_rank) {
  for (int i = 0; i < x->size; ++i)
    if (x->world[i] == world_rank) return i;
  return -1;
}

static int contains(const int *list, int n, int v) {
  for (int i = 0; i < n; ++i)
    if (list[i] == v) return 1;
  return 0;
}

static int same_set(const int *a, int na, const int *b, int nb) {
  if (na != nb) return 0;
  for (int i = 0; i < na; ++i)
    if (!contains(b, nb, a[i])) return 0;
  return 1;
}

/* MPI_Comm_split_type(HW_GUIDED) with mpi_hw_resource_type = value. */
static int guided(MPI_Comm comm, int key, const char *value, MPI_Comm *newcomm) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, TYPE_KEY, value);
  *newcomm = MPI_COMM_NULL;
  int rc = MPI_Comm_split_type(comm, MPI_COMM_TYPE_HW_GUIDED, key, info, newcomm);
  if (rc != MPI_SUCCESS) *newcomm = MPI_COMM_NULL;
  MPI_Info_free(&info);
  return rc;
}

/* GUIDED-PARTITION for me: covered iff confined, and my part is a part: members of comm, me among them, and every
 * member got exactly the same set (so parts are disjoint). */
static void check_partition(const struct ctx *x, const int *all, int level, const char *cx) {
  const int *mine = REC(all, x->rank, x);
  const int *members = mine + REC_MEMBERS, n = mine[REC_N];
  char where[TEXT], ranks[TEXT], other[TEXT];
  truth_describe(x->t, x->me, level, where, sizeof where);
  const int confined = truth_confined(x->t, x->me, level);
  if (mine[REC_NULL]) {
    if (confined) {
      int *group = malloc(sizeof(int) * (size_t)x->size);
      report_rank_set(group, truth_group(x->t, level, x->me, x->world, x->size, group), ranks, sizeof ranks);
      report_add("GUIDED-PARTITION", cx, OUTCOME_FAIL, "confined to %s (with ranks %s) but got MPI_COMM_NULL", where,
                 ranks);
      free(group);
    } else {
      report_add("GUIDED-PARTITION", cx, OUTCOME_PASS, "outside every part: %s", where);
    }
    return;
  }
  report_rank_set(members, n, ranks, sizeof ranks);
  if (!confined) {
    report_add("GUIDED-PARTITION", cx, OUTCOME_FAIL, "%s, yet in a part (ranks %s)", where, ranks);
    return;
  }
  for (int i = 0; i < n; ++i) {
    const int q = comm_rank_of(x, members[i]);
    if (q < 0 || contains(members, i, members[i])) {
      report_add("GUIDED-PARTITION", cx, OUTCOME_FAIL, "my part (ranks %s) holds rank %d %s", ranks, members[i],
                 q < 0 ? "which is not in the input communicator" : "twice");
      return;
    }
    const int *theirs = REC(all, q, x);
    if (theirs[REC_NULL] || !same_set(members, n, theirs + REC_MEMBERS, theirs[REC_N])) {
      report_rank_set(theirs + REC_MEMBERS, theirs[REC_NULL] ? 0 : theirs[REC_N], other, sizeof other);
      report_add("GUIDED-PARTITION", cx, OUTCOME_FAIL, "my part is ranks %s but member rank %d got %s", ranks,
                 members[i], theirs[REC_NULL] ? "MPI_COMM_NULL" : other);
      return;
    }
  }
  if (!contains(members, n, x->me)) {
    report_add("GUIDED-PARTITION", cx, OUTCOME_FAIL, "my new communicator (ranks %s) does not hold me", ranks);
    return;
  }
  report_add("GUIDED-PARTITION", cx, OUTCOME_PASS, "part of ranks %s", ranks);
}

/* GUIDED-INSTANCE for me: my part is exactly the processes of comm confined to my instance. */
static void check_instance(const struct ctx *x, const int *all, int level, const char *cx) {
  const int *mine = REC(all, x->rank, x);
  if (mine[REC_NULL]) {
    report_add("GUIDED-INSTANCE", cx, OUTCOME_NA, "MPI_COMM_NULL here");
    return;
  }
  const int *members = mine + REC_MEMBERS, n = mine[REC_N];
  char where[TEXT], theirs[TEXT], ranks[TEXT];
  truth_describe(x->t, x->me, level, where, sizeof where);
  report_rank_set(members, n, ranks, sizeof ranks);
  for (int i = 0; i < n; ++i)
    if (!truth_same_instance(x->t, x->me, members[i], level)) {
      truth_describe(x->t, members[i], level, theirs, sizeof theirs);
      report_add("GUIDED-INSTANCE", cx, OUTCOME_FAIL, "I am on %s but member rank %d is on %s", where, members[i],
                 theirs);
      return;
    }
  for (int i = 0; i < x->size; ++i)
    if (truth_same_instance(x->t, x->me, x->world[i], level) && !contains(members, n, x->world[i])) {
      report_add("GUIDED-INSTANCE", cx, OUTCOME_FAIL, "rank %d is also on %s but not in my part (ranks %s)",
                 x->world[i], where, ranks);
      return;
    }
  report_add("GUIDED-INSTANCE", cx, OUTCOME_PASS, "ranks %s: all of %s", ranks, where);
}

/* GUIDED-NULL-SPANNING and GUIDED-NULL-ABSENT for me: no single instance (spanning several, or none on my
 * machine) means MPI_COMM_NULL. */
static void check_null_cases(const struct ctx *x, const int *all, int level, const char *cx) {
  const int got_null = REC(all, x->rank, x)[REC_NULL];
  const int present = x->t->rank[x->me].present[level];
  char where[TEXT];
  truth_describe(x->t, x->me, level, where, sizeof where);
  if (!present) {
    report_add("GUIDED-NULL-ABSENT", cx, got_null ? OUTCOME_PASS : OUTCOME_FAIL, "%s: %s", where,
               got_null ? "MPI_COMM_NULL" : "got a communicator");
    report_add("GUIDED-NULL-SPANNING", cx, OUTCOME_NA, "%s", where);
    return;
  }
  report_add("GUIDED-NULL-ABSENT", cx, OUTCOME_NA, "%s present %s node %d%s", level_name(level),
             LEVEL_NETWORK(level) ? "above" : "on", x->t->rank[x->me].node, LEVEL_NETWORK(level) ? "" : "'s machine");
  if (truth_confined(x->t, x->me, level))
    report_add("GUIDED-NULL-SPANNING", cx, OUTCOME_NA, "confined to %s", where);
  else
    report_add("GUIDED-NULL-SPANNING", cx, got_null ? OUTCOME_PASS : OUTCOME_FAIL, "%s: %s", where,
               got_null ? "MPI_COMM_NULL" : "got a communicator");
}

/* GUIDED-KEY-ORDER for me: new ranks follow the key, ties broken by rank in comm (MPI-4.0 7.4.2, as for
 * MPI_COMM_SPLIT). */
static void check_key_order(const struct ctx *x, const int *all, const char *prop, const char *cx) {
  const int *mine = REC(all, x->rank, x);
  if (mine[REC_NULL]) {
    report_add(prop, cx, OUTCOME_NA, "MPI_COMM_NULL here");
    return;
  }
  const int *members = mine + REC_MEMBERS, n = mine[REC_N];
  int *order = malloc(sizeof(int) * (size_t)(n + 1)); /* comm ranks, sorted by (key, comm rank) */
  for (int i = 0; i < n; ++i) {
    int q = comm_rank_of(x, members[i]);
    if (q < 0) {
      report_add(prop, cx, OUTCOME_NA, "member rank %d is not in the input communicator", members[i]);
      free(order);
      return;
    }
    int j = i;
    for (; j > 0 && (split_key(order[j - 1], x->size) > split_key(q, x->size) ||
                     (split_key(order[j - 1], x->size) == split_key(q, x->size) && order[j - 1] > q));
         --j)
      order[j] = order[j - 1];
    order[j] = q;
  }
  char got[TEXT];
  report_ranks(members, n, got, sizeof got);
  for (int i = 0; i < n; ++i)
    if (x->world[order[i]] != members[i]) {
      report_add(prop, cx, OUTCOME_FAIL, "new rank %d is world rank %d, expected %d (key %d, then input rank %d)", i,
                 members[i], x->world[order[i]], split_key(order[i], x->size), order[i]);
      free(order);
      return;
    }
  free(order);
  if (mine[REC_NEWRANK] < 0 || mine[REC_NEWRANK] >= n || members[mine[REC_NEWRANK]] != x->me) {
    report_add(prop, cx, OUTCOME_FAIL, "MPI_Comm_rank gives %d but the group puts me elsewhere (ranks %s)",
               mine[REC_NEWRANK], got);
    return;
  }
  report_add(prop, cx, OUTCOME_PASS, "order %s", got);
}

/* A documented level with MPI_COMM_NULL everywhere although some process is confined: one clear verdict. */
static int null_everywhere(const struct ctx *x, const int *all, int level, const char *cx) {
  for (int i = 0; i < x->size; ++i)
    if (!REC(all, i, x)[REC_NULL]) return 0;
  if (!x->t->documented[level]) {
    const char *why = "level not supported: MPI_COMM_NULL everywhere and not in --levels";
    report_add("GUIDED-PARTITION", cx, OUTCOME_NA, "%s", why);
    report_add("GUIDED-INSTANCE", cx, OUTCOME_NA, "%s", why);
    report_add("GUIDED-NULL-SPANNING", cx, OUTCOME_NA, "%s", why);
    report_add("GUIDED-KEY-ORDER", cx, OUTCOME_NA, "%s", why);
    return 1;
  }
  for (int i = 0; i < x->size; ++i)
    if (truth_confined(x->t, x->world[i], level)) {
      int *group = malloc(sizeof(int) * (size_t)x->size);
      char ranks[TEXT];
      report_rank_set(group, truth_group(x->t, level, x->world[i], x->world, x->size, group), ranks, sizeof ranks);
      char where[32] = "(job-wide)"; /* a network level's index names its instance alone */
      if (!LEVEL_NETWORK(level)) snprintf(where, sizeof where, "on node %d", x->t->rank[x->world[i]].node);
      report_add("GUIDED-PARTITION", cx, OUTCOME_FAIL,
                 "MPI_COMM_NULL everywhere for documented level %s, whose instance %d %s holds ranks %s",
                 level_name(level), x->t->rank[x->world[i]].instance[level], where, ranks);
      report_add("GUIDED-INSTANCE", cx, OUTCOME_NA, "MPI_COMM_NULL everywhere");
      report_add("GUIDED-KEY-ORDER", cx, OUTCOME_NA, "MPI_COMM_NULL everywhere");
      free(group);
      return 1;
    }
  return 0; /* nobody confined: NULL everywhere is right, checked as usual */
}

static void check_level(const struct ctx *x, int level) {
  char cx[96], text[TEXT];
  snprintf(cx, sizeof cx, "%s/%s", x->name, level_name(level));
  MPI_Comm newcomm;
  const int rc = guided(x->comm, split_key(x->rank, x->size), level_name(level), &newcomm);
  int *all = exchange(x, rc, newcomm);
  if (newcomm != MPI_COMM_NULL) MPI_Comm_free(&newcomm);
  if (rc != MPI_SUCCESS) {
    report_mpi_error(rc, text, sizeof text);
    report_add("GUIDED-PARTITION", cx, OUTCOME_FAIL, "MPI_Comm_split_type(HW_GUIDED, %s): %s", level_name(level), text);
  }
  for (int i = 0; i < x->size; ++i)
    if (REC(all, i, x)[REC_RC] != MPI_SUCCESS) { /* results incomplete: the failing call is the verdict */
      free(all);
      return;
    }
  check_null_cases(x, all, level, cx);
  if (!null_everywhere(x, all, level, cx)) {
    check_partition(x, all, level, cx);
    check_instance(x, all, level, cx);
    check_key_order(x, all, "GUIDED-KEY-ORDER", cx);
  }
  free(all);
}

/* GUIDED-NULL-INFO, -NULL-KEY, -NULL-VALUE: no usable value means MPI_COMM_NULL everywhere. */
static void expect_null(const struct ctx *x, const char *prop, const char *what, MPI_Info info) {
  char cx[96], text[TEXT];
  snprintf(cx, sizeof cx, "%s/%s", x->name, what);
  MPI_Comm newcomm = MPI_COMM_NULL;
  int rc = MPI_Comm_split_type(x->comm, MPI_COMM_TYPE_HW_GUIDED, split_key(x->rank, x->size), info, &newcomm);
  if (rc != MPI_SUCCESS) {
    report_mpi_error(rc, text, sizeof text);
    report_add(prop, cx, OUTCOME_FAIL, "MPI_Comm_split_type(HW_GUIDED) with %s: %s", what, text);
  } else if (newcomm != MPI_COMM_NULL) {
    int n = 0;
    MPI_Comm_size(newcomm, &n);
    report_add(prop, cx, OUTCOME_FAIL, "with %s got a communicator of %d processes, not MPI_COMM_NULL", what, n);
    MPI_Comm_free(&newcomm);
  } else {
    report_add(prop, cx, OUTCOME_PASS, "MPI_COMM_NULL");
  }
}

static void check_no_value(const struct ctx *x) {
  expect_null(x, "GUIDED-NULL-INFO", "MPI_INFO_NULL", MPI_INFO_NULL);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "conformance_unrelated_key", "Package"); /* a level name, but under another key */
  expect_null(x, "GUIDED-NULL-KEY", "no_key", info);
  MPI_Info_free(&info);
  MPI_Info_create(&info);
  MPI_Info_set(info, TYPE_KEY, "conformance_no_such_resource");
  expect_null(x, "GUIDED-NULL-VALUE", "conformance_no_such_resource", info);
  MPI_Info_free(&info);
}

/* GUIDED-SHARED-MEMORY: "mpi_shared_memory" is MPI_COMM_TYPE_SHARED (MPI-4.0 7.4.2). */
static void check_shared_memory(const struct ctx *x) {
  char cx[96], text[TEXT];
  snprintf(cx, sizeof cx, "%s/mpi_shared_memory", x->name);
  const int key = split_key(x->rank, x->size);
  MPI_Comm g, s = MPI_COMM_NULL;
  int rc = guided(x->comm, key, "mpi_shared_memory", &g);
  int rc2 = MPI_Comm_split_type(x->comm, MPI_COMM_TYPE_SHARED, key, MPI_INFO_NULL, &s);
  if (rc != MPI_SUCCESS || rc2 != MPI_SUCCESS) {
    report_mpi_error(rc != MPI_SUCCESS ? rc : rc2, text, sizeof text);
    report_add("GUIDED-SHARED-MEMORY", cx, OUTCOME_FAIL, "MPI_Comm_split_type(%s): %s",
               rc != MPI_SUCCESS ? "HW_GUIDED, mpi_shared_memory" : "SHARED", text);
  } else if (g == MPI_COMM_NULL || s == MPI_COMM_NULL) {
    report_add("GUIDED-SHARED-MEMORY", cx, g == s ? OUTCOME_PASS : OUTCOME_FAIL, "HW_GUIDED gives %s, SHARED gives %s",
               g == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator",
               s == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator");
  } else {
    int result = MPI_UNEQUAL;
    MPI_Comm_compare(g, s, &result);
    report_add("GUIDED-SHARED-MEMORY", cx, result == MPI_CONGRUENT ? OUTCOME_PASS : OUTCOME_FAIL,
               "MPI_Comm_compare(HW_GUIDED mpi_shared_memory, SHARED) gives %s",
               result == MPI_CONGRUENT ? "MPI_CONGRUENT"
               : result == MPI_IDENT   ? "MPI_IDENT"
               : result == MPI_SIMILAR ? "MPI_SIMILAR"
                                       : "MPI_UNEQUAL");
  }
  if (g != MPI_COMM_NULL) MPI_Comm_free(&g);
  if (s != MPI_COMM_NULL) MPI_Comm_free(&s);
}

static void check_context(const struct truth *t, int i) {
  struct ctx x = {.t = t};
  x.name = context_make(i, &x.comm);
  MPI_Comm_rank(x.comm, &x.rank);
  MPI_Comm_size(x.comm, &x.size);
  MPI_Comm_rank(MPI_COMM_WORLD, &x.me);
  x.world = malloc(sizeof(int) * (size_t)x.size);
  MPI_Allgather(&x.me, 1, MPI_INT, x.world, 1, MPI_INT, x.comm);
  for (int level = 0; level < LEVEL_COUNT; ++level) check_level(&x, level);
  check_no_value(&x);
  check_shared_memory(&x);
  free(x.world);
  context_free(&x.comm);
}

#endif

int main(int argc, char **argv) {
  struct truth t;
  if (truth_start("hw_guided", &argc, &argv, &t) != 0) return 2;
#ifdef MPI_COMM_TYPE_HW_GUIDED
  for (int i = 0; i < CONTEXT_COUNT; ++i) {
    check_context(&t, i);
    report_flush();
  }
#else
  static const char *const kProperties[] = {"GUIDED-PARTITION",  "GUIDED-INSTANCE",    "GUIDED-NULL-SPANNING",
                                            "GUIDED-KEY-ORDER",  "GUIDED-NULL-INFO",   "GUIDED-NULL-KEY",
                                            "GUIDED-NULL-VALUE", "GUIDED-NULL-ABSENT", "GUIDED-SHARED-MEMORY"};
  report_all_na(kProperties, sizeof kProperties / sizeof kProperties[0],
                "library lacks MPI_COMM_TYPE_HW_GUIDED (MPI-4.0)");
#endif
  truth_free(&t);
  MPI_Finalize();
  return 0;
}
