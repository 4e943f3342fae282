/* The tools information interface, MPI_T (MPI-4.0 15.3), against expectations the test knows independently:
 * - MPI_T_init_thread / MPI_T_finalize nest (reference counted), work before MPI_Init and after MPI_Finalize, and
 *   every other call outside a pair is MPI_T_ERR_NOT_INITIALIZED;
 * - the control variables are exactly Strata's settings (names listed below), each with consistent info, the
 *   string-length protocol of 15.3.3, a get_index round trip, and the value of the environment this process has
 *   (set here with setenv before the first MPI_T call, and STRATA_CHECK_COLL by CTest);
 * - strata_coll_bcast is writable: the choice MPIX_Comm_get_coll_info reports and the algorithm a repeated
 *   MPI_Ibcast with the same arguments runs follow the value written; an unknown name is refused;
 * - the byte and message counters count only while started, reset and readreset give 0, write sets the value;
 *   the queue levels follow an unmatched message and an unmatched receive; continuous and read-only variables
 *   refuse start/stop and write/reset;
 * - the categories hold exactly the registered variables; there are no events or event sources;
 * - bad indexes, names, handles and sessions give their MPI_T_ERR_ classes, which MPI_Error_class and
 *   MPI_Error_string know. */
#include <limits.h>

#include "test_util.h"

#define CHECK_T(call, want)                                                                                       \
  do {                                                                                                            \
    int check_t_rc_ = (call);                                                                                     \
    if (check_t_rc_ != (want)) {                                                                                  \
      char check_t_msg_[64];                                                                                      \
      snprintf(check_t_msg_, sizeof check_t_msg_, " -> returned %d, expected %d", check_t_rc_, (int)(want));       \
      test_fail(__FILE__, __LINE__, #call, check_t_msg_);                                                         \
    }                                                                                                             \
  } while (0)

static const char *const kOperations[] = {"barrier",   "bcast",     "gather",        "gatherv",
                                          "scatter",   "scatterv",  "allgather",     "allgatherv",
                                          "alltoall",  "alltoallv", "alltoallw",     "reduce",
                                          "allreduce", "reduce_scatter", "reduce_scatter_block", "scan",
                                          "exscan"};
enum { kNumOperations = sizeof kOperations / sizeof kOperations[0] };
static const char *const kTransportCvars[] = {"strata_shm_rings",           "strata_p2p_cma",
                                              "strata_cma",                 "strata_slow_copy_distances",
                                              "strata_net_provider",        "strata_shm_provider"};
static const char *const kCostCvars[] = {"strata_cost_probe", "strata_cost_file"};
static const char *const kPvars[] = {"strata_p2p_messages_sent",       "strata_p2p_bytes_sent",
                                     "strata_p2p_messages_received",   "strata_p2p_bytes_received",
                                     "strata_p2p_unexpected_arrivals", "strata_p2p_posted_queue_length",
                                     "strata_p2p_unexpected_queue_length", "strata_p2p_messages_read"};
enum { kNumTransportCvars = sizeof kTransportCvars / sizeof kTransportCvars[0] };
enum { kNumCvars = 2 + kNumOperations + kNumTransportCvars + 2, kNumPvars = 8 };

static int rank, size;

static int cvar_index(const char *name) {
  int index = -1;
  CHECK_T(MPI_T_cvar_get_index(name, &index), MPI_SUCCESS);
  return index;
}

static int pvar_index(const char *name, int var_class) {
  int index = -1;
  CHECK_T(MPI_T_pvar_get_index(name, var_class, &index), MPI_SUCCESS);
  return index;
}

static int read_int_cvar(const char *name) {
  MPI_T_cvar_handle h;
  int count = 0, value = INT_MIN;
  CHECK_T(MPI_T_cvar_handle_alloc(cvar_index(name), NULL, &h, &count), MPI_SUCCESS);
  CHECK(count == 1);
  CHECK_T(MPI_T_cvar_read(h, &value), MPI_SUCCESS);
  CHECK_T(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
  CHECK(h == MPI_T_CVAR_HANDLE_NULL);
  return value;
}

static void read_text_cvar(const char *name, char *out, size_t room) {
  MPI_T_cvar_handle h;
  int count = 0;
  CHECK_T(MPI_T_cvar_handle_alloc(cvar_index(name), NULL, &h, &count), MPI_SUCCESS);
  CHECK(count >= 1 && (size_t)count <= room);
  memset(out, 0x5a, room);
  CHECK_T(MPI_T_cvar_read(h, out), MPI_SUCCESS);
  CHECK(memchr(out, '\0', (size_t)count) != NULL);  /* the value and its NUL fit in count chars */
  CHECK_T(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
}

static const char *env_or(const char *name, const char *fallback) {
  const char *v = getenv(name);
  return v && *v ? v : fallback;
}

/* ---- Error classes ------------------------------------------------------------------------------------------- */
static void check_error_classes(void) {
  const int classes[] = {MPI_T_ERR_MEMORY,           MPI_T_ERR_NOT_INITIALIZED, MPI_T_ERR_CANNOT_INIT,
                         MPI_T_ERR_NOT_ACCESSIBLE,   MPI_T_ERR_INVALID_INDEX,   MPI_T_ERR_INVALID_ITEM,
                         MPI_T_ERR_INVALID_HANDLE,   MPI_T_ERR_OUT_OF_HANDLES,  MPI_T_ERR_OUT_OF_SESSIONS,
                         MPI_T_ERR_INVALID_SESSION,  MPI_T_ERR_CVAR_SET_NOT_NOW, MPI_T_ERR_CVAR_SET_NEVER,
                         MPI_T_ERR_PVAR_NO_STARTSTOP, MPI_T_ERR_PVAR_NO_WRITE,  MPI_T_ERR_PVAR_NO_ATOMIC,
                         MPI_T_ERR_INVALID_NAME,     MPI_T_ERR_INVALID,         MPI_T_ERR_NOT_SUPPORTED};
  const char *names[] = {"MPI_T_ERR_MEMORY",           "MPI_T_ERR_NOT_INITIALIZED", "MPI_T_ERR_CANNOT_INIT",
                         "MPI_T_ERR_NOT_ACCESSIBLE",   "MPI_T_ERR_INVALID_INDEX",   "MPI_T_ERR_INVALID_ITEM",
                         "MPI_T_ERR_INVALID_HANDLE",   "MPI_T_ERR_OUT_OF_HANDLES",  "MPI_T_ERR_OUT_OF_SESSIONS",
                         "MPI_T_ERR_INVALID_SESSION",  "MPI_T_ERR_CVAR_SET_NOT_NOW", "MPI_T_ERR_CVAR_SET_NEVER",
                         "MPI_T_ERR_PVAR_NO_STARTSTOP", "MPI_T_ERR_PVAR_NO_WRITE",  "MPI_T_ERR_PVAR_NO_ATOMIC",
                         "MPI_T_ERR_INVALID_NAME",     "MPI_T_ERR_INVALID",         "MPI_T_ERR_NOT_SUPPORTED"};
  for (size_t i = 0; i < sizeof classes / sizeof classes[0]; ++i) {
    CHECK(classes[i] != MPI_SUCCESS && classes[i] <= MPI_ERR_LASTCODE);
    for (size_t j = 0; j < i; ++j) CHECK(classes[i] != classes[j]);
    int cls = -1;
    CHECK_MPI(MPI_Error_class(classes[i], &cls));
    CHECK(cls == classes[i]);
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK_MPI(MPI_Error_string(classes[i], text, &len));
    CHECK(len == (int)strlen(text) && strncmp(text, names[i], strlen(names[i])) == 0 &&
          text[strlen(names[i])] == ':');
  }
}

/* ---- Initialization ------------------------------------------------------------------------------------------ */
static void check_not_initialized(void) {
  int n = 0;
  MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL;
  CHECK_T(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
  CHECK_T(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
  CHECK_T(MPI_T_pvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
  CHECK_T(MPI_T_category_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
  CHECK_T(MPI_T_category_changed(&n), MPI_T_ERR_NOT_INITIALIZED);
  CHECK_T(MPI_T_event_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
  CHECK_T(MPI_T_source_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
  CHECK_T(MPI_T_pvar_session_create(&session), MPI_T_ERR_NOT_INITIALIZED);
  CHECK_T(MPI_T_cvar_get_index("strata_check_coll", &n), MPI_T_ERR_NOT_INITIALIZED);
  CHECK_T(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &n, NULL, NULL), MPI_T_ERR_NOT_INITIALIZED);
}

/* ---- Control variables --------------------------------------------------------------------------------------- */
static int is_algorithm_cvar(const char *name) {
  for (int o = 0; o < kNumOperations; ++o) {
    char want[64];
    snprintf(want, sizeof want, "strata_coll_%s", kOperations[o]);
    if (strcmp(name, want) == 0) return 1;
  }
  return 0;
}

static void check_cvar_list(void) {
  int n = -1;
  CHECK_T(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
  CHECK(n == kNumCvars);
  char names[kNumCvars][64];
  for (int i = 0; i < n; ++i) {
    /* The string protocol: length 0 asks for the length only; a short buffer truncates; a long one holds it all. */
    int name_len = 0;
    char probe[8] = "xxxxxxx";
    CHECK_T(MPI_T_cvar_get_info(i, probe, &name_len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_SUCCESS);
    CHECK(name_len > 1 && name_len <= 64 && strcmp(probe, "xxxxxxx") == 0);
    int short_len = 4;
    CHECK_T(MPI_T_cvar_get_info(i, probe, &short_len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_SUCCESS);
    CHECK(short_len == name_len && strlen(probe) == 3);
    int len = 64, desc_len = 0, verbosity = -1, bind = -1, scope = -1;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_T_enum enumtype = (MPI_T_enum)&n;
    CHECK_T(MPI_T_cvar_get_info(i, names[i], &len, &verbosity, &type, &enumtype, NULL, &desc_len, &bind, &scope),
            MPI_SUCCESS);
    CHECK(len == name_len && (int)strlen(names[i]) == len - 1 && strncmp(names[i], probe, 3) == 0);
    CHECK(strncmp(names[i], "strata_", 7) == 0);
    char *desc = test_malloc((size_t)desc_len);
    int desc_room = desc_len;
    CHECK_T(MPI_T_cvar_get_info(i, NULL, NULL, NULL, NULL, NULL, desc, &desc_room, NULL, NULL), MPI_SUCCESS);
    CHECK(desc_room == desc_len && (int)strlen(desc) == desc_len - 1 && desc_len > 40);
    /* Each description names its environment variable: STRATA_<NAME WITHOUT strata_> in capitals. */
    char upper[64];
    for (size_t c = 0; c <= strlen(names[i]); ++c)
      upper[c] = (char)(names[i][c] >= 'a' && names[i][c] <= 'z' ? names[i][c] - 'a' + 'A' : names[i][c]);
    CHECK(strncmp(desc, upper, strlen(upper)) == 0 && desc[strlen(upper)] == ':');
    free(desc);
    CHECK(verbosity >= MPI_T_VERBOSITY_USER_BASIC && verbosity <= MPI_T_VERBOSITY_MPIDEV_ALL);
    CHECK(type == MPI_INT || type == MPI_CHAR);
    CHECK(bind == MPI_T_BIND_NO_OBJECT);
    CHECK(scope == (is_algorithm_cvar(names[i]) ? MPI_T_SCOPE_ALL_EQ : MPI_T_SCOPE_READONLY));
    CHECK(enumtype == MPI_T_ENUM_NULL || strcmp(names[i], "strata_p2p_cma") == 0);
    CHECK(cvar_index(names[i]) == i);
    for (int j = 0; j < i; ++j) CHECK(strcmp(names[i], names[j]) != 0);

    /* Every handle reads; only the algorithm choices may be written. */
    MPI_T_cvar_handle h;
    int count = 0;
    CHECK_T(MPI_T_cvar_handle_alloc(i, NULL, &h, &count), MPI_SUCCESS);
    CHECK(type == MPI_INT ? count == 1 : count >= 1);
    char value[256];
    CHECK(count <= (int)sizeof value);
    CHECK_T(MPI_T_cvar_read(h, value), MPI_SUCCESS);
    if (!is_algorithm_cvar(names[i])) CHECK_T(MPI_T_cvar_write(h, value), MPI_T_ERR_CVAR_SET_NEVER);
    CHECK_T(MPI_T_cvar_read(h, NULL), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
  }
  /* Every expected name is there (and n says there is nothing else). */
  for (int o = 0; o < kNumOperations; ++o) {
    char want[64];
    snprintf(want, sizeof want, "strata_coll_%s", kOperations[o]);
    cvar_index(want);
  }
  for (int t = 0; t < kNumTransportCvars; ++t) cvar_index(kTransportCvars[t]);
  for (int c = 0; c < 2; ++c) cvar_index(kCostCvars[c]);
  cvar_index("strata_check_coll");
  cvar_index("strata_coll_groups");

  /* Bad input. */
  int index = -1, count = 0;
  MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
  CHECK_T(MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
  CHECK_T(MPI_T_cvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
  CHECK_T(MPI_T_cvar_get_index("strata_no_such_variable", &index), MPI_T_ERR_INVALID_NAME);
  CHECK_T(MPI_T_cvar_get_index(NULL, &index), MPI_T_ERR_INVALID);
  CHECK_T(MPI_T_cvar_get_num(NULL), MPI_T_ERR_INVALID);
  CHECK_T(MPI_T_cvar_handle_alloc(n, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
  CHECK_T(MPI_T_cvar_handle_alloc(0, NULL, NULL, &count), MPI_T_ERR_INVALID);
  CHECK_T(MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &count), MPI_T_ERR_INVALID_HANDLE);
  CHECK_T(MPI_T_cvar_write(MPI_T_CVAR_HANDLE_NULL, &count), MPI_T_ERR_INVALID_HANDLE);
  CHECK_T(MPI_T_cvar_handle_free(&h), MPI_T_ERR_INVALID_HANDLE);
  CHECK_T(MPI_T_cvar_handle_alloc(0, NULL, &h, &count), MPI_SUCCESS);
  MPI_T_cvar_handle stale = h;
  CHECK_T(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
  CHECK_T(MPI_T_cvar_read(stale, &count), MPI_T_ERR_INVALID_HANDLE);
}

static void check_cvar_values(void) {
  const char *check = getenv("STRATA_CHECK_COLL");
  CHECK(read_int_cvar("strata_check_coll") == (check && *check && strcmp(check, "0") != 0));
  CHECK(read_int_cvar("strata_coll_groups") == 3);
  CHECK(read_int_cvar("strata_shm_rings") == (strcmp(env_or("STRATA_SHM_RINGS", "1"), "0") != 0));
  CHECK(read_int_cvar("strata_cma") == (strcmp(env_or("STRATA_CMA", "1"), "0") != 0));
  const char *p2p_cma = env_or("STRATA_P2P_CMA", "");
  CHECK(read_int_cvar("strata_p2p_cma") == (*p2p_cma == '\0' ? -1 : strcmp(p2p_cma, "1") == 0));
  CHECK(read_int_cvar("strata_cost_probe") == (strcmp(env_or("STRATA_COST_PROBE", ""), "1") == 0));
  char text[256];
  read_text_cvar("strata_coll_bcast", text, sizeof text);
  CHECK(strcmp(text, "linear") == 0);
  read_text_cvar("strata_coll_allreduce", text, sizeof text);
  CHECK(strcmp(text, env_or("STRATA_COLL_ALLREDUCE", "")) == 0);
  read_text_cvar("strata_net_provider", text, sizeof text);
  CHECK(strcmp(text, env_or("STRATA_NET_PROVIDER", "tcp;ofi_rxm")) == 0);
  read_text_cvar("strata_shm_provider", text, sizeof text);
  CHECK(strcmp(text, env_or("STRATA_SHM_PROVIDER", "shm")) == 0);
  /* Measured unless set (p2p_distances checks what it means). */
  read_text_cvar("strata_slow_copy_distances", text, sizeof text);
  const char *slow = env_or("STRATA_SLOW_COPY_DISTANCES", "");
  CHECK(*slow ? strcmp(text, slow) == 0 : strcmp(text, "none") == 0 || strspn(text, "0123456789-,") == strlen(text));
  read_text_cvar("strata_cost_file", text, sizeof text);
  CHECK(strcmp(text, env_or("STRATA_COST_FILE", "")) == 0);

  /* strata_p2p_cma's enumeration: auto (-1), off (0), on (1). */
  MPI_T_enum e = MPI_T_ENUM_NULL;
  CHECK_T(MPI_T_cvar_get_info(cvar_index("strata_p2p_cma"), NULL, NULL, NULL, NULL, &e, NULL, NULL, NULL, NULL),
          MPI_SUCCESS);
  int num = 0, len = 64;
  char name[64];
  CHECK_T(MPI_T_enum_get_info(e, &num, name, &len), MPI_SUCCESS);
  CHECK(num == 3 && strcmp(name, "strata_p2p_cma_mode") == 0 && len == (int)strlen(name) + 1);
  const int values[] = {-1, 0, 1};
  const char *items[] = {"auto", "off", "on"};
  for (int i = 0; i < 3; ++i) {
    int value = 99;
    len = 64;
    CHECK_T(MPI_T_enum_get_item(e, i, &value, name, &len), MPI_SUCCESS);
    CHECK(value == values[i] && strcmp(name, items[i]) == 0);
  }
  CHECK_T(MPI_T_enum_get_item(e, 3, &num, NULL, NULL), MPI_T_ERR_INVALID_ITEM);
  CHECK_T(MPI_T_enum_get_item(e, -1, &num, NULL, NULL), MPI_T_ERR_INVALID_ITEM);
  CHECK_T(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &num, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
  CHECK_T(MPI_T_enum_get_item((MPI_T_enum)&num, 0, &num, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
}

/* What MPIX_Comm_get_coll_info says a bcast of 8 bytes on comm would run, and why. */
static void bcast_choice(MPI_Comm comm, char *algorithm, char *reason) {
  MPI_Info info;
  int flag = 0;
  CHECK_MPI(MPIX_Comm_get_coll_info(comm, "bcast", 8, &info));
  CHECK_MPI(MPI_Info_get(info, "algorithm", 63, algorithm, &flag));
  CHECK(flag);
  CHECK_MPI(MPI_Info_get(info, "reason", 255, reason, &flag));
  CHECK(flag);
  CHECK_MPI(MPI_Info_free(&info));
}

/* The algorithm a nonblocking bcast of `buf` runs (the same arguments each time: a repeat of the cached call). */
static void ibcast_algorithm(char *buf, char *algorithm) {
  MPI_Request request;
  int len = 0;
  CHECK_MPI(MPI_Ibcast(buf, 8, MPI_BYTE, 0, MPI_COMM_WORLD, &request));
  CHECK_MPI(MPIX_Request_get_algorithm(request, algorithm, &len));
  CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  for (int i = 0; i < 8; ++i) CHECK(buf[i] == (char)(i + 1));
}

static void check_algorithm_write(void) {
  char algorithm[64], reason[256], buf[8];
  for (int i = 0; i < 8; ++i) buf[i] = rank == 0 ? (char)(i + 1) : 0;
  bcast_choice(MPI_COMM_WORLD, algorithm, reason);
  CHECK(strcmp(algorithm, "linear") == 0 && strcmp(reason, "forced by STRATA_COLL_BCAST") == 0);
  ibcast_algorithm(buf, algorithm);
  CHECK(strcmp(algorithm, "linear") == 0);

  MPI_T_cvar_handle h;
  int count = 0;
  CHECK_T(MPI_T_cvar_handle_alloc(cvar_index("strata_coll_bcast"), NULL, &h, &count), MPI_SUCCESS);
  CHECK(count > (int)strlen("scatter_allgather"));  /* room for the longest bcast algorithm's name */
  char value[256];
  CHECK_T(MPI_T_cvar_write(h, "binomial"), MPI_SUCCESS);  /* every rank writes the same (scope ALL_EQ) */
  CHECK_T(MPI_T_cvar_read(h, value), MPI_SUCCESS);
  CHECK(strcmp(value, "binomial") == 0);
  bcast_choice(MPI_COMM_WORLD, algorithm, reason);
  CHECK(strcmp(algorithm, "binomial") == 0 && strcmp(reason, "forced by STRATA_COLL_BCAST") == 0);
  /* The same call as before, which the communicator cached with linear, now runs binomial on every rank. */
  ibcast_algorithm(buf, algorithm);
  CHECK(strcmp(algorithm, "binomial") == 0);
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  bcast_choice(dup, algorithm, reason);
  CHECK(strcmp(algorithm, "binomial") == 0);

  /* An unknown name is refused and changes nothing. */
  CHECK_T(MPI_T_cvar_write(h, "no_such_algorithm"), MPI_T_ERR_INVALID);
  CHECK_T(MPI_T_cvar_read(h, value), MPI_SUCCESS);
  CHECK(strcmp(value, "binomial") == 0);
  bcast_choice(dup, algorithm, reason);
  CHECK(strcmp(algorithm, "binomial") == 0);
  CHECK_T(MPI_T_cvar_write(h, NULL), MPI_T_ERR_INVALID);

  /* "" returns to the automatic choice. */
  CHECK_T(MPI_T_cvar_write(h, ""), MPI_SUCCESS);
  bcast_choice(dup, algorithm, reason);
  CHECK(strstr(reason, "forced") == NULL);
  CHECK_T(MPI_T_cvar_write(h, "linear"), MPI_SUCCESS);
  bcast_choice(dup, algorithm, reason);
  CHECK(strcmp(algorithm, "linear") == 0);
  CHECK_MPI(MPI_Comm_free(&dup));
  CHECK_T(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
}

/* ---- Performance variables ----------------------------------------------------------------------------------- */
static unsigned long long read_pvar(MPI_T_pvar_session s, MPI_T_pvar_handle h) {
  unsigned long long value = 0;
  CHECK_T(MPI_T_pvar_read(s, h, &value), MPI_SUCCESS);
  return value;
}

enum { kMessage = 1000 };

/* One message of kMessage bytes to the next rank, one from the previous (to itself at one rank). */
static void exchange(void) {
  static char out[kMessage], in[kMessage];
  CHECK_MPI(MPI_Sendrecv(out, kMessage, MPI_BYTE, (rank + 1) % size, 7, in, kMessage, MPI_BYTE,
                         (rank + size - 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

static void check_pvar_list(void) {
  int n = -1;
  CHECK_T(MPI_T_pvar_get_num(&n), MPI_SUCCESS);
  CHECK(n == kNumPvars);
  for (int i = 0; i < n; ++i) {
    char name[64];
    int len = sizeof name, verbosity = -1, var_class = -1, bind = -1, readonly = -1, continuous = -1, atomic = -1;
    int desc_len = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_T_enum e = (MPI_T_enum)&n;
    CHECK_T(MPI_T_pvar_get_info(i, name, &len, &verbosity, &var_class, &type, &e, NULL, &desc_len, &bind, &readonly,
                                &continuous, &atomic),
            MPI_SUCCESS);
    CHECK(len == (int)strlen(name) + 1 && desc_len > 20);
    int level = strstr(name, "_queue_length") != NULL;
    CHECK(var_class == (level ? MPI_T_PVAR_CLASS_LEVEL : MPI_T_PVAR_CLASS_COUNTER));
    CHECK(type == MPI_UNSIGNED_LONG_LONG && e == MPI_T_ENUM_NULL && bind == MPI_T_BIND_NO_OBJECT);
    CHECK(readonly == level && continuous == level && atomic == !level);
    CHECK(verbosity >= MPI_T_VERBOSITY_USER_BASIC && verbosity <= MPI_T_VERBOSITY_MPIDEV_ALL);
    CHECK(strcmp(name, kPvars[i]) == 0);
    CHECK(pvar_index(name, var_class) == i);
    int index = -1;
    CHECK_T(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_TIMER, &index), MPI_T_ERR_INVALID_NAME);
  }
  CHECK_T(MPI_T_pvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
          MPI_T_ERR_INVALID_INDEX);
  CHECK_T(MPI_T_pvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
          MPI_T_ERR_INVALID_INDEX);
  CHECK_T(MPI_T_pvar_get_index("strata_no_such_variable", MPI_T_PVAR_CLASS_COUNTER, &n), MPI_T_ERR_INVALID_NAME);
}

static void check_counters(void) {
  MPI_T_pvar_session s;
  MPI_T_pvar_handle bytes, messages, received, bytes_again;
  int count = 0;
  CHECK_T(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
  CHECK_T(MPI_T_pvar_handle_alloc(s, pvar_index("strata_p2p_bytes_sent", MPI_T_PVAR_CLASS_COUNTER), NULL, &bytes,
                                  &count),
          MPI_SUCCESS);
  CHECK(count == 1);
  CHECK_T(MPI_T_pvar_handle_alloc(s, pvar_index("strata_p2p_messages_sent", MPI_T_PVAR_CLASS_COUNTER), NULL,
                                  &messages, &count),
          MPI_SUCCESS);
  CHECK_T(MPI_T_pvar_handle_alloc(s, pvar_index("strata_p2p_bytes_received", MPI_T_PVAR_CLASS_COUNTER), NULL,
                                  &received, &count),
          MPI_SUCCESS);
  CHECK_T(MPI_T_pvar_handle_alloc(s, pvar_index("strata_p2p_bytes_sent", MPI_T_PVAR_CLASS_COUNTER), NULL,
                                  &bytes_again, &count),
          MPI_SUCCESS);

  /* Stopped from the start: nothing counts. */
  exchange();
  CHECK(read_pvar(s, bytes) == 0 && read_pvar(s, messages) == 0);

  /* Started: a known message counts at least its size (and exactly once per message here: no other sends). */
  CHECK_T(MPI_T_pvar_start(s, bytes), MPI_SUCCESS);
  CHECK_T(MPI_T_pvar_start(s, messages), MPI_SUCCESS);
  CHECK_T(MPI_T_pvar_start(s, received), MPI_SUCCESS);
  exchange();
  CHECK_T(MPI_T_pvar_stop(s, bytes), MPI_SUCCESS);
  CHECK_T(MPI_T_pvar_stop(s, messages), MPI_SUCCESS);
  CHECK_T(MPI_T_pvar_stop(s, received), MPI_SUCCESS);
  const unsigned long long sent = read_pvar(s, bytes);
  CHECK(sent >= kMessage && read_pvar(s, messages) >= 1 && read_pvar(s, received) >= kMessage);
  CHECK(read_pvar(s, bytes_again) == 0);  /* another handle of the same variable, never started */

  /* Stopped again: the value holds while messages go. */
  exchange();
  CHECK(read_pvar(s, bytes) == sent);

  /* Started twice: counts on from the value it had. */
  CHECK_T(MPI_T_pvar_start(s, bytes), MPI_SUCCESS);
  exchange();
  CHECK(read_pvar(s, bytes) >= sent + kMessage);

  /* readreset reads and resets at once; reset gives 0; write sets the value. */
  unsigned long long value = 0;
  CHECK_T(MPI_T_pvar_readreset(s, bytes, &value), MPI_SUCCESS);
  CHECK(value >= sent + kMessage);
  CHECK(read_pvar(s, bytes) == 0);  /* no message since */
  exchange();
  CHECK(read_pvar(s, bytes) >= kMessage);
  CHECK_T(MPI_T_pvar_reset(s, bytes), MPI_SUCCESS);
  CHECK(read_pvar(s, bytes) == 0);
  const unsigned long long set = 42;
  CHECK_T(MPI_T_pvar_write(s, bytes, &set), MPI_SUCCESS);
  CHECK(read_pvar(s, bytes) == 42);
  exchange();
  CHECK(read_pvar(s, bytes) >= 42 + kMessage);
  CHECK_T(MPI_T_pvar_stop(s, bytes), MPI_SUCCESS);

  /* MPI_T_PVAR_ALL_HANDLES: start, stop and reset every handle of the session; read and write take none. */
  CHECK_T(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
  CHECK(read_pvar(s, bytes) == 0 && read_pvar(s, messages) == 0 && read_pvar(s, received) == 0);
  CHECK_T(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
  exchange();
  CHECK_T(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
  CHECK(read_pvar(s, bytes) >= kMessage && read_pvar(s, bytes_again) >= kMessage &&
        read_pvar(s, messages) >= 1 && read_pvar(s, received) >= kMessage);
  value = read_pvar(s, bytes_again);
  exchange();
  CHECK(read_pvar(s, bytes_again) == value);
  CHECK_T(MPI_T_pvar_read(s, MPI_T_PVAR_ALL_HANDLES, &value), MPI_T_ERR_INVALID_HANDLE);
  CHECK_T(MPI_T_pvar_write(s, MPI_T_PVAR_ALL_HANDLES, &value), MPI_T_ERR_INVALID_HANDLE);
  CHECK_T(MPI_T_pvar_readreset(s, MPI_T_PVAR_ALL_HANDLES, &value), MPI_T_ERR_INVALID_HANDLE);
  CHECK_T(MPI_T_pvar_read(s, bytes, NULL), MPI_T_ERR_INVALID);

  /* Handles belong to their session; a freed handle or session is invalid. */
  MPI_T_pvar_session other;
  CHECK_T(MPI_T_pvar_session_create(&other), MPI_SUCCESS);
  CHECK_T(MPI_T_pvar_read(other, bytes, &value), MPI_T_ERR_INVALID_HANDLE);
  CHECK_T(MPI_T_pvar_start(other, bytes), MPI_T_ERR_INVALID_HANDLE);
  CHECK_T(MPI_T_pvar_handle_alloc(other, kNumPvars, NULL, &bytes_again, &count), MPI_T_ERR_INVALID_INDEX);
  CHECK_T(MPI_T_pvar_read(MPI_T_PVAR_SESSION_NULL, bytes, &value), MPI_T_ERR_INVALID_SESSION);
  CHECK_T(MPI_T_pvar_handle_alloc(MPI_T_PVAR_SESSION_NULL, 0, NULL, &bytes_again, &count),
          MPI_T_ERR_INVALID_SESSION);
  MPI_T_pvar_session freed = other;
  CHECK_T(MPI_T_pvar_session_free(&other), MPI_SUCCESS);
  CHECK(other == MPI_T_PVAR_SESSION_NULL);
  CHECK_T(MPI_T_pvar_session_free(&freed), MPI_T_ERR_INVALID_SESSION);
  MPI_T_pvar_handle gone = messages;
  CHECK_T(MPI_T_pvar_handle_free(s, &messages), MPI_SUCCESS);
  CHECK(messages == MPI_T_PVAR_HANDLE_NULL);
  CHECK_T(MPI_T_pvar_read(s, gone, &value), MPI_T_ERR_INVALID_HANDLE);
  CHECK_T(MPI_T_pvar_handle_free(s, &gone), MPI_T_ERR_INVALID_HANDLE);
  CHECK_T(MPI_T_pvar_session_free(&s), MPI_SUCCESS);  /* frees its remaining handles */
}

static void check_own_levels(MPI_T_pvar_session s, MPI_T_pvar_handle unexpected, MPI_T_pvar_handle posted);

static void check_levels(void) {
  MPI_T_pvar_session s;
  MPI_T_pvar_handle unexpected, posted;
  int count = 0;
  CHECK_T(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
  CHECK_T(MPI_T_pvar_handle_alloc(s, pvar_index("strata_p2p_unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL), NULL,
                                  &unexpected, &count),
          MPI_SUCCESS);
  CHECK_T(MPI_T_pvar_handle_alloc(s, pvar_index("strata_p2p_posted_queue_length", MPI_T_PVAR_CLASS_LEVEL), NULL,
                                  &posted, &count),
          MPI_SUCCESS);
  unsigned long long value = 0;
  /* Continuous and read-only. */
  CHECK_T(MPI_T_pvar_start(s, unexpected), MPI_T_ERR_PVAR_NO_STARTSTOP);
  CHECK_T(MPI_T_pvar_stop(s, unexpected), MPI_T_ERR_PVAR_NO_STARTSTOP);
  CHECK_T(MPI_T_pvar_write(s, unexpected, &value), MPI_T_ERR_PVAR_NO_WRITE);
  CHECK_T(MPI_T_pvar_reset(s, unexpected), MPI_T_ERR_PVAR_NO_WRITE);
  CHECK_T(MPI_T_pvar_readreset(s, unexpected, &value), MPI_T_ERR_PVAR_NO_WRITE);
  CHECK_T(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);  /* skips the continuous ones */
  CHECK_T(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);  /* skips the read-only ones */

  /* One rank at a time, while every other rank waits in a receive for its token: nothing but its own
   * self-messages can then reach the checking rank's queues (a peer running ahead into the next collective would
   * leave messages in its unexpected queue). */
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  for (int turn = 0; turn < size; ++turn) {
    int token = 0;
    if (rank != turn) {
      CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, turn, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      continue;
    }
    check_own_levels(s, unexpected, posted);
    for (int r = 0; r < size; ++r)
      if (r != rank) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, r, 13, MPI_COMM_WORLD));
  }
  CHECK_T(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
}

static void check_own_levels(MPI_T_pvar_session s, MPI_T_pvar_handle unexpected, MPI_T_pvar_handle posted) {
  CHECK(read_pvar(s, unexpected) == 0 && read_pvar(s, posted) == 0);
  int out = 5, in = 0, flag = 0;
  MPI_Request send;
  CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, rank, 11, MPI_COMM_WORLD, &send));
  while (!flag) CHECK_MPI(MPI_Iprobe(rank, 11, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
  CHECK(read_pvar(s, unexpected) == 1);  /* arrived, no receive yet */
  CHECK(read_pvar(s, unexpected) == 1);  /* reading changes nothing */
  CHECK_MPI(MPI_Recv(&in, 1, MPI_INT, rank, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&send, MPI_STATUS_IGNORE));
  CHECK(in == 5 && read_pvar(s, unexpected) == 0);

  MPI_Request recv;
  CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, rank, 12, MPI_COMM_WORLD, &recv));
  CHECK(read_pvar(s, posted) == 1 && read_pvar(s, unexpected) == 0);  /* posted, no message yet */
  CHECK_MPI(MPI_Send(&out, 1, MPI_INT, rank, 12, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&recv, MPI_STATUS_IGNORE));
  CHECK(read_pvar(s, posted) == 0);
}

/* ---- Categories ---------------------------------------------------------------------------------------------- */
static int category_named(const char *name) {
  int index = -1;
  CHECK_T(MPI_T_category_get_index(name, &index), MPI_SUCCESS);
  return index;
}

static void check_categories(void) {
  int n = -1, stamp = -1, stamp_again = -2;
  CHECK_T(MPI_T_category_changed(&stamp), MPI_SUCCESS);
  CHECK_T(MPI_T_category_get_num(&n), MPI_SUCCESS);
  CHECK(n == 4);
  const char *names[] = {"strata", "strata_collectives", "strata_transport", "strata_cost_model"};
  for (int c = 0; c < 4; ++c) {
    const int index = category_named(names[c]);
    char name[64];
    int len = sizeof name, desc_len = 0, ncvars = -1, npvars = -1, ncats = -1, nevents = -1;
    CHECK_T(MPI_T_category_get_info(index, name, &len, NULL, &desc_len, &ncvars, &npvars, &ncats), MPI_SUCCESS);
    CHECK(strcmp(name, names[c]) == 0 && len == (int)strlen(name) + 1 && desc_len > 10);
    CHECK_T(MPI_T_category_get_num_events(index, &nevents), MPI_SUCCESS);
    CHECK(nevents == 0);
    int cvars[64], pvars[64], cats[8];
    CHECK(ncvars <= 64 && npvars <= 64 && ncats <= 8);
    CHECK_T(MPI_T_category_get_cvars(index, ncvars, cvars), MPI_SUCCESS);
    CHECK_T(MPI_T_category_get_pvars(index, npvars, pvars), MPI_SUCCESS);
    CHECK_T(MPI_T_category_get_categories(index, ncats, cats), MPI_SUCCESS);
    CHECK_T(MPI_T_category_get_events(index, 0, NULL), MPI_SUCCESS);
    if (c == 0) {  /* the root holds the three layers and no variable */
      CHECK(ncvars == 0 && npvars == 0 && ncats == 3);
      for (int k = 0; k < 3; ++k) CHECK(cats[k] == category_named(names[k + 1]));
      continue;
    }
    CHECK(ncats == 0);
    /* Exactly the variables of its layer. */
    int want_cvars = c == 1 ? 2 + kNumOperations : c == 2 ? kNumTransportCvars : 2;
    CHECK(ncvars == want_cvars);
    for (int k = 0; k < ncvars; ++k) {
      char cname[64];
      int clen = sizeof cname;
      CHECK_T(MPI_T_cvar_get_info(cvars[k], cname, &clen, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_SUCCESS);
      if (c == 1)
        CHECK(is_algorithm_cvar(cname) || strcmp(cname, "strata_check_coll") == 0 ||
              strcmp(cname, "strata_coll_groups") == 0);
      else if (c == 2)
        CHECK(cvars[k] == cvar_index(kTransportCvars[k]));
      else
        CHECK(cvars[k] == cvar_index(kCostCvars[k]));
      for (int j = 0; j < k; ++j) CHECK(cvars[j] != cvars[k]);
    }
    CHECK(npvars == (c == 2 ? kNumPvars : 0));
    for (int k = 0; k < npvars; ++k) CHECK(pvars[k] == k);
    /* A short list gets the first entries only. */
    if (ncvars > 1) {
      int two[3] = {-7, -7, -7};
      CHECK_T(MPI_T_category_get_cvars(index, 2, two), MPI_SUCCESS);
      CHECK(two[0] == cvars[0] && two[1] == cvars[1] && two[2] == -7);
    }
  }
  int index = -1;
  CHECK_T(MPI_T_category_get_index("strata_no_such_category", &index), MPI_T_ERR_INVALID_NAME);
  CHECK_T(MPI_T_category_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
  CHECK_T(MPI_T_category_get_cvars(-1, 0, NULL), MPI_T_ERR_INVALID_INDEX);
  CHECK_T(MPI_T_category_get_pvars(n, 0, NULL), MPI_T_ERR_INVALID_INDEX);
  CHECK_T(MPI_T_category_get_categories(0, 1, NULL), MPI_T_ERR_INVALID);
  CHECK_T(MPI_T_category_get_cvars(0, -1, &index), MPI_T_ERR_INVALID);
  CHECK_T(MPI_T_category_changed(&stamp_again), MPI_SUCCESS);
  CHECK(stamp == stamp_again);
}

/* ---- Events and sources: none -------------------------------------------------------------------------------- */
static void ignore_free(MPI_T_event_registration r, MPI_T_cb_safety s, void *d) { (void)r, (void)s, (void)d; }

static void check_events(void) {
  int n = -1, index = -1;
  CHECK_T(MPI_T_event_get_num(&n), MPI_SUCCESS);
  CHECK(n == 0);
  CHECK_T(MPI_T_source_get_num(&n), MPI_SUCCESS);
  CHECK(n == 0);
  CHECK_T(MPI_T_event_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
          MPI_T_ERR_INVALID_INDEX);
  CHECK_T(MPI_T_event_get_index("strata_anything", &index), MPI_T_ERR_INVALID_NAME);
  MPI_T_event_registration r = MPI_T_EVENT_REGISTRATION_NULL;
  CHECK_T(MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, &r), MPI_T_ERR_INVALID_INDEX);
  CHECK_T(MPI_T_event_handle_set_info(r, MPI_INFO_NULL), MPI_T_ERR_INVALID_HANDLE);
  CHECK_T(MPI_T_event_handle_free(r, NULL, ignore_free), MPI_T_ERR_INVALID_HANDLE);
  CHECK_T(MPI_T_event_callback_set_info(r, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL), MPI_T_ERR_INVALID_HANDLE);
  MPI_Count ticks = 0;
  CHECK_T(MPI_T_source_get_timestamp(0, &ticks), MPI_T_ERR_INVALID_INDEX);
  MPI_T_source_order order;
  CHECK_T(MPI_T_source_get_info(0, NULL, NULL, NULL, NULL, &order, &ticks, &ticks, NULL), MPI_T_ERR_INVALID_INDEX);
  CHECK_T(MPI_T_event_get_timestamp((MPI_T_event_instance)&n, &ticks), MPI_T_ERR_INVALID_HANDLE);
}

int main(int argc, char **argv) {
  /* The settings this process reads (CTest sets STRATA_CHECK_COLL): set before anything reads them. */
  setenv("STRATA_COLL_BCAST", "linear", 1);
  setenv("STRATA_COLL_GROUPS", "3", 1);

  check_not_initialized();
  check_error_classes();  /* MPI_Error_class and MPI_Error_string work before MPI_Init */

  /* Nested pairs, before MPI_Init: the interface stays up until the outermost MPI_T_finalize. */
  int provided = -1;
  CHECK_T(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
  CHECK(provided == MPI_THREAD_SINGLE);
  CHECK_T(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided), MPI_SUCCESS);
  CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE);
  CHECK_T(MPI_T_init_thread(MPI_THREAD_SINGLE, NULL), MPI_T_ERR_INVALID);
  CHECK_T(MPI_T_finalize(), MPI_SUCCESS);
  int n = 0;
  CHECK_T(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
  check_cvar_list();
  check_cvar_values();

  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  check_error_classes();
  check_algorithm_write();
  check_pvar_list();
  check_counters();
  check_levels();
  check_categories();
  check_events();

  /* A session that outlives MPI_Finalize still reads. */
  MPI_T_pvar_session s;
  MPI_T_pvar_handle sent;
  int count = 0;
  CHECK_T(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
  CHECK_T(MPI_T_pvar_handle_alloc(s, pvar_index("strata_p2p_messages_sent", MPI_T_PVAR_CLASS_COUNTER), NULL, &sent,
                                  &count),
          MPI_SUCCESS);
  CHECK_T(MPI_T_pvar_start(s, sent), MPI_SUCCESS);
  exchange();
  if (rank == 0) printf("tools_interface: %d ranks, %d control variables, %d performance variables: OK\n", size,
                        kNumCvars, kNumPvars);
  CHECK_MPI(MPI_Finalize());

  CHECK_T(MPI_T_pvar_stop(s, sent), MPI_SUCCESS);
  unsigned long long value = 0;
  CHECK_T(MPI_T_pvar_read(s, sent, &value), MPI_SUCCESS);
  CHECK(value >= 1);  /* the exchange's message */
  CHECK_T(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
  CHECK(n == kNumCvars);
  CHECK_T(MPI_T_finalize(), MPI_SUCCESS);  /* the outermost: everything ends */
  check_not_initialized();
  CHECK_T(MPI_T_pvar_read(s, sent, &value), MPI_T_ERR_NOT_INITIALIZED);

  /* And it starts again. */
  CHECK_T(MPI_T_init_thread(MPI_THREAD_FUNNELED, &provided), MPI_SUCCESS);
  CHECK_T(MPI_T_pvar_read(s, sent, &value), MPI_T_ERR_INVALID_SESSION);  /* gone with the last MPI_T_finalize */
  CHECK_T(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
  CHECK_T(MPI_T_finalize(), MPI_SUCCESS);
  return 0;
}
