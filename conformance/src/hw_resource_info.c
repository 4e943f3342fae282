/* MPI_Get_hw_resource_info (MPI-4.1) against the truth (PROPERTIES.md, RESINFO-*). A library without the call
 * fails to build this program, and the runner reports its properties as not applicable.
 * Each key naming a level must say "true" exactly where the process is confined to one instance of it, and each
 * "true" key must be accepted by HW_GUIDED, giving that instance's group. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "truth.h"

#define TYPE_KEY "mpi_hw_resource_type"
#define TEXT 200
#define KEY_ROOM 96 /* keys as exchanged (longer ones are cut, and then only checked locally) */
#define MAX_KEYS 32

struct keys {
  int n;
  char key[MAX_KEYS][KEY_ROOM];
  char value[MAX_KEYS][KEY_ROOM];
};

/* "WORLD/Package" for a key naming a level, else "WORLD/<key>". */
static void context_of(const char *key, char *cx, size_t len) {
  const int l = level_parse(key);
  snprintf(cx, len, "WORLD/%s", l >= 0 ? level_name(l) : key);
}

static int read_keys(MPI_Info info, struct keys *k) {
  int nkeys = 0;
  memset(k, 0, sizeof *k);
  if (MPI_Info_get_nkeys(info, &nkeys) != MPI_SUCCESS) return -1;
  for (int i = 0; i < nkeys && k->n < MAX_KEYS; ++i) {
    char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL + 1];
    int len = MPI_MAX_INFO_VAL + 1, flag = 0;
    if (MPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS) return -1;
    if (MPI_Info_get_string(info, key, &len, value, &flag) != MPI_SUCCESS || !flag) return -1;
    snprintf(k->key[k->n], KEY_ROOM, "%.*s", KEY_ROOM - 1, key);
    snprintf(k->value[k->n], KEY_ROOM, "%.*s", KEY_ROOM - 1, value);
    ++k->n;
  }
  return 0;
}

/* RESINFO-CONSISTENT: "true" iff confined to one instance; every documented level present on my machine shows. */
static void check_consistent(const struct truth *t, int me, const struct keys *k) {
  const char *p = "RESINFO-CONSISTENT";
  char cx[128], where[TEXT];
  int shown[LEVEL_COUNT] = {0};
  for (int i = 0; i < k->n; ++i) {
    context_of(k->key[i], cx, sizeof cx);
    const int l = level_parse(k->key[i]);
    if (l < 0) {
      report_add(p, cx, OUTCOME_NA, "key %s names no level of the list", k->key[i]);
      continue;
    }
    shown[l] = 1;
    truth_describe(t, me, l, where, sizeof where);
    const int truth = truth_confined(t, me, l);
    const int is_true = strcmp(k->value[i], "true") == 0, is_false = strcmp(k->value[i], "false") == 0;
    if (!is_true && !is_false)
      report_add(p, cx, OUTCOME_FAIL, "%s=\"%s\", neither \"true\" nor \"false\"", k->key[i], k->value[i]);
    else if (is_true != truth)
      report_add(p, cx, OUTCOME_FAIL, "%s=%s but I am on %s", k->key[i], k->value[i], where);
    else
      report_add(p, cx, OUTCOME_PASS, "%s=%s: %s", k->key[i], k->value[i], where);
  }
  for (int l = 0; l < LEVEL_COUNT; ++l) {
    if (shown[l] || !t->documented[l] || !t->rank[me].present[l]) continue;
    snprintf(cx, sizeof cx, "WORLD/%s", level_name(l));
    report_add(p, cx, OUTCOME_FAIL, "documented level %s exists on node %d's machine but no key names it",
               level_name(l), t->rank[me].node);
  }
}

static int holds_true(const struct keys *k, const char *key) {
  for (int j = 0; j < k->n; ++j)
    if (strcmp(k->key[j], key) == 0 && strcmp(k->value[j], "true") == 0) return 1;
  return 0;
}

static int same_set(const int *a, int na, const int *b, int nb) {
  if (na != nb) return 0;
  for (int i = 0; i < na; ++i) {
    int found = 0;
    for (int j = 0; j < nb && !found; ++j) found = a[i] == b[j];
    if (!found) return 0;
  }
  return 1;
}

/* World ranks of newcomm's members, in its rank order; returns how many. */
static int members_of(MPI_Comm newcomm, int size, int *out) {
  MPI_Group g, w;
  int n = 0;
  MPI_Comm_group(newcomm, &g);
  MPI_Comm_group(MPI_COMM_WORLD, &w);
  MPI_Group_size(g, &n);
  if (n > size) n = size;
  int *ranks = malloc(sizeof(int) * (size_t)(n + 1));
  for (int i = 0; i < n; ++i) ranks[i] = i;
  MPI_Group_translate_ranks(g, n, ranks, w, out);
  free(ranks);
  MPI_Group_free(&g);
  MPI_Group_free(&w);
  return n;
}

/* One key given to HW_GUIDED on WORLD by everyone; judged by those holding it "true". */
static void check_key(const struct truth *t, int me, const struct keys *mine, const char *key) {
  const char *p = "RESINFO-ACCEPTED";
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, TYPE_KEY, key);
  MPI_Comm newcomm = MPI_COMM_NULL;
  const int rc = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, me, info, &newcomm);
  MPI_Info_free(&info);
  if (rc != MPI_SUCCESS) newcomm = MPI_COMM_NULL;
  char cx[128], text[TEXT], want[TEXT], have[TEXT];
  context_of(key, cx, sizeof cx);
  if (!holds_true(mine, key)) {
    report_add(p, cx, OUTCOME_NA, "%s is not \"true\" here", key);
  } else if (rc != MPI_SUCCESS) {
    report_mpi_error(rc, text, sizeof text);
    report_add(p, cx, OUTCOME_FAIL, "MPI_Comm_split_type(HW_GUIDED, %s): %s", key, text);
  } else if (newcomm == MPI_COMM_NULL) {
    report_add(p, cx, OUTCOME_FAIL, "%s is \"true\" here but HW_GUIDED with it gives MPI_COMM_NULL", key);
  } else {
    int *world = malloc(sizeof(int) * (size_t)t->size), *group = malloc(sizeof(int) * (size_t)t->size);
    int *got = malloc(sizeof(int) * (size_t)t->size);
    for (int r = 0; r < t->size; ++r) world[r] = r;
    const int n = members_of(newcomm, t->size, got), l = level_parse(key);
    const int k = l >= 0 ? truth_group(t, l, me, world, t->size, group) : 0;
    report_rank_set(got, n, have, sizeof have);
    report_rank_set(group, k, want, sizeof want);
    if (l < 0)
      report_add(p, cx, OUTCOME_PASS, "%s accepted (ranks %s; names no level to hold them against)", key, have);
    else if (!same_set(got, n, group, k))
      report_add(p, cx, OUTCOME_FAIL, "HW_GUIDED with %s gives ranks %s, the truth's group is %s", key, have, want);
    else
      report_add(p, cx, OUTCOME_PASS, "HW_GUIDED with %s gives ranks %s", key, have);
    free(world);
    free(group);
    free(got);
  }
  if (newcomm != MPI_COMM_NULL) MPI_Comm_free(&newcomm);
}

/* RESINFO-ACCEPTED: every key some process holds as "true" is tried, by everyone, in the same order (from an
 * allgather of all keys); those holding it "true" must get a communicator, their instance's group. */
static void check_accepted(const struct truth *t, int me, const struct keys *mine) {
  struct keys *all = malloc(sizeof *all * (size_t)t->size), *tried = calloc(1, sizeof *tried);
  MPI_Allgather(mine, (int)sizeof *mine, MPI_BYTE, all, (int)sizeof *mine, MPI_BYTE, MPI_COMM_WORLD);
  for (int r = 0; r < t->size; ++r)
    for (int i = 0; i < all[r].n; ++i)
      if (strcmp(all[r].value[i], "true") == 0 && !holds_true(tried, all[r].key[i]) && tried->n < MAX_KEYS) {
        snprintf(tried->key[tried->n], KEY_ROOM, "%s", all[r].key[i]);
        snprintf(tried->value[tried->n++], KEY_ROOM, "true");
        check_key(t, me, mine, all[r].key[i]);
      }
  free(all);
  free(tried);
}

int main(int argc, char **argv) {
  struct truth t;
  if (truth_start("hw_resource_info", &argc, &argv, &t) != 0) return 2;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Info info = MPI_INFO_NULL;
  struct keys *k = calloc(1, sizeof *k);
  const int rc = MPI_Get_hw_resource_info(&info);
  if (rc != MPI_SUCCESS || read_keys(info, k) != 0) {
    char text[TEXT] = "reading the info failed";
    if (rc != MPI_SUCCESS) report_mpi_error(rc, text, sizeof text);
    report_add("RESINFO-CONSISTENT", "WORLD/all", OUTCOME_FAIL, "MPI_Get_hw_resource_info: %s", text);
    report_add("RESINFO-ACCEPTED", "WORLD/all", OUTCOME_FAIL, "MPI_Get_hw_resource_info: %s", text);
    k->n = 0; /* still take part in the others' splits */
  } else {
    check_consistent(&t, rank, k);
  }
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);
  check_accepted(&t, rank, k);
  report_flush();
  free(k);
  truth_free(&t);
  MPI_Finalize();
  return 0;
}
