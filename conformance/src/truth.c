/* The truth: which instance of every level each world rank is confined to (truth.h). Only hwloc and the command
 * line decide it; MPI is used solely to exchange the records of a real run. */
#define _POSIX_C_SOURCE 200809L
#include "truth.h"

#include <hwloc.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define HOST_NAME_ROOM 256

static const char *const kNames[LEVEL_COUNT] = {"Machine", "Package", "NUMANode", "L3Cache",
                                                "L2Cache", "L1Cache", "Core",     "PU"};
static const hwloc_obj_type_t kTypes[LEVEL_COUNT] = {HWLOC_OBJ_MACHINE, HWLOC_OBJ_PACKAGE, HWLOC_OBJ_NUMANODE,
                                                     HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE,
                                                     HWLOC_OBJ_CORE,    HWLOC_OBJ_PU};

/* Spellings accepted for each level, besides the hwloc name itself (DESIGN.md's aliases, MPI-5's "hwloc://"). */
static const struct {
  const char *alias;
  int level;
} kAliases[] = {
    {"node", LEVEL_MACHINE}, {"socket", LEVEL_PACKAGE}, {"numa", LEVEL_NUMANODE}, {"l3", LEVEL_L3CACHE},
    {"l3d", LEVEL_L3CACHE},  {"l2", LEVEL_L2CACHE},     {"l2d", LEVEL_L2CACHE},   {"l1", LEVEL_L1CACHE},
    {"l1d", LEVEL_L1CACHE},  {"hwthread", LEVEL_PU},
};

const char *level_name(int level) { return level >= 0 && level < LEVEL_COUNT ? kNames[level] : "?"; }

int level_parse(const char *value) {
  if (value == NULL) return -1;
  if (strncasecmp(value, "hwloc://", 8) == 0) value += 8;
  for (int l = 0; l < LEVEL_COUNT; ++l)
    if (strcasecmp(value, kNames[l]) == 0) return l;
  for (size_t i = 0; i < sizeof kAliases / sizeof kAliases[0]; ++i)
    if (strcasecmp(value, kAliases[i].alias) == 0) return kAliases[i].level;
  return -1;
}

static int fail(char *err, size_t len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, len, fmt, ap);
  va_end(ap);
  return -1;
}

/* The logical index of the one object of `type` whose cpuset holds all of `set`, or TRUTH_NONE. Two objects of a
 * type holding it (e.g. two NUMA nodes under one package) mean the process may use both: confined to neither. */
static int confined_instance(hwloc_topology_t topo, hwloc_obj_type_t type, hwloc_const_bitmap_t set) {
  int found = TRUTH_NONE;
  for (hwloc_obj_t o = hwloc_get_next_obj_by_type(topo, type, NULL); o; o = hwloc_get_next_obj_by_type(topo, type, o)) {
    if (o->cpuset == NULL || !hwloc_bitmap_isincluded(set, o->cpuset)) continue;
    if (found != TRUTH_NONE) return TRUTH_NONE;
    found = (int)o->logical_index;
  }
  return found;
}

/* Fills everything but the node. `set` is the binding, already the whole machine when unbound. */
static void place(hwloc_topology_t topo, hwloc_const_bitmap_t set, int unbound, struct rank_truth *rt) {
  for (int l = 0; l < LEVEL_COUNT; ++l) {
    if (l == LEVEL_MACHINE) { /* the root: one per node, holding every binding on it */
      rt->present[l] = 1;
      rt->instance[l] = 0;
      continue;
    }
    rt->present[l] = hwloc_get_nbobjs_by_type(topo, kTypes[l]) != 0; /* -1: several depths, still present */
    rt->instance[l] = confined_instance(topo, kTypes[l], set);
  }
  if (unbound)
    snprintf(rt->cpuset, sizeof rt->cpuset, "unbound");
  else
    hwloc_bitmap_list_snprintf(rt->cpuset, sizeof rt->cpuset, set);
}

struct options {
  const char *topology, *map_by, *cpusets, *levels;
  int nodes;
};

static int parse_options(int argc, char **argv, struct options *o, char *err, size_t len) {
  memset(o, 0, sizeof *o);
  o->nodes = 1;
  o->map_by = "slot";
  o->cpusets = "none";
  for (int i = 1; i < argc; ++i) {
    const char *opt = argv[i];
    if (i + 1 >= argc) return fail(err, len, "option %s needs a value", opt);
    const char *val = argv[++i];
    if (strcmp(opt, "--topology") == 0) {
      o->topology = val;
    } else if (strcmp(opt, "--nodes") == 0) {
      o->nodes = atoi(val);
      if (o->nodes < 1) return fail(err, len, "--nodes %s: expected a positive count", val);
    } else if (strcmp(opt, "--map-by") == 0) {
      if (strcmp(val, "slot") != 0 && strcmp(val, "node") != 0)
        return fail(err, len, "--map-by %s: expected slot or node", val);
      o->map_by = val;
    } else if (strcmp(opt, "--cpusets") == 0) {
      o->cpusets = val;
    } else if (strcmp(opt, "--levels") == 0) {
      o->levels = val;
    } else {
      return fail(err, len, "unknown option %s", opt);
    }
  }
  return 0;
}

static int parse_levels(const char *list, int *documented, char *err, size_t len) {
  for (int l = 0; l < LEVEL_COUNT; ++l) documented[l] = list == NULL;
  if (list == NULL) return 0;
  char *copy = strdup(list), *save = NULL;
  for (char *item = strtok_r(copy, ", ", &save); item; item = strtok_r(NULL, ", ", &save)) {
    int l = level_parse(item);
    if (l < 0) {
      fail(err, len, "--levels: unknown level \"%s\"", item);
      free(copy);
      return -1;
    }
    documented[l] = 1;
  }
  free(copy);
  return 0;
}

/* Simulated: every node is the synthetic machine; rank r's node and cpuset come from the command line. */
static int simulate(struct truth *t, const struct options *o, char *err, size_t len) {
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return fail(err, len, "hwloc_topology_init failed");
  if (hwloc_topology_set_synthetic(topo, o->topology) != 0 || hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    return fail(err, len, "hwloc rejects the synthetic topology \"%s\"", o->topology);
  }
  hwloc_const_bitmap_t whole = hwloc_get_root_obj(topo)->cpuset;
  const int unbound = strcmp(o->cpusets, "none") == 0;
  const int per_node = (t->size + o->nodes - 1) / o->nodes; /* slot: blocks of ceil(n/N) consecutive ranks */
  char *copy = strdup(o->cpusets), *save = NULL, *item = unbound ? NULL : strtok_r(copy, ";", &save);
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  int rc = 0;
  for (int r = 0; r < t->size && rc == 0; ++r) {
    struct rank_truth *rt = &t->rank[r];
    rt->node = strcmp(o->map_by, "node") == 0 ? r % o->nodes : r / per_node;
    if (unbound) {
      hwloc_bitmap_copy(set, whole);
    } else if (item == NULL) {
      rc = fail(err, len, "--cpusets has fewer entries than the %d ranks", t->size);
      break;
    } else if (hwloc_bitmap_list_sscanf(set, item) != 0 || hwloc_bitmap_iszero(set) ||
               !hwloc_bitmap_isincluded(set, whole)) {
      rc = fail(err, len, "--cpusets entry %d \"%s\" is not a non-empty PU list of the machine", r, item);
      break;
    } else {
      item = strtok_r(NULL, ";", &save);
    }
    place(topo, set, unbound, rt);
  }
  if (rc == 0 && item != NULL) rc = fail(err, len, "--cpusets has more entries than the %d ranks", t->size);
  hwloc_bitmap_free(set);
  free(copy);
  hwloc_topology_destroy(topo);
  return rc;
}

/* What one process tells the others in a real run. */
struct real_record {
  int ok;
  char host[HOST_NAME_ROOM];
  struct rank_truth rt;
};

/* Real: my machine, binding and host, then everyone's by MPI_Allgather. A binding covering the whole machine (or
 * none readable) counts as unbound. */
static int discover(struct truth *t, char *err, size_t len) {
  struct real_record mine;
  memset(&mine, 0, sizeof mine);
  hwloc_topology_t topo;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  if (hwloc_topology_init(&topo) == 0 && hwloc_topology_load(topo) == 0) {
    hwloc_const_bitmap_t whole = hwloc_get_root_obj(topo)->cpuset;
    int unbound = hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0;
    if (!unbound) {
      unbound =
          hwloc_bitmap_isincluded(whole, set) || hwloc_bitmap_isequal(set, hwloc_topology_get_allowed_cpuset(topo));
      hwloc_bitmap_and(set, set, whole);
      unbound = unbound || hwloc_bitmap_iszero(set);
    }
    if (unbound) hwloc_bitmap_copy(set, whole);
    place(topo, set, unbound, &mine.rt);
    mine.ok = gethostname(mine.host, sizeof mine.host - 1) == 0;
    hwloc_topology_destroy(topo);
  }
  hwloc_bitmap_free(set);

  struct real_record *all = malloc(sizeof *all * (size_t)t->size);
  MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, MPI_COMM_WORLD);
  int rc = 0;
  for (int r = 0; r < t->size && rc == 0; ++r) {
    if (!all[r].ok) {
      rc = fail(err, len, "rank %d could not read its machine, binding or host name with hwloc", r);
      break;
    }
    t->rank[r] = all[r].rt;
    t->rank[r].node = r; /* nodes numbered by their first rank, then renumbered 0.. below */
    for (int q = 0; q < r; ++q)
      if (strcmp(all[q].host, all[r].host) == 0) {
        t->rank[r].node = t->rank[q].node;
        break;
      }
  }
  int next = 0;
  for (int r = 0; r < t->size && rc == 0; ++r)
    t->rank[r].node = t->rank[r].node == r ? next++ : t->rank[t->rank[r].node].node;
  free(all);
  return rc;
}

int truth_init(struct truth *t, int argc, char **argv, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  MPI_Comm_size(MPI_COMM_WORLD, &t->size);
  t->rank = calloc((size_t)t->size, sizeof *t->rank);
  struct options o;
  if (parse_options(argc, argv, &o, err, errlen) != 0) return -1;
  if (parse_levels(o.levels, t->documented, err, errlen) != 0) return -1;
  t->simulated = o.topology != NULL;
  return t->simulated ? simulate(t, &o, err, errlen) : discover(t, err, errlen);
}

void truth_free(struct truth *t) {
  free(t->rank);
  t->rank = NULL;
}

int truth_confined(const struct truth *t, int r, int level) {
  return t->rank[r].present[level] && t->rank[r].instance[level] != TRUTH_NONE;
}

int truth_same_instance(const struct truth *t, int a, int b, int level) {
  return truth_confined(t, a, level) && truth_confined(t, b, level) && t->rank[a].node == t->rank[b].node &&
         t->rank[a].instance[level] == t->rank[b].instance[level];
}

int truth_group(const struct truth *t, int level, int r, const int *among, int n, int *out) {
  int k = 0;
  for (int i = 0; i < n; ++i)
    if (truth_same_instance(t, r, among[i], level)) out[k++] = among[i];
  return k;
}

void truth_describe(const struct truth *t, int r, int level, char *buf, size_t len) {
  const struct rank_truth *rt = &t->rank[r];
  if (!rt->present[level])
    snprintf(buf, len, "no %s on node %d's machine", level_name(level), rt->node);
  else if (rt->instance[level] == TRUTH_NONE)
    snprintf(buf, len, "no single %s (%s%s on node %d)", level_name(level),
             strcmp(rt->cpuset, "unbound") ? "binding " : "", rt->cpuset, rt->node);
  else
    snprintf(buf, len, "%s %d on node %d", level_name(level), rt->instance[level], rt->node);
}

int truth_start(const char *program, int *argc, char ***argv, struct truth *t) {
  MPI_Init(argc, argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char err[256];
  if (truth_init(t, *argc, *argv, err, sizeof err) == 0) return 0;
  if (rank == 0) fprintf(stderr, "%s: %s\n", program, err);
  truth_free(t);
  MPI_Finalize();
  return 2;
}
