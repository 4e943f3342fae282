/* The truth: which instance of every level each world rank is confined to (truth.h). Only hwloc and the command
 * line decide it; MPI is used solely to exchange the records of a real run. The network levels are read from
 * --network here, with a parser of the suite's own: reusing the library's would make it its own judge. */
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

static const char *const kNames[LEVEL_COUNT] = {"Rack",    "Switch",  "Machine", "Package", "NUMANode",
                                                "L3Cache", "L2Cache", "L1Cache", "Core",    "PU"};
/* The node's levels only: the network levels have no hwloc object (their entries are never read). */
static const hwloc_obj_type_t kTypes[LEVEL_COUNT] = {
    [LEVEL_MACHINE] = HWLOC_OBJ_MACHINE, [LEVEL_PACKAGE] = HWLOC_OBJ_PACKAGE, [LEVEL_NUMANODE] = HWLOC_OBJ_NUMANODE,
    [LEVEL_L3CACHE] = HWLOC_OBJ_L3CACHE, [LEVEL_L2CACHE] = HWLOC_OBJ_L2CACHE, [LEVEL_L1CACHE] = HWLOC_OBJ_L1CACHE,
    [LEVEL_CORE] = HWLOC_OBJ_CORE,       [LEVEL_PU] = HWLOC_OBJ_PU};

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

/* A level name without its URI scheme, or -1. */
static int bare_level(const char *value) {
  for (int l = 0; l < LEVEL_COUNT; ++l)
    if (strcasecmp(value, kNames[l]) == 0) return l;
  for (size_t i = 0; i < sizeof kAliases / sizeof kAliases[0]; ++i)
    if (strcasecmp(value, kAliases[i].alias) == 0) return kAliases[i].level;
  return -1;
}

int level_parse(const char *value) {
  if (value == NULL) return -1;
  /* A scheme must fit the level: hwloc:// names hwloc objects, strata:// the network levels hwloc lacks. */
  if (strncasecmp(value, "hwloc://", 8) == 0) {
    const int l = bare_level(value + 8);
    return l >= 0 && !LEVEL_NETWORK(l) ? l : -1;
  }
  if (strncasecmp(value, "strata://", 9) == 0) {
    const int l = bare_level(value + 9);
    return l >= 0 && LEVEL_NETWORK(l) ? l : -1;
  }
  return bare_level(value);
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

/* Fills everything but the node and the network levels (absent until --network says otherwise). `set` is the
 * binding, already the whole machine when unbound. */
static void place(hwloc_topology_t topo, hwloc_const_bitmap_t set, int unbound, struct rank_truth *rt) {
  for (int l = 0; l < LEVEL_COUNT; ++l) {
    if (LEVEL_NETWORK(l)) {
      rt->present[l] = 0;
      rt->instance[l] = TRUTH_NONE;
      continue;
    }
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
  const char *topology, *map_by, *cpusets, *levels, *network;
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
    } else if (strcmp(opt, "--network") == 0) {
      o->network = val;
    } else {
      return fail(err, len, "unknown option %s", opt);
    }
  }
  if (o->network != NULL && o->topology == NULL)
    return fail(err, len, "--network needs --topology (network levels are simulated only)");
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

/* A positive integer and nothing else ("4", not "0", "-1", "4x", ""), or 0. */
static long positive(const char *text) {
  if (*text < '1' || *text > '9') return 0;
  char *end = NULL;
  const long v = strtol(text, &end, 10);
  return *end == '\0' && v <= 1000000 ? v : 0;
}

/* --network DESC (README.md, "The programs' contract"): of_node[l][n] is node n's instance of network level l, or
 * of_node[l] stays NULL when DESC does not name l. Words NAME:N, top to bottom, each level at most once; the lowest
 * may list its instances' node counts instead, job-wide ("switch:3,1,1,1"), which the levels above share in equal
 * blocks. Nodes go to the lowest level's instances in block order; an instance of a higher level holds the
 * consecutive block of lowest instances that its fan-outs give it, so indexes are job-wide (switch s of rack r is
 * switch r * fan-out + s). */
static int parse_network(const char *desc, int nodes, int *of_node[LEVEL_MACHINE], char *err, size_t len) {
  int level[LEVEL_MACHINE], count = 0;
  long fanout[LEVEL_MACHINE], *listed = NULL, nlisted = 0;
  char *copy = strdup(desc), *save = NULL;
  int rc = 0;
  for (char *word = strtok_r(copy, " ", &save); word && rc == 0; word = strtok_r(NULL, " ", &save)) {
    char *colon = strrchr(word, ':'); /* the last one: "strata://Switch:2" */
    if (colon) *colon = '\0';
    const int l = level_parse(word);
    if (l < 0 || !LEVEL_NETWORK(l)) {
      rc = fail(err, len, "--network: \"%s\" is no network level (rack, switch)", word);
    } else if (colon == NULL || colon[1] == '\0' || colon[1] == ',' || strstr(colon + 1, ",,") != NULL ||
               colon[strlen(colon) - 1] == ',') { /* strtok_r below would skip the empty counts */
      rc = fail(err, len, "--network: %s needs a fan-out or node counts (%s:N or %s:N,N,...)", word, word, word);
    } else if (count > 0 && level[count - 1] >= l) {
      rc = fail(err, len, "--network: %s repeated or out of order (rack above switch)", word);
    } else if (nlisted > 0) {
      rc = fail(err, len, "--network: only the lowest level may list node counts");
    } else {
      long *values = NULL, n = 0;
      char *item_save = NULL;
      for (char *item = strtok_r(colon + 1, ",", &item_save); item; item = strtok_r(NULL, ",", &item_save)) {
        values = realloc(values, sizeof *values * (size_t)(n + 1));
        values[n] = positive(item);
        if (values[n++] == 0) rc = fail(err, len, "--network: %s:%s is not a positive count", word, item);
      }
      level[count] = l;
      fanout[count++] = n;
      if (n == 1) { /* a fan-out */
        fanout[count - 1] = values[0];
        free(values);
      } else {
        listed = values;
        nlisted = n;
      }
    }
  }
  free(copy);
  long above = 1, lowest = 1; /* instances of the level above the lowest; of the lowest */
  for (int k = 0; k + 1 < count && rc == 0; ++k) above *= fanout[k];
  if (rc == 0 && count == 0) rc = fail(err, len, "--network \"%s\" names no level", desc);
  if (rc == 0 && nlisted > 0) {
    long sum = 0;
    for (long i = 0; i < nlisted; ++i) sum += listed[i];
    if (nlisted % above != 0)
      rc = fail(err, len, "--network: %ld node counts cannot be shared by %ld instances above", nlisted, above);
    else if (sum != nodes)
      rc = fail(err, len, "--network: the node counts add up to %ld, not %d nodes", sum, nodes);
    fanout[count - 1] = nlisted / above;
  }
  for (int k = 0; k < count && rc == 0; ++k) lowest *= fanout[k];
  if (rc == 0 && nlisted == 0 && nodes % lowest != 0)
    rc = fail(err, len, "--network: %d nodes cannot be spread evenly over %ld instances", nodes, lowest);
  if (rc == 0) {
    int *low = malloc(sizeof(int) * (size_t)nodes); /* the lowest level's instance of each node */
    for (int n = 0, i = 0, left = nlisted ? (int)listed[0] : 0; n < nodes; ++n) {
      if (nlisted == 0) {
        low[n] = (int)(n / (nodes / lowest));
        continue;
      }
      while (left == 0) left = (int)listed[++i];
      low[n] = i;
      --left;
    }
    long instances = 1; /* of level k in the job */
    for (int k = 0; k < count; ++k) {
      instances *= fanout[k];
      of_node[level[k]] = malloc(sizeof(int) * (size_t)nodes);
      for (int n = 0; n < nodes; ++n) of_node[level[k]][n] = (int)(low[n] / (lowest / instances));
    }
    free(low);
  }
  free(listed);
  return rc;
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
  int *of_node[LEVEL_MACHINE] = {NULL};
  if (rc == 0 && o->network != NULL) rc = parse_network(o->network, o->nodes, of_node, err, len);
  for (int r = 0; r < t->size && rc == 0; ++r)
    for (int l = 0; l < LEVEL_MACHINE; ++l) {
      t->rank[r].present[l] = of_node[l] != NULL;
      t->rank[r].instance[l] = of_node[l] ? of_node[l][t->rank[r].node] : TRUTH_NONE;
    }
  for (int l = 0; l < LEVEL_MACHINE; ++l) free(of_node[l]);
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
  return truth_confined(t, a, level) && truth_confined(t, b, level) &&
         (LEVEL_NETWORK(level) || t->rank[a].node == t->rank[b].node) &&
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
  if (LEVEL_NETWORK(level) && !rt->present[level])
    snprintf(buf, len, "no %s above node %d", level_name(level), rt->node);
  else if (LEVEL_NETWORK(level))
    snprintf(buf, len, "%s %d (node %d's)", level_name(level), rt->instance[level], rt->node);
  else if (!rt->present[level])
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
