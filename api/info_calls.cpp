// Info calls (MPI-4.0 chapter 10, and MPI_Info_create_env / MPI_INFO_ENV of section 11.4). The object lives in
// runtime/info.*; this file maps handles onto it and copies strings in and out of C buffers.
//
// When: MPI-4.0 section 11.4.1 (Table 11.1) lets the info calls run at any time, before MPI_Init and after
// MPI_Finalize too, so they check their arguments with InfoCheck below, a Check made for any time. Only
// MPI_INFO_ENV waits for MPI_Init: it describes the started job.
//
// Handles: MPI_INFO_ENV is index 1 of infos(), registered when libmpi is loaded (so no other info handle can take
// that index) and filled with its content at its first use after MPI_Init. Code elsewhere in api/ should resolve
// info handles with info_of(), which fills MPI_INFO_ENV's content (infos().get(MPI_INFO_ENV) alone may see it
// still empty), and may make them with add_info().
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "api/check.hpp"
#include "runtime/info.hpp"
#include "runtime/lasting.hpp"
#include "runtime/state.hpp"

using namespace strata;
using namespace strata::api;

static_assert(runtime::kMaxInfoKey == MPI_MAX_INFO_KEY && runtime::kMaxInfoVal == MPI_MAX_INFO_VAL);

namespace strata::api {

namespace {

runtime::Info& env_object() {
  static auto& env = runtime::lasting<runtime::Info>();
  return env;
}

// Holds index 1 for MPI_INFO_ENV (its content is filled by info_env() below).
void reserve_info_env() {
  static const bool reserved = [] {
    if (infos().get(MPI_INFO_ENV) == nullptr) infos().put(index_of(MPI_INFO_ENV), &env_object());
    return true;
  }();
  (void)reserved;
}

// Done again when libmpi is loaded, before any call can run: an info handle made anywhere (even straight through
// infos().add) can then never take MPI_INFO_ENV's index.
[[maybe_unused]] const bool g_info_env_reserved = (reserve_info_env(), true);

// What this process knows of its job right now. After MPI_Init: the job size, the node name, the thread level
// requested. Before: the size mpiexec announces in STRATA_JOB_SIZE (1 for a singleton) and the level MPI_Init
// would request, so MPI_Info_create_env gives the same values on either side of MPI_Init (as MPICH does).
runtime::EnvFacts current_facts() {
  runtime::EnvFacts facts;
  const runtime::State& st = runtime::state();
  if (st.phase != runtime::Phase::Before) {
    facts.maxprocs = st.world.size;
    facts.host = st.world.hostname;
    facts.thread_level = st.thread_level_requested;
  } else {
    const char* size = std::getenv("STRATA_JOB_SIZE");
    facts.maxprocs = size ? std::atoi(size) : 1;
    facts.thread_level = MPI_THREAD_SINGLE;
  }
  return facts;
}

// MPI_INFO_ENV, its content built at its first use after MPI_Init; nullptr before MPI_Init.
runtime::Info* info_env() {
  reserve_info_env();
  static bool built = false;
  if (!built) {
    if (runtime::state().phase == runtime::Phase::Before) return nullptr;
    env_object() = runtime::environment_info(current_facts());
    built = true;
  }
  return &env_object();
}

}  // namespace

// The info object behind a handle (MPI_INFO_ENV included once MPI is initialised), nullptr for MPI_INFO_NULL and
// invalid handles.
runtime::Info* info_of(MPI_Info handle) {
  if (handle == MPI_INFO_ENV) return info_env();
  reserve_info_env();
  return infos().get(handle);
}

// A new handle owning a copy of `info`.
MPI_Info add_info(runtime::Info info) {
  reserve_info_env();
  return infos().add(new runtime::Info(std::move(info)));
}

}  // namespace strata::api

namespace {

// Check's chain at any time (Table 11.1), plus the info arguments: reports the first bad argument through
// MPI_COMM_SELF's handler (the initial error handler before MPI_Init and after MPI_Finalize, as api::raise decides).
class InfoCheck : public Check {
 public:
  explicit InfoCheck(const char* call) : Check(call, MPI_COMM_SELF, kAnyTime) {}

  InfoCheck& fail(const Status& s) {
    if (!s.ok()) Check::fail(s.error_class, s.message);
    return *this;
  }
  InfoCheck& fail(int error_class, const std::string& message) {
    Check::fail(error_class, message);
    return *this;
  }

  InfoCheck& info(MPI_Info handle, runtime::Info*& out) {
    if (!ok()) return *this;
    out = info_of(handle);
    if (out != nullptr) return *this;
    if (handle == MPI_INFO_NULL) return fail(MPI_ERR_INFO, "info is MPI_INFO_NULL");
    if (handle == MPI_INFO_ENV)
      return fail(MPI_ERR_INFO, "MPI_INFO_ENV is not available before MPI_Init (MPI_Info_create_env is)");
    return fail(MPI_ERR_INFO, "info handle " + std::to_string(handle) + " is not a valid info object");
  }
  // A key: not NULL, 1 to MPI_MAX_INFO_KEY characters.
  InfoCheck& key(const char* key) {
    if (ok() && key == nullptr) return fail(MPI_ERR_INFO_KEY, "key is NULL");
    return ok() ? fail(runtime::check_key(key)) : *this;
  }
  // A value to store: not NULL, at most MPI_MAX_INFO_VAL characters.
  InfoCheck& value(const char* value) {
    if (ok() && value == nullptr) return fail(MPI_ERR_INFO_VALUE, "value is NULL");
    return ok() ? fail(runtime::check_value(value)) : *this;
  }
  InfoCheck& non_negative(int n, const char* what) {
    if (ok() && n < 0) fail(MPI_ERR_ARG, std::string("negative ") + what + " " + std::to_string(n));
    return *this;
  }
};

// Copies at most `room` characters of s into out, then a terminator (out has room + 1 bytes).
void copy_out(const std::string& s, char* out, std::size_t room) {
  const std::size_t n = std::min(s.size(), room);
  std::memcpy(out, s.data(), n);
  out[n] = '\0';
}

}  // namespace

STRATA_PMPI(Info_create)
extern "C" int PMPI_Info_create(MPI_Info* info) {
  InfoCheck check("MPI_Info_create");
  check.not_null(info, "info");
  if (!check.ok()) return check.raise();
  *info = add_info(runtime::Info());
  return MPI_SUCCESS;
}

STRATA_PMPI(Info_create_env)
extern "C" int PMPI_Info_create_env(int argc, char* argv[], MPI_Info* info) {
  InfoCheck check("MPI_Info_create_env");
  check.non_negative(argc, "argc").not_null(info, "info");
  if (check.ok() && argc > 0 && argv == nullptr)
    check.fail(MPI_ERR_ARG, "argv is NULL with argc " + std::to_string(argc));
  if (!check.ok()) return check.raise();
  // The same construction as MPI_INFO_ENV's, from these arguments when given (else from /proc/self/cmdline).
  runtime::EnvFacts facts = current_facts();
  for (int i = 0; i < argc && argv[i] != nullptr; ++i) facts.argv.emplace_back(argv[i]);
  *info = add_info(runtime::environment_info(facts));
  return MPI_SUCCESS;
}

STRATA_PMPI(Info_set)
extern "C" int PMPI_Info_set(MPI_Info info, const char* key, const char* value) {
  runtime::Info* in = nullptr;
  InfoCheck check("MPI_Info_set");
  check.info(info, in).key(key).value(value);
  if (!check.ok()) return check.raise();
  if (Status s = in->set(key, value); !s.ok()) return check.fail(s).raise();
  return MPI_SUCCESS;
}

// Deprecated in MPI-4.0 (MPI_Info_get_string replaces it), still present: valuelen counts the characters value
// can take, the terminator excluded; a longer value is cut to valuelen characters.
STRATA_PMPI(Info_get)
extern "C" int PMPI_Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag) {
  runtime::Info* in = nullptr;
  InfoCheck check("MPI_Info_get");
  check.info(info, in).key(key).non_negative(valuelen, "valuelen").not_null(value, "value").not_null(flag, "flag");
  if (!check.ok()) return check.raise();
  const std::string* v = in->get(key);
  *flag = v != nullptr;
  if (v) copy_out(*v, value, static_cast<std::size_t>(valuelen));
  return MPI_SUCCESS;
}

// MPI-4.0 semantics: *buflen in is the size of value including the terminator; out (when the key is set) the
// value's length + 1. At most *buflen - 1 characters are copied, then a terminator; with *buflen 0 nothing is
// written and value may be NULL, so a first call can ask for the size.
STRATA_PMPI(Info_get_string)
extern "C" int PMPI_Info_get_string(MPI_Info info, const char* key, int* buflen, char* value, int* flag) {
  runtime::Info* in = nullptr;
  InfoCheck check("MPI_Info_get_string");
  check.info(info, in).key(key).not_null(buflen, "buflen").not_null(flag, "flag");
  if (check.ok()) check.non_negative(*buflen, "buflen");
  if (check.ok() && *buflen > 0) check.not_null(value, "value");
  if (!check.ok()) return check.raise();
  const std::string* v = in->get(key);
  *flag = v != nullptr;
  if (v == nullptr) return MPI_SUCCESS;
  if (*buflen > 0) copy_out(*v, value, static_cast<std::size_t>(*buflen - 1));
  *buflen = static_cast<int>(v->size()) + 1;
  return MPI_SUCCESS;
}

STRATA_PMPI(Info_get_valuelen)
extern "C" int PMPI_Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag) {
  runtime::Info* in = nullptr;
  InfoCheck check("MPI_Info_get_valuelen");
  check.info(info, in).key(key).not_null(valuelen, "valuelen").not_null(flag, "flag");
  if (!check.ok()) return check.raise();
  const std::string* v = in->get(key);
  *flag = v != nullptr;
  if (v) *valuelen = static_cast<int>(v->size());
  return MPI_SUCCESS;
}

STRATA_PMPI(Info_get_nkeys)
extern "C" int PMPI_Info_get_nkeys(MPI_Info info, int* nkeys) {
  runtime::Info* in = nullptr;
  InfoCheck check("MPI_Info_get_nkeys");
  check.info(info, in).not_null(nkeys, "nkeys");
  if (!check.ok()) return check.raise();
  *nkeys = in->nkeys();
  return MPI_SUCCESS;
}

// key must have room for MPI_MAX_INFO_KEY characters and the terminator.
STRATA_PMPI(Info_get_nthkey)
extern "C" int PMPI_Info_get_nthkey(MPI_Info info, int n, char* key) {
  runtime::Info* in = nullptr;
  InfoCheck check("MPI_Info_get_nthkey");
  check.info(info, in).not_null(key, "key");
  if (!check.ok()) return check.raise();
  std::string k;
  if (Status s = in->nthkey(n, k); !s.ok()) return check.fail(s).raise();
  copy_out(k, key, MPI_MAX_INFO_KEY);
  return MPI_SUCCESS;
}

STRATA_PMPI(Info_delete)
extern "C" int PMPI_Info_delete(MPI_Info info, const char* key) {
  runtime::Info* in = nullptr;
  InfoCheck check("MPI_Info_delete");
  check.info(info, in).key(key);
  if (!check.ok()) return check.raise();
  if (Status s = in->erase(key); !s.ok()) return check.fail(s).raise();
  return MPI_SUCCESS;
}

STRATA_PMPI(Info_dup)
extern "C" int PMPI_Info_dup(MPI_Info info, MPI_Info* newinfo) {
  runtime::Info* in = nullptr;
  InfoCheck check("MPI_Info_dup");
  check.info(info, in).not_null(newinfo, "newinfo");
  if (!check.ok()) return check.raise();
  *newinfo = add_info(in->dup());
  return MPI_SUCCESS;
}

STRATA_PMPI(Info_free)
extern "C" int PMPI_Info_free(MPI_Info* info) {
  runtime::Info* in = nullptr;
  InfoCheck check("MPI_Info_free");
  check.not_null(info, "info");
  if (check.ok() && *info == MPI_INFO_ENV)
    check.fail(MPI_ERR_INFO, "MPI_INFO_ENV is predefined and cannot be freed");
  if (check.ok()) check.info(*info, in);
  if (!check.ok()) return check.raise();
  infos().remove(*info);
  delete in;
  *info = MPI_INFO_NULL;
  return MPI_SUCCESS;
}
