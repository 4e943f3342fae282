/* MPI_Comm_split_type(MPI_COMM_TYPE_HW_UNGUIDED) against the truth (MPI-4.0 section 7.4.2; PROPERTIES.md,
 * UNGUIDED-*). For each checked communicator, a walk: split, then split each result again, until MPI_COMM_NULL.
 * At every step the members of the input communicator exchange what they got (new communicator, the level written
 * into their info) with one MPI_Allgather of fixed-size records, and each checks the step from its own point of
 * view; the verdicts are combined per (property, communicator). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "truth.h"

#ifdef MPI_COMM_TYPE_HW_UNGUIDED

#define TYPE_KEY "mpi_hw_resource_type"
#define TEXT 200
#define VALUE_ROOM 64 /* the level value as exchanged (longer values are cut; compared as cut) */
#define MAX_STEPS 12  /* a walk over the 10 levels ends sooner; more means it does not end */

static int split_key(int rank, int size) { return (size - rank) / 2; }

/* What one process got from one unguided split; followed by `n` world ranks (room for the world size). */
struct step_record {
  int rc, is_null, newrank, n;
  int has_value, level; /* level: level_parse of the value, -1 if it names none */
  char value[VALUE_ROOM];
};

/* One step of a walk, seen by one process: the input communicator and everyone's records. */
struct step {
  const struct truth *t;
  const char *cx;     /* "WORLD/walk" */
  MPI_Comm in, out;   /* out: my result, MPI_COMM_NULL or not */
  int rank, size, me; /* in `in`; me: world rank */
  int *world;         /* [size] world rank of each rank of `in` */
  char *records;      /* [size] records of `stride` bytes */
  size_t stride;
  int prev_level; /* level of the step before (-1 at the first or when unknown) */
};

static const struct step_record *rec(const struct step *s, int i) {
  return (const struct step_record *)(s->records + (size_t)i * s->stride);
}
static const int *members(const struct step_record *r) { return (const int *)(r + 1); }

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

static int in_rank_of(const struct step *s, int world_rank) {
  for (int i = 0; i < s->size; ++i)
    if (s->world[i] == world_rank) return i;
  return -1;
}

/* My record: the new communicator's members (world ranks, new-rank order, read locally from its group) and what
 * the library wrote into my info. */
static void fill_record(const struct step *s, int rc, MPI_Info info, struct step_record *r) {
  r->rc = rc;
  r->is_null = s->out == MPI_COMM_NULL;
  r->level = -1;
  if (rc == MPI_SUCCESS) {
    char value[MPI_MAX_INFO_VAL + 1];
    int len = MPI_MAX_INFO_VAL + 1, flag = 0;
    if (MPI_Info_get_string(info, TYPE_KEY, &len, value, &flag) == MPI_SUCCESS && flag) {
      r->has_value = 1;
      snprintf(r->value, sizeof r->value, "%.*s", VALUE_ROOM - 1, value);
      r->level = level_parse(value);
    }
  }
  if (s->out == MPI_COMM_NULL) return;
  MPI_Group g, world;
  MPI_Comm_rank(s->out, &r->newrank);
  MPI_Comm_group(s->out, &g);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_size(g, &r->n);
  if (r->n > s->t->size) r->n = s->t->size;
  int *ranks = malloc(sizeof(int) * (size_t)(r->n + 1));
  for (int i = 0; i < r->n; ++i) ranks[i] = i;
  MPI_Group_translate_ranks(g, r->n, ranks, world, (int *)(r + 1));
  free(ranks);
  MPI_Group_free(&g);
  MPI_Group_free(&world);
}

/* UNGUIDED-STRICT-SUBSET: a result is a strict subset of its input (MPI_UNEQUAL, members among the input's). */
static void check_strict_subset(const struct step *s) {
  const struct step_record *r = rec(s, s->rank);
  const char *p = "UNGUIDED-STRICT-SUBSET";
  if (r->is_null) {
    report_add(p, s->cx, OUTCOME_NA, "MPI_COMM_NULL at this step");
    return;
  }
  char ranks[TEXT];
  report_rank_set(members(r), r->n, ranks, sizeof ranks);
  int result = MPI_IDENT;
  MPI_Comm_compare(s->in, s->out, &result);
  for (int i = 0; i < r->n; ++i)
    if (in_rank_of(s, members(r)[i]) < 0) {
      report_add(p, s->cx, OUTCOME_FAIL, "result (ranks %s) holds rank %d, not in the input", ranks, members(r)[i]);
      return;
    }
  if (result != MPI_UNEQUAL || r->n >= s->size)
    report_add(p, s->cx, OUTCOME_FAIL, "result (ranks %s) of an input of %d processes: MPI_Comm_compare gives %s",
               ranks, s->size,
               result == MPI_IDENT       ? "MPI_IDENT"
               : result == MPI_CONGRUENT ? "MPI_CONGRUENT"
               : result == MPI_SIMILAR   ? "MPI_SIMILAR"
                                         : "MPI_UNEQUAL");
  else
    report_add(p, s->cx, OUTCOME_PASS, "ranks %s of %d", ranks, s->size);
}

/* UNGUIDED-INFO-PRESENT and UNGUIDED-INFO-IDENTICAL. */
static void check_info(const struct step *s) {
  const struct step_record *r = rec(s, s->rank);
  if (r->is_null) {
    report_add("UNGUIDED-INFO-PRESENT", s->cx, OUTCOME_NA, "MPI_COMM_NULL at this step");
    report_add("UNGUIDED-INFO-IDENTICAL", s->cx, OUTCOME_NA, "MPI_COMM_NULL at this step");
    return;
  }
  if (!r->has_value) {
    report_add("UNGUIDED-INFO-PRESENT", s->cx, OUTCOME_FAIL, "no %s in the info after a split giving %d processes",
               TYPE_KEY, r->n);
    report_add("UNGUIDED-INFO-IDENTICAL", s->cx, OUTCOME_NA, "no value here");
    return;
  }
  report_add("UNGUIDED-INFO-PRESENT", s->cx, OUTCOME_PASS, "%s=%s", TYPE_KEY, r->value);
  for (int i = 0; i < r->n; ++i) {
    const int q = in_rank_of(s, members(r)[i]);
    if (q < 0) continue; /* UNGUIDED-STRICT-SUBSET's */
    const struct step_record *o = rec(s, q);
    if (!o->has_value || strcmp(o->value, r->value) != 0) {
      report_add("UNGUIDED-INFO-IDENTICAL", s->cx, OUTCOME_FAIL, "I got \"%s\" but member rank %d got %s%s%s", r->value,
                 members(r)[i], o->has_value ? "\"" : "", o->has_value ? o->value : "no value",
                 o->has_value ? "\"" : "");
      return;
    }
  }
  report_add("UNGUIDED-INFO-IDENTICAL", s->cx, OUTCOME_PASS, "\"%s\" on all %d members", r->value, r->n);
}

/* UNGUIDED-INSTANCE: the result is exactly the input's processes confined to my instance of the named level. */
static void check_instance(const struct step *s) {
  const struct step_record *r = rec(s, s->rank);
  const char *p = "UNGUIDED-INSTANCE";
  if (r->is_null || !r->has_value) {
    report_add(p, s->cx, OUTCOME_NA, r->is_null ? "MPI_COMM_NULL at this step" : "no level value to check");
    return;
  }
  if (r->level < 0) {
    report_add(p, s->cx, OUTCOME_FAIL, "%s \"%s\" names no level", TYPE_KEY, r->value);
    return;
  }
  char where[TEXT], got[TEXT], want[TEXT];
  int *group = malloc(sizeof(int) * (size_t)s->size);
  const int k = truth_group(s->t, r->level, s->me, s->world, s->size, group);
  truth_describe(s->t, s->me, r->level, where, sizeof where);
  report_rank_set(members(r), r->n, got, sizeof got);
  report_rank_set(group, k, want, sizeof want);
  if (k == 0)
    report_add(p, s->cx, OUTCOME_FAIL, "reported %s but I am on %s (got ranks %s)", r->value, where, got);
  else if (!same_set(members(r), r->n, group, k))
    report_add(p, s->cx, OUTCOME_FAIL, "%s: got ranks %s, the input's processes on %s are %s", r->value, got, where,
               want);
  else
    report_add(p, s->cx, OUTCOME_PASS, "ranks %s: %s", got, where);
  free(group);
}

/* Level l would split the input for me: I am confined to an instance of it and the input's processes on it are a
 * strict subset of the input. Their count goes to *k, the ranks to group. */
static int splits_for_me(const struct step *s, int l, int *group, int *k) {
  *k = truth_group(s->t, l, s->me, s->world, s->size, group);
  return *k > 0 && *k < s->size;
}

/* UNGUIDED-MINIMAL: the coarsest splitting level is used. No level higher in the list than the reported one, among
 * the documented ones and those some member reported, would have split the input for me into another group (an
 * equivalent level giving the same group may be reported instead). MPI_COMM_NULL only when no level splits for me,
 * or when another member's split is at a level I fit in no instance of (the parts must stay disjoint). */
static void check_minimal(const struct step *s) {
  const struct step_record *r = rec(s, s->rank);
  const char *p = "UNGUIDED-MINIMAL";
  if (!r->is_null && r->level < 0) {
    report_add(p, s->cx, OUTCOME_NA, "the level reported is unknown");
    return;
  }
  int candidate[LEVEL_COUNT];
  for (int l = 0; l < LEVEL_COUNT; ++l) candidate[l] = s->t->documented[l];
  for (int i = 0; i < s->size; ++i)
    if (!rec(s, i)->is_null && rec(s, i)->level >= 0) candidate[rec(s, i)->level] = 1;
  int *group = malloc(sizeof(int) * (size_t)s->size), k = 0;
  char ranks[TEXT], got[TEXT];
  const int top = r->is_null ? LEVEL_COUNT : r->level;
  for (int l = 0; l < top; ++l) {
    if (!candidate[l] || !splits_for_me(s, l, group, &k)) continue;
    if (!r->is_null && same_set(group, k, members(r), r->n)) continue; /* an equivalent level */
    report_rank_set(group, k, ranks, sizeof ranks);
    if (r->is_null) {
      int excuse = -1; /* a member's level at which I fit no single instance */
      for (int i = 0; i < s->size && excuse < 0; ++i)
        if (!rec(s, i)->is_null && rec(s, i)->level >= 0 && !truth_confined(s->t, s->me, rec(s, i)->level)) excuse = i;
      if (excuse >= 0) {
        report_add(p, s->cx, OUTCOME_PASS, "MPI_COMM_NULL: rank %d's split is at %s, where I fit no instance",
                   s->world[excuse], level_name(rec(s, excuse)->level));
      } else {
        report_add(p, s->cx, OUTCOME_FAIL, "got MPI_COMM_NULL although %s splits the input of %d into ranks %s",
                   level_name(l), s->size, ranks);
      }
    } else {
      report_rank_set(members(r), r->n, got, sizeof got);
      report_add(p, s->cx, OUTCOME_FAIL,
                 "reported %s (ranks %s) but the higher %s already splits the input of %d into %s", r->value, got,
                 level_name(l), s->size, ranks);
    }
    free(group);
    return;
  }
  free(group);
  if (r->is_null)
    report_add(p, s->cx, OUTCOME_PASS, "MPI_COMM_NULL: no level splits the input of %d for me", s->size);
  else
    report_add(p, s->cx, OUTCOME_PASS, "%s is the highest level splitting the input of %d", r->value, s->size);
}

/* UNGUIDED-NESTING: each level of the walk lies strictly lower in the list than the one before. */
static void check_nesting(const struct step *s) {
  const struct step_record *r = rec(s, s->rank);
  const char *p = "UNGUIDED-NESTING";
  if (r->is_null || r->level < 0 || s->prev_level < 0) {
    report_add(p, s->cx, OUTCOME_NA, "no two known levels in a row");
    return;
  }
  if (r->level > s->prev_level)
    report_add(p, s->cx, OUTCOME_PASS, "%s below %s", level_name(r->level), level_name(s->prev_level));
  else
    report_add(p, s->cx, OUTCOME_FAIL, "%s (\"%s\") came after %s, not below it", level_name(r->level), r->value,
               level_name(s->prev_level));
}

/* UNGUIDED-KEY-ORDER: new ranks follow the key, ties broken by rank in the input. */
static void check_key_order(const struct step *s) {
  const struct step_record *r = rec(s, s->rank);
  const char *p = "UNGUIDED-KEY-ORDER";
  if (r->is_null) {
    report_add(p, s->cx, OUTCOME_NA, "MPI_COMM_NULL at this step");
    return;
  }
  int *order = malloc(sizeof(int) * (size_t)(r->n + 1)); /* input ranks, sorted by (key, input rank) */
  for (int i = 0; i < r->n; ++i) {
    const int q = in_rank_of(s, members(r)[i]);
    if (q < 0) {
      report_add(p, s->cx, OUTCOME_NA, "member rank %d is not in the input", members(r)[i]);
      free(order);
      return;
    }
    int j = i;
    for (; j > 0 && (split_key(order[j - 1], s->size) > split_key(q, s->size) ||
                     (split_key(order[j - 1], s->size) == split_key(q, s->size) && order[j - 1] > q));
         --j)
      order[j] = order[j - 1];
    order[j] = q;
  }
  char got[TEXT];
  report_ranks(members(r), r->n, got, sizeof got);
  int ok = r->newrank >= 0 && r->newrank < r->n && members(r)[r->newrank] == s->me;
  for (int i = 0; i < r->n && ok; ++i)
    if (s->world[order[i]] != members(r)[i]) {
      report_add(p, s->cx, OUTCOME_FAIL, "new rank %d is world rank %d, expected %d (key %d, then input rank %d)", i,
                 members(r)[i], s->world[order[i]], split_key(order[i], s->size), order[i]);
      free(order);
      return;
    }
  free(order);
  if (!ok)
    report_add(p, s->cx, OUTCOME_FAIL, "MPI_Comm_rank gives %d but the group puts me elsewhere (ranks %s)", r->newrank,
               got);
  else
    report_add(p, s->cx, OUTCOME_PASS, "order %s", got);
}

/* UNGUIDED-INFO-GUIDED: HW_GUIDED on the same input, with the value the unguided split reported and the same key,
 * gives a congruent communicator. Collective on the input: one guided split per distinct value reported in it. */
static void check_guided(const struct step *s, int key) {
  const struct step_record *r = rec(s, s->rank);
  const char *p = "UNGUIDED-INFO-GUIDED";
  if (r->is_null || !r->has_value)
    report_add(p, s->cx, OUTCOME_NA, r->is_null ? "MPI_COMM_NULL at this step" : "no value to pass");
  for (int i = 0; i < s->size; ++i) {
    const struct step_record *o = rec(s, i);
    int seen = o->is_null || !o->has_value;
    for (int j = 0; j < i && !seen; ++j)
      seen = !rec(s, j)->is_null && rec(s, j)->has_value && strcmp(rec(s, j)->value, o->value) == 0;
    if (seen) continue;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, TYPE_KEY, o->value);
    MPI_Comm g = MPI_COMM_NULL;
    const int rc = MPI_Comm_split_type(s->in, MPI_COMM_TYPE_HW_GUIDED, key, info, &g);
    MPI_Info_free(&info);
    if (rc != MPI_SUCCESS) g = MPI_COMM_NULL;
    if (!r->is_null && r->has_value && strcmp(r->value, o->value) == 0) {
      int result = MPI_UNEQUAL;
      char text[TEXT];
      if (rc != MPI_SUCCESS) {
        report_mpi_error(rc, text, sizeof text);
        report_add(p, s->cx, OUTCOME_FAIL, "MPI_Comm_split_type(HW_GUIDED, %s): %s", o->value, text);
      } else if (g == MPI_COMM_NULL) {
        report_add(p, s->cx, OUTCOME_FAIL, "HW_GUIDED with \"%s\" gives MPI_COMM_NULL", o->value);
      } else if (MPI_Comm_compare(g, s->out, &result), result != MPI_CONGRUENT) {
        report_add(p, s->cx, OUTCOME_FAIL, "HW_GUIDED with \"%s\" is %s to the unguided result", o->value,
                   result == MPI_IDENT     ? "MPI_IDENT"
                   : result == MPI_SIMILAR ? "MPI_SIMILAR"
                                           : "MPI_UNEQUAL");
      } else {
        report_add(p, s->cx, OUTCOME_PASS, "HW_GUIDED with \"%s\" is MPI_CONGRUENT", o->value);
      }
    }
    if (g != MPI_COMM_NULL) MPI_Comm_free(&g);
  }
}

enum { WALK_ENDED, WALK_GOES_ON, WALK_BROKEN };

/* One split of `in` and its checks. WALK_GOES_ON: `out` is the next input; WALK_BROKEN: a call failed somewhere in
 * `in` (its members all stop there, so nobody waits for a split the others skip). */
static int walk_step(struct step *s) {
  MPI_Comm_rank(s->in, &s->rank);
  MPI_Comm_size(s->in, &s->size);
  s->world = malloc(sizeof(int) * (size_t)s->size);
  MPI_Allgather(&s->me, 1, MPI_INT, s->world, 1, MPI_INT, s->in);
  const int key = split_key(s->rank, s->size);
  MPI_Info info;
  MPI_Info_create(&info); /* a fresh info each call: what it holds afterwards is this call's */
  s->out = MPI_COMM_NULL;
  const int rc = MPI_Comm_split_type(s->in, MPI_COMM_TYPE_HW_UNGUIDED, key, info, &s->out);
  if (rc != MPI_SUCCESS) s->out = MPI_COMM_NULL;
  s->stride = sizeof(struct step_record) + sizeof(int) * (size_t)s->t->size;
  struct step_record *mine = calloc(1, s->stride);
  fill_record(s, rc, info, mine);
  MPI_Info_free(&info);
  s->records = malloc(s->stride * (size_t)s->size);
  MPI_Allgather(mine, (int)s->stride, MPI_BYTE, s->records, (int)s->stride, MPI_BYTE, s->in);
  free(mine);

  int failed = 0;
  for (int i = 0; i < s->size; ++i) failed |= rec(s, i)->rc != MPI_SUCCESS;
  if (rc != MPI_SUCCESS) {
    char text[TEXT];
    report_mpi_error(rc, text, sizeof text);
    report_add("UNGUIDED-TERMINATION", s->cx, OUTCOME_FAIL, "MPI_Comm_split_type(HW_UNGUIDED) on %d processes: %s",
               s->size, text);
  }
  if (!failed) { /* with a failed call somewhere the step's results are incomplete: that call is the verdict */
    check_strict_subset(s);
    check_info(s);
    check_instance(s);
    check_minimal(s);
    check_nesting(s);
    check_key_order(s);
    check_guided(s, key);
    if (s->size == 1 && s->out != MPI_COMM_NULL)
      report_add("UNGUIDED-TERMINATION", s->cx, OUTCOME_FAIL, "a communicator of one process split into another");
  }
  const struct step_record *r = rec(s, s->rank);
  s->prev_level = r->is_null ? -1 : r->level;
  free(s->world);
  free(s->records);
  if (failed && s->out != MPI_COMM_NULL) MPI_Comm_free(&s->out);
  return failed ? WALK_BROKEN : s->out != MPI_COMM_NULL ? WALK_GOES_ON : WALK_ENDED;
}

static void walk(const struct truth *t, int i) {
  MPI_Comm comm;
  const char *name = context_make(i, &comm);
  char cx[96];
  snprintf(cx, sizeof cx, "%s/walk", name);
  struct step s = {.t = t, .cx = cx, .in = comm, .prev_level = -1};
  MPI_Comm_rank(MPI_COMM_WORLD, &s.me);
  int steps = 0, state = WALK_GOES_ON;
  while (state == WALK_GOES_ON && steps <= MAX_STEPS) {
    state = walk_step(&s);
    ++steps;
    if (s.in != comm) MPI_Comm_free(&s.in);
    s.in = s.out;
  }
  if (state == WALK_GOES_ON) {
    report_add("UNGUIDED-TERMINATION", cx, OUTCOME_FAIL, "still no MPI_COMM_NULL after %d splits", MAX_STEPS + 1);
    MPI_Comm_free(&s.in);
  } else if (state == WALK_ENDED) {
    report_add("UNGUIDED-TERMINATION", cx, OUTCOME_PASS, "MPI_COMM_NULL after %d split%s", steps, steps > 1 ? "s" : "");
  }
  context_free(&comm);
}

#endif

int main(int argc, char **argv) {
  struct truth t;
  if (truth_start("hw_unguided", &argc, &argv, &t) != 0) return 2;
#ifdef MPI_COMM_TYPE_HW_UNGUIDED
  for (int i = 0; i < CONTEXT_COUNT; ++i) {
    walk(&t, i);
    report_flush();
  }
#else
  static const char *const kProperties[] = {"UNGUIDED-STRICT-SUBSET",  "UNGUIDED-INSTANCE",    "UNGUIDED-MINIMAL",
                                            "UNGUIDED-NESTING",        "UNGUIDED-TERMINATION", "UNGUIDED-INFO-PRESENT",
                                            "UNGUIDED-INFO-IDENTICAL", "UNGUIDED-INFO-GUIDED", "UNGUIDED-KEY-ORDER"};
  report_all_na(kProperties, sizeof kProperties / sizeof kProperties[0],
                "library lacks MPI_COMM_TYPE_HW_UNGUIDED (MPI-4.0)");
#endif
  truth_free(&t);
  MPI_Finalize();
  return 0;
}
