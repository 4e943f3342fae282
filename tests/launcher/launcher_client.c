/* A plain PMIx client that plays the part of an MPI rank in the launcher tests: each mode does what the
 * library would do (or a way of failing) and prints what it saw, for launcher_test.sh to check.
 * Deliberately independent of libmpi. */
#define _GNU_SOURCE
#include <pmix.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <ctype.h>
#include <sched.h>
#include <hwloc.h>

static pmix_proc_t self;
static uint32_t size;

static void die(const char *what, pmix_status_t rc) {
  fprintf(stderr, "client: %s failed: %s\n", what, PMIx_Error_string(rc));
  exit(90);
}

static void init(void) {
  pmix_status_t rc = PMIx_Init(&self, NULL, 0);
  if (rc != PMIX_SUCCESS) die("PMIx_Init", rc);
  pmix_proc_t wildcard;
  PMIX_LOAD_PROCID(&wildcard, self.nspace, PMIX_RANK_WILDCARD);
  pmix_value_t *val = NULL;
  if ((rc = PMIx_Get(&wildcard, PMIX_JOB_SIZE, NULL, 0, &val)) != PMIX_SUCCESS) die("PMIx_Get(JOB_SIZE)", rc);
  size = val->data.uint32;
  PMIX_VALUE_RELEASE(val);
}

static void finalize(void) {
  pmix_status_t rc = PMIx_Finalize(NULL, 0);
  if (rc != PMIX_SUCCESS) die("PMIx_Finalize", rc);
}

/* A barrier over the whole namespace; used by the ranks that must wait for a failing one forever. */
static void fence_all(int collect) {
  pmix_proc_t all;
  PMIX_LOAD_PROCID(&all, self.nspace, PMIX_RANK_WILDCARD);
  pmix_info_t info;
  bool yes = true;
  PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
  pmix_status_t rc = PMIx_Fence(&all, 1, collect ? &info : NULL, collect ? 1 : 0);
  if (rc != PMIX_SUCCESS) die("PMIx_Fence", rc);
}

static pmix_value_t *get_with(uint32_t rank, const char *key, pmix_info_t *info, size_t ninfo) {
  pmix_proc_t proc;
  PMIX_LOAD_PROCID(&proc, self.nspace, rank);
  pmix_value_t *val = NULL;
  pmix_status_t rc = PMIx_Get(&proc, key, info, ninfo, &val);
  if (rc != PMIX_SUCCESS) {
    fprintf(stderr, "client: rank %u: PMIx_Get(rank %u, %s): %s\n", self.rank, rank, key, PMIx_Error_string(rc));
    exit(91);
  }
  return val;
}

static pmix_value_t *get(uint32_t rank, const char *key) { return get_with(rank, key, NULL, 0); }

/* Like get(), but NULL when PMIx has no answer. */
static pmix_value_t *try_get(uint32_t rank, const char *key, pmix_info_t *info, size_t ninfo) {
  pmix_proc_t proc;
  PMIX_LOAD_PROCID(&proc, self.nspace, rank);
  pmix_value_t *val = NULL;
  return PMIx_Get(&proc, key, info, ninfo, &val) == PMIX_SUCCESS ? val : NULL;
}

/* "rank R size S node N host H lrank L" for itself, then per rank P as seen from here
 * "rank R peer P node_plain X node_job Y host H": X from a plain PMIx_Get (NA when PMIx has no answer:
 * PMIx 4.2 clients only answer it for ranks on their own node), Y with the PMIX_JOB_INFO directive. */
static int mode_info(void) {
  init();
  pmix_value_t *node = get(self.rank, PMIX_NODEID), *host = get(self.rank, PMIX_HOSTNAME);
  pmix_value_t *lrank = get(self.rank, PMIX_LOCAL_RANK);
  printf("rank %u size %u node %u host %s lrank %u\n", self.rank, size, node->data.uint32, host->data.string,
         (unsigned)lrank->data.uint16);
  pmix_info_t job_realm;
  PMIX_INFO_LOAD(&job_realm, PMIX_JOB_INFO, NULL, PMIX_BOOL);
  for (uint32_t r = 0; r < size; ++r) {
    pmix_value_t *plain = try_get(r, PMIX_NODEID, NULL, 0), *pn = get_with(r, PMIX_NODEID, &job_realm, 1);
    pmix_value_t *ph = get(r, PMIX_HOSTNAME);
    char plain_text[16] = "NA";
    if (plain) snprintf(plain_text, sizeof plain_text, "%u", plain->data.uint32);
    printf("rank %u peer %u node_plain %s node_job %u host %s\n", self.rank, r, plain_text, pn->data.uint32,
           ph->data.string);
    if (plain) PMIX_VALUE_RELEASE(plain);
    PMIX_VALUE_RELEASE(pn);
    PMIX_VALUE_RELEASE(ph);
  }
  fflush(stdout);
  finalize();
  return 0;
}

/* The library's bootstrap: put an address blob, commit, collecting fence, read every peer's blob. */
static int mode_exchange(void) {
  init();
  char blob[PMIX_MAX_NSLEN + 64];
  snprintf(blob, sizeof blob, "addr-of-%u-in-%s", self.rank, self.nspace);
  pmix_byte_object_t bo = {blob, strlen(blob) + 1};
  pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, "strata.addr", &(pmix_value_t){.type = PMIX_BYTE_OBJECT, .data.bo = bo});
  if (rc != PMIX_SUCCESS) die("PMIx_Put", rc);
  if ((rc = PMIx_Commit()) != PMIX_SUCCESS) die("PMIx_Commit", rc);
  fence_all(1);
  int bad = 0;
  for (uint32_t r = 0; r < size; ++r) {
    pmix_value_t *v = get(r, "strata.addr");
    char expect[PMIX_MAX_NSLEN + 64];
    snprintf(expect, sizeof expect, "addr-of-%u-in-%s", r, self.nspace);
    if (v->type != PMIX_BYTE_OBJECT || strcmp(v->data.bo.bytes, expect) != 0) {
      fprintf(stderr, "client: rank %u got a wrong blob from %u\n", self.rank, r);
      bad = 1;
    }
    PMIX_VALUE_RELEASE(v);
  }
  fence_all(0);
  if (!bad) printf("exchange ok rank %u\n", self.rank);
  finalize();
  return bad;
}

/* Rank `who` fails by `how`; every other rank waits for it in a barrier that can never complete (and
 * exits with 90 if PMIx fails the barrier, as a library might: mpiexec must still name `who`). */
static int mode_fail(const char *how, int who, int code) {
  init();
  printf("rank %u ready\n", self.rank);
  fflush(stdout);
  if ((int)self.rank == who) {
    if (strcmp(how, "abort") == 0) PMIx_Abort(code, "test abort", NULL, 0);
    if (strcmp(how, "segv") == 0) kill(getpid(), SIGSEGV);
    if (strcmp(how, "nofinalize") == 0) exit(0);
    sleep(30); /* an abort that did not end the job */
    return 80;
  }
  fence_all(0);
  return 81; /* the barrier completed: the launcher let a failed job continue */
}

/* A correct program whose ranks end with different codes: after a common MPI_Finalize, rank r1 exits
 * with c1 at once and rank r2 (if given) with c2 one second later; the others exit 0. */
static int mode_exit(int r1, int c1, int r2, int c2) {
  init();
  fence_all(0);
  finalize();
  if ((int)self.rank == r1) return c1;
  if ((int)self.rank == r2) {
    sleep(1);
    return c2;
  }
  return 0;
}

/* Ignores SIGTERM and leaves a child that does too, then hangs: only SIGKILL to the group ends them. */
static _Noreturn void mode_stubborn(int who_segv) {
  init();
  signal(SIGTERM, SIG_IGN);
  if (fork() == 0) {
    for (;;) pause();
  }
  printf("rank %u ready\n", self.rank);
  fflush(stdout);
  if ((int)self.rank == who_segv) {
    sleep(1);
    kill(getpid(), SIGSEGV);
  }
  for (;;) pause();
}

static _Noreturn void mode_hang(void) {
  init();
  printf("rank %u ready\n", self.rank);
  fflush(stdout);
  for (;;) pause();
}

/* Whole lines on stdout and stderr, plus a line written in pieces, to check --tag-output framing. */
static int mode_lines(void) {
  init();
  for (int i = 0; i < 3; ++i) {
    printf("out %d from %u\n", i, self.rank);
    fflush(stdout);
    fprintf(stderr, "err %d from %u\n", i, self.rank);
  }
  printf("pieces ");
  fflush(stdout);
  usleep(100000);
  printf("of %u\n", self.rank);
  printf("unterminated %u", self.rank);
  fflush(stdout);
  finalize();
  return 0;
}

static int mode_env(const char *var) {
  init();
  const char *value = getenv(var);
  printf("rank %u %s=%s\n", self.rank, var, value ? value : "(unset)");
  finalize();
  return 0;
}

static int mode_stdin(void) {
  init();
  char buffer[4096];
  size_t total = 0;
  ssize_t n;
  while ((n = read(0, buffer + total, sizeof buffer - 1 - total)) > 0) total += (size_t)n;
  buffer[total] = '\0';
  for (size_t i = 0; i < total; ++i)
    if (buffer[i] == '\n') buffer[i] = '|';
  printf("rank %u stdin %zu [%s]\n", self.rank, total, buffer);
  finalize();
  return 0;
}

/* A segment named like the library's, to check mpiexec removes it. Rank 0 then fails if asked. */
static int mode_shm(int fail) {
  init();
  char name[512];
  int n = snprintf(name, sizeof name, "/dev/shm/strata_");
  for (const char *c = self.nspace; *c; ++c) name[n++] = isalnum((unsigned char)*c) ? *c : '_';
  snprintf(name + n, sizeof name - n, "_test%u", self.rank);
  int fd = open(name, O_CREAT | O_WRONLY, 0600);
  if (fd < 0) return 92;
  close(fd);
  printf("created %s\n", name);
  fflush(stdout);
  fence_all(0);
  if (fail && self.rank == 0) PMIx_Abort(5, "shm test", NULL, 0);
  if (fail) fence_all(0);
  finalize();
  return 0;
}

/* A string the launcher registered, read exactly as runtime/bootstrap.cpp does (PMIX_OPTIONAL: what the
 * launcher registered is local). NULL when absent. */
static char *launcher_string(pmix_rank_t rank, const char *key) {
  pmix_proc_t proc;
  PMIX_LOAD_PROCID(&proc, self.nspace, rank);
  pmix_info_t optional;
  bool yes = true;
  PMIX_INFO_LOAD(&optional, PMIX_OPTIONAL, &yes, PMIX_BOOL);
  pmix_value_t *val = NULL;
  char *out = NULL;
  if (PMIx_Get(&proc, key, &optional, 1, &val) == PMIX_SUCCESS && val != NULL) {
    out = val->type == PMIX_STRING && val->data.string ? strdup(val->data.string) : strdup("(not a string)");
    PMIX_VALUE_RELEASE(val);
  }
  PMIX_INFO_DESTRUCT(&optional);
  return out;
}

/* "rank R xml none|<object counts>" from the launcher's PMIX_HWLOC_XML_V2 (loaded with hwloc here),
 * "rank R cpuset none|<PMIX_CPUSET>", "rank R affinity <cpus of sched_getaffinity>" and "rank R shares
 * <strata.node.cpus> <strata.host.nodes>" (none for one not published). */
static int mode_topo(void) {
  init();
  char *xml = launcher_string(PMIX_RANK_WILDCARD, PMIX_HWLOC_XML_V2);
  if (!xml) {
    printf("rank %u xml none\n", self.rank);
  } else {
    hwloc_topology_t t;
    hwloc_topology_init(&t);
    if (hwloc_topology_set_xmlbuffer(t, xml, (int)strlen(xml) + 1) != 0 || hwloc_topology_load(t) != 0) {
      printf("rank %u xml unloadable\n", self.rank);
    } else {
      static const hwloc_obj_type_t types[] = {HWLOC_OBJ_PACKAGE, HWLOC_OBJ_NUMANODE, HWLOC_OBJ_L3CACHE,
                                               HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE, HWLOC_OBJ_CORE, HWLOC_OBJ_PU};
      static const char *names[] = {"pack", "numa", "l3", "l2", "l1", "core", "pu"};
      printf("rank %u xml", self.rank);
      for (int i = 0; i < 7; ++i) printf(" %s:%d", names[i], hwloc_get_nbobjs_by_type(t, types[i]));
      printf("\n");
    }
    hwloc_topology_destroy(t);
    free(xml);
  }
  char *cpuset = launcher_string(self.rank, PMIX_CPUSET);
  printf("rank %u cpuset %s\n", self.rank, cpuset ? cpuset : "none");
  free(cpuset);
  cpu_set_t mask;
  CPU_ZERO(&mask);
  sched_getaffinity(0, sizeof mask, &mask);
  printf("rank %u affinity", self.rank);
  const char *sep = " ";
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &mask)) {
      printf("%s%d", sep, c);
      sep = ",";
    }
  printf("\n");
  char *node_cpus = launcher_string(PMIX_RANK_WILDCARD, "strata.node.cpus");
  char *host_nodes = launcher_string(PMIX_RANK_WILDCARD, "strata.host.nodes");
  printf("rank %u shares %s %s\n", self.rank, node_cpus ? node_cpus : "none", host_nodes ? host_nodes : "none");
  free(node_cpus);
  free(host_nodes);
  fflush(stdout);
  finalize();
  return 0;
}

/* "rank R racks none|<PMIX_FABRIC_GROUPS>" and "rank R switches none|<strata.fabric.switch>": the network levels
 * mpiexec --network publishes (job level), as a PMIx client reads them. */
static int mode_network(void) {
  init();
  char *racks = launcher_string(PMIX_RANK_WILDCARD, PMIX_FABRIC_GROUPS);
  char *switches = launcher_string(PMIX_RANK_WILDCARD, "strata.fabric.switch");
  printf("rank %u racks %s\n", self.rank, racks ? racks : "none");
  printf("rank %u switches %s\n", self.rank, switches ? switches : "none");
  fflush(stdout);
  free(racks);
  free(switches);
  finalize();
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  int a = argc > 2 ? atoi(argv[2]) : 0, b = argc > 3 ? atoi(argv[3]) : 0;
  int c = argc > 4 ? atoi(argv[4]) : -1, d = argc > 5 ? atoi(argv[5]) : 0;
  if (strcmp(mode, "info") == 0) return mode_info();
  if (strcmp(mode, "exchange") == 0) return mode_exchange();
  if (strcmp(mode, "abort") == 0 || strcmp(mode, "segv") == 0 || strcmp(mode, "nofinalize") == 0)
    return mode_fail(mode, a, b);
  if (strcmp(mode, "exit") == 0) return mode_exit(a, b, c, d);
  if (strcmp(mode, "stubborn") == 0) mode_stubborn(a);
  if (strcmp(mode, "hang") == 0) mode_hang();
  if (strcmp(mode, "lines") == 0) return mode_lines();
  if (strcmp(mode, "env") == 0 && argc > 2) return mode_env(argv[2]);
  if (strcmp(mode, "stdin") == 0) return mode_stdin();
  if (strcmp(mode, "topo") == 0) return mode_topo();
  if (strcmp(mode, "network") == 0) return mode_network();
  if (strcmp(mode, "shm") == 0) return mode_shm(a);
  if (strcmp(mode, "plain") == 0) {
    printf("plain %d\n", (int)getpid());
    return 0;
  }
  fprintf(stderr, "usage: launcher_client info|exchange|abort R C|segv R|nofinalize R|exit R1 C1 [R2 C2]|stubborn R|"
                  "hang|lines|env VAR|stdin|topo|shm FAIL|plain\n");
  return 2;
}
