/* What a collective runs and why (Strata's MPIX_Comm_get_coll_info and MPIX_Request_get_coll_info, mpi.h):
 * - every rank is told the same algorithm for the same call, and it is the one a persistent request of that call
 *   then runs (MPIX_Request_get_algorithm);
 * - "cost model" answers list their candidates fastest first, the chosen one first; other answers list none;
 * - an info key strata_coll_<operation> on the communicator forces the choice and says so; strata_coll_groups
 *   fixes the grouped family's G;
 * - bad input is reported with the right error class;
 * - the model's figures come from where the job says (STRATA_COST_FILE, STRATA_COST_PROBE=1 or built in), and every
 *   rank predicts the same times with them;
 * - the processors it lets each node's ranks share are the cost file's cores_per_node, and the nodes that pool
 *   them its nodes_per_host; else what the ranks' affinities show (Strata's mpiexec runs each simulated node on its
 *   own share of the host's CPUs).
 * Run on simulated nodes (the model chooses there) and on one node (the rule table does). */
#define _GNU_SOURCE /* sched_getaffinity */
#include <sched.h>

#include "test_util.h"

static const char *const operations[] = {"barrier", "bcast", "reduce", "allreduce", "allgather", "gather"};
static const MPI_Count sizes[] = {8, 65536, 1048576};

static void get(MPI_Info info, const char *key, char *value, int size) {
  int len = size, flag = 0;
  CHECK_MPI(MPI_Info_get_string(info, key, &len, value, &flag));
  CHECK(flag);
}

static int info_int(MPI_Info info, const char *key) {
  char value[32];
  get(info, key, value, sizeof value);
  return atoi(value);
}

/* The names and times of a candidates list "a 1.2 us, grouped (G=3) 2 us, b 3 us": names first-to-last, times
 * non-decreasing; `groups` gets the first candidate's G (0 when it has none). */
static void check_candidates(const char *list, const char *chosen, int *groups) {
  char copy[2048];
  snprintf(copy, sizeof copy, "%s", list);
  double last = -1;
  int count = 0;
  *groups = 0;
  for (char *item = strtok(copy, ","); item; item = strtok(NULL, ",")) {
    char name[128];
    double us = 0;
    int g = 0, used = 0;
    CHECK(sscanf(item, " %127s %n", name, &used) == 1);
    const char *rest = item + used;
    if (sscanf(rest, "(G=%d) %n", &g, &used) == 1) {
      CHECK(g > 1);
      rest += used;
    }
    CHECK(sscanf(rest, "%lf us", &us) == 1);
    if (count++ == 0) {
      CHECK(strcmp(name, chosen) == 0);
      *groups = g;
    }
    CHECK(us >= last);
    last = us;
  }
  CHECK(count >= 1);
}

/* Every rank's answer for one call equals rank 0's. */
static void check_same_everywhere(const char *answer) {
  char root[2048];
  snprintf(root, sizeof root, "%s", answer);
  CHECK_MPI(MPI_Bcast(root, (int)sizeof root, MPI_CHAR, 0, MPI_COMM_WORLD));
  CHECK(strcmp(root, answer) == 0);
}

/* Where the cost model's figures come from, as the job was launched: STRATA_COST_FILE, else STRATA_COST_PROBE=1,
 * else the built-in ones. */
static const char *expected_cost_source(char *buffer, size_t size) {
  const char *file = getenv("STRATA_COST_FILE"), *probe = getenv("STRATA_COST_PROBE");
  if (file && *file) snprintf(buffer, size, "file %s", file);
  else snprintf(buffer, size, "%s", probe && strcmp(probe, "1") == 0 ? "probe at MPI_Init" : "built-in");
  return buffer;
}

/* The value on the cost file's line that `format` reads, or 0 without a file or such a line. */
static double cost_file_value(const char *format) {
  const char *file = getenv("STRATA_COST_FILE");
  FILE *f = file && *file ? fopen(file, "r") : NULL;
  double value = 0;
  if (f) {
    char line[256];
    while (fgets(line, sizeof line, f)) sscanf(line, format, &value);
    fclose(f);
  }
  return value;
}

/* How the job's nodes share this host's real CPUs, read from the ranks' affinities (they are not really bound, so
 * each runs on its node's share): the CPUs of a node averaged over nodes, a node that shares its CPUs with S-1 others
 * counting 1/S of them; and how many nodes share this rank's. The nodes are the MPI_COMM_TYPE_SHARED communicators,
 * each known by its first rank. */
struct shares {
  double cores_per_node;
  int nodes_per_host;
};

static struct shares measured_shares(void) {
  MPI_Comm node;
  int node_rank, size;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_free(&node);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  struct { int leads; cpu_set_t cpus; } mine, *all = malloc((size_t)size * sizeof mine);
  memset(&mine, 0, sizeof mine);
  mine.leads = node_rank == 0;
  CHECK(sched_getaffinity(0, sizeof mine.cpus, &mine.cpus) == 0);
  CHECK_MPI(MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, MPI_COMM_WORLD));
  struct shares out = {0, 0};
  int nodes = 0;
  for (int i = 0; i < size; ++i) {
    if (!all[i].leads) continue;
    int sharing = 0;
    for (int j = 0; j < size; ++j) sharing += all[j].leads && CPU_EQUAL(&all[i].cpus, &all[j].cpus);
    out.cores_per_node += CPU_COUNT(&all[i].cpus) / (double)sharing;
    if (CPU_EQUAL(&all[i].cpus, &mine.cpus)) out.nodes_per_host = sharing;
    ++nodes;
  }
  out.cores_per_node /= nodes;
  free(all);
  return out;
}

/* The cores_per_node and nodes_per_host a job's model uses, found without Strata: the cost file's lines where it
 * has them, else the shares above. */
static struct shares expected_shares(void) {
  struct shares out = measured_shares();
  const double cores = cost_file_value(" cores_per_node %lf"), nodes = cost_file_value(" nodes_per_host %lf");
  if (cores > 0) out.cores_per_node = cores;
  if (nodes > 0) out.nodes_per_host = (int)nodes;
  return out;
}

/* The algorithm a persistent call of `op` with `bytes` runs. */
static void persistent_algorithm(const char *op, MPI_Count bytes, char *name) {
  int size, len;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int doubles = (int)(bytes / 8);
  double *send = calloc((size_t)doubles * (size_t)size + 1, sizeof(double));
  double *recv = calloc((size_t)doubles * (size_t)size + 1, sizeof(double));
  MPI_Request r = MPI_REQUEST_NULL;
  if (strcmp(op, "barrier") == 0) CHECK_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  if (strcmp(op, "bcast") == 0)
    CHECK_MPI(MPI_Bcast_init(recv, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  if (strcmp(op, "reduce") == 0)
    CHECK_MPI(MPI_Reduce_init(send, recv, doubles, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  if (strcmp(op, "allreduce") == 0)
    CHECK_MPI(MPI_Allreduce_init(send, recv, doubles, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  if (strcmp(op, "allgather") == 0)
    CHECK_MPI(MPI_Allgather_init(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &r));
  if (strcmp(op, "gather") == 0)
    CHECK_MPI(MPI_Gather_init(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD,
                              MPI_INFO_NULL, &r));
  CHECK(r != MPI_REQUEST_NULL);
  CHECK_MPI(MPIX_Request_get_algorithm(r, name, &len));
  MPI_Info info;
  CHECK_MPI(MPIX_Request_get_coll_info(r, &info));
  char algorithm[MPI_MAX_OBJECT_NAME];
  get(info, "algorithm", algorithm, sizeof algorithm);
  CHECK(strcmp(algorithm, name) == 0);
  MPI_Info_free(&info);
  CHECK_MPI(MPI_Request_free(&r));
  free(send);
  free(recv);
}

static void check_answers(int expect_model) {
  const struct shares expected_share = expected_shares();
  const double cores_per_node = expected_share.cores_per_node;
  for (size_t o = 0; o < sizeof operations / sizeof *operations; ++o)
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; ++s) {
      MPI_Info info;
      CHECK_MPI(MPIX_Comm_get_coll_info(MPI_COMM_WORLD, operations[o], sizes[s], &info));
      char algorithm[MPI_MAX_OBJECT_NAME], reason[256], candidates[2048], persistent[MPI_MAX_OBJECT_NAME];
      get(info, "algorithm", algorithm, sizeof algorithm);
      get(info, "reason", reason, sizeof reason);
      get(info, "candidates", candidates, sizeof candidates);
      char source[256], expected[256];
      get(info, "cost_parameters", source, sizeof source);
      CHECK(strcmp(source, expected_cost_source(expected, sizeof expected)) == 0);
      char cores[32];
      get(info, "cores_per_node", cores, sizeof cores);
      const double off = atof(cores) - cores_per_node;
      CHECK(off <= 1e-5 * cores_per_node && -off <= 1e-5 * cores_per_node); /* "%g": 6 digits */
      CHECK(info_int(info, "nodes_per_host") == expected_share.nodes_per_host);
      const int grouped = strcmp(algorithm, "grouped") == 0, reported_groups = grouped ? info_int(info, "groups") : 0;
      MPI_Info_free(&info);
      check_same_everywhere(algorithm);
      check_same_everywhere(candidates); /* the predicted times too: every rank costs with the same figures */
      persistent_algorithm(operations[o], sizes[s], persistent);
      CHECK(strcmp(persistent, algorithm) == 0);
      const int model = strcmp(reason, "cost model") == 0;
      const int gather = strcmp(operations[o], "gather") == 0;  /* not costed: a rule decides */
      CHECK(model == (expect_model && !gather));
      int groups = 0;
      if (model)
        check_candidates(candidates, algorithm, &groups);
      else
        CHECK(candidates[0] == '\0');
      if (grouped) CHECK(reported_groups > 0 && (groups == 0 || reported_groups == groups));
    }
}

static void check_forced(void) {
  MPI_Comm c;
  MPI_Info hints;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
  CHECK_MPI(MPI_Info_create(&hints));
  CHECK_MPI(MPI_Info_set(hints, "strata_coll_bcast", "linear"));
  CHECK_MPI(MPI_Comm_set_info(c, hints));
  MPI_Info_free(&hints);
  MPI_Info info;
  char algorithm[MPI_MAX_OBJECT_NAME], reason[256];
  CHECK_MPI(MPIX_Comm_get_coll_info(c, "bcast", 8, &info));
  get(info, "algorithm", algorithm, sizeof algorithm);
  get(info, "reason", reason, sizeof reason);
  CHECK(strcmp(algorithm, "linear") == 0);
  CHECK(strcmp(reason, "forced by info key strata_coll_bcast") == 0);
  MPI_Info_free(&info);
  MPI_Comm_free(&c);
}

/* strata_coll_groups fixes the grouped family's G: reported, and the allreduce it runs sums right. A value that is
 * not a positive integer fails the collective with MPI_ERR_ARG, on every rank, and leaves the communicator usable. */
static void check_groups(void) {
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm c;
  MPI_Info hints;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
  CHECK_MPI(MPI_Info_create(&hints));
  CHECK_MPI(MPI_Info_set(hints, "strata_coll_allreduce", "grouped"));
  CHECK_MPI(MPI_Info_set(hints, "strata_coll_groups", "2"));
  CHECK_MPI(MPI_Comm_set_info(c, hints));
  MPI_Info info;
  char algorithm[MPI_MAX_OBJECT_NAME];
  CHECK_MPI(MPIX_Comm_get_coll_info(c, "allreduce", 64, &info));
  get(info, "algorithm", algorithm, sizeof algorithm);
  CHECK(strcmp(algorithm, "grouped") == 0);
  CHECK(info_int(info, "groups") == 2);
  MPI_Info_free(&info);
  double mine[3] = {rank, 1, -rank}, sum[3];
  CHECK_MPI(MPI_Allreduce(mine, sum, 3, MPI_DOUBLE, MPI_SUM, c));
  CHECK(sum[0] == size * (size - 1) / 2.0 && sum[1] == size && sum[2] == -sum[0]);

  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  CHECK_MPI(MPI_Info_set(hints, "strata_coll_groups", "0"));
  CHECK_MPI(MPI_Comm_set_info(c, hints));
  int cls, err = MPI_Allreduce(mine, sum, 3, MPI_DOUBLE, MPI_SUM, c);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_ARG);
  CHECK_MPI(MPI_Info_set(hints, "strata_coll_groups", "3"));
  CHECK_MPI(MPI_Comm_set_info(c, hints));
  CHECK_MPI(MPI_Allreduce(mine, sum, 3, MPI_DOUBLE, MPI_SUM, c));
  CHECK(sum[0] == size * (size - 1) / 2.0 && sum[1] == size && sum[2] == -sum[0]);
  MPI_Info_free(&hints);
  MPI_Comm_free(&c);
}

static void check_bad_input(void) {
  MPI_Info info;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN); /* MPI_COMM_NULL errors go there */
  int err = MPIX_Comm_get_coll_info(MPI_COMM_WORLD, "broadcast", 8, &info), cls;
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_ARG);
  err = MPIX_Comm_get_coll_info(MPI_COMM_WORLD, "gatherv", 8, &info);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_ARG);
  err = MPIX_Comm_get_coll_info(MPI_COMM_WORLD, "bcast", -1, &info);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_COUNT);
  err = MPIX_Comm_get_coll_info(MPI_COMM_WORLD, "bcast", 8, NULL);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_ARG);
  err = MPIX_Comm_get_coll_info(MPI_COMM_NULL, "bcast", 8, &info);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_COMM);
  MPI_Request r = MPI_REQUEST_NULL;
  err = MPIX_Request_get_coll_info(r, &info);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_REQUEST);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  /* Nothing broken after: the same query answers, and the collective it describes runs. */
  char algorithm[MPI_MAX_OBJECT_NAME];
  CHECK_MPI(MPIX_Comm_get_coll_info(MPI_COMM_WORLD, "bcast", 8, &info));
  get(info, "algorithm", algorithm, sizeof algorithm);
  CHECK(algorithm[0] != '\0');
  MPI_Info_free(&info);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  /* Usage: coll_query model|rules: whether the cost model is expected to choose (the communicator spans nodes). */
  CHECK(argc == 2);
  check_answers(strcmp(argv[1], "model") == 0);
  check_forced();
  check_groups();
  check_bad_input();
  MPI_Finalize();
  return 0;
}
