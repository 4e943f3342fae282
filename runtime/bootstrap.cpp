#include "runtime/bootstrap.hpp"

#include <pmix.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace strata::runtime {
namespace {

bool g_launched = false;
pmix_proc_t g_self;

Status pmix_error(const char* what, pmix_status_t rc) {
  return error(kErrOther, std::string(what) + " failed: " + PMIx_Error_string(rc));
}

pmix_proc_t proc_of(int rank) {
  pmix_proc_t p;
  PMIX_LOAD_PROCID(&p, g_self.nspace, static_cast<pmix_rank_t>(rank));
  return p;
}

// Reads an unsigned job- or proc-level value whatever integer type the server stored it as.
bool get_uint(const pmix_proc_t& proc, const char* key, uint64_t& out) {
  pmix_value_t* val = nullptr;
  if (PMIx_Get(&proc, key, nullptr, 0, &val) != PMIX_SUCCESS || val == nullptr) return false;
  bool ok = true;
  switch (val->type) {
    case PMIX_UINT32: out = val->data.uint32; break;
    case PMIX_UINT16: out = val->data.uint16; break;
    case PMIX_UINT64: out = val->data.uint64; break;
    case PMIX_INT: out = static_cast<uint64_t>(val->data.integer); break;
    case PMIX_PROC_RANK: out = val->data.rank; break;
    default: ok = false;
  }
  PMIX_VALUE_RELEASE(val);
  return ok;
}

bool get_string(const pmix_proc_t& proc, const char* key, std::string& out) {
  pmix_value_t* val = nullptr;
  if (PMIx_Get(&proc, key, nullptr, 0, &val) != PMIX_SUCCESS || val == nullptr) return false;
  const bool ok = val->type == PMIX_STRING && val->data.string != nullptr;
  if (ok) out = val->data.string;
  PMIX_VALUE_RELEASE(val);
  return ok;
}

// A string registered by the launcher for `rank` (PMIX_RANK_WILDCARD: the job).
std::optional<std::string> launcher_string(pmix_rank_t rank, const char* key) {
  if (!g_launched) return std::nullopt;
  pmix_proc_t p = proc_of(0);
  p.rank = rank;
  pmix_info_t optional;  // what the launcher registered is local: never ask the server for more
  bool yes = true;
  PMIX_INFO_LOAD(&optional, PMIX_OPTIONAL, &yes, PMIX_BOOL);
  pmix_value_t* val = nullptr;
  std::optional<std::string> out;
  if (PMIx_Get(&p, key, &optional, 1, &val) == PMIX_SUCCESS && val != nullptr) {
    if (val->type == PMIX_STRING && val->data.string != nullptr) out = val->data.string;
    PMIX_VALUE_RELEASE(val);
  }
  PMIX_INFO_DESTRUCT(&optional);
  return out;
}

std::string real_hostname() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

}  // namespace

Status bootstrap_init(World& world) {
  world.hostname = real_hostname();
  if (std::getenv("PMIX_NAMESPACE") == nullptr) {  // no launcher: singleton
    world = World{0, 1, {0}, world.hostname, "singleton-" + std::to_string(getpid()), false};
    return {};
  }
  pmix_status_t rc = PMIx_Init(&g_self, nullptr, 0);
  if (rc != PMIX_SUCCESS) return pmix_error("PMIx_Init", rc);
  g_launched = true;
  world.launched = true;
  world.rank = static_cast<int>(g_self.rank);
  world.job_id = g_self.nspace;

  pmix_proc_t job = proc_of(0);
  job.rank = PMIX_RANK_WILDCARD;
  uint64_t size = 0;
  if (!get_uint(job, PMIX_JOB_SIZE, size) || size == 0) return error(kErrOther, "PMIx: no job size");
  world.size = static_cast<int>(size);

  // Node identity: PMIX_NODEID where the server gives it for every rank; some servers give it only for ranks on
  // our own node, so otherwise ranks are grouped by PMIX_HOSTNAME (ids in order of first appearance).
  world.node_of_rank.assign(size, 0);
  bool have_ids = true;
  for (int r = 0; r < world.size && have_ids; ++r) {
    uint64_t node = 0;
    have_ids = get_uint(proc_of(r), PMIX_NODEID, node);
    world.node_of_rank[r] = static_cast<uint32_t>(node);
  }
  if (!have_ids) {
    std::vector<std::string> hosts;
    for (int r = 0; r < world.size; ++r) {
      std::string host;
      if (!get_string(proc_of(r), PMIX_HOSTNAME, host))
        return error(kErrOther, "PMIx: neither node id nor hostname for rank " + std::to_string(r));
      auto it = std::find(hosts.begin(), hosts.end(), host);
      world.node_of_rank[r] = static_cast<uint32_t>(it - hosts.begin());
      if (it == hosts.end()) hosts.push_back(host);
    }
  }
  get_string(g_self, PMIX_HOSTNAME, world.hostname);
  return {};
}

void bootstrap_finalize() {
  if (g_launched) PMIx_Finalize(nullptr, 0);
  g_launched = false;
}

std::optional<std::string> launcher_topology_xml() { return launcher_string(PMIX_RANK_WILDCARD, PMIX_HWLOC_XML_V2); }

std::optional<std::string> launcher_job_string(const std::string& key) {
  return launcher_string(PMIX_RANK_WILDCARD, key.c_str());
}

std::optional<std::string> launcher_fabric_groups() { return launcher_string(PMIX_RANK_WILDCARD, PMIX_FABRIC_GROUPS); }

std::optional<std::string> rank_hostname(int rank) {
  std::string host;
  if (!g_launched || !get_string(proc_of(rank), PMIX_HOSTNAME, host)) return std::nullopt;
  return host;
}

std::optional<std::string> launcher_cpuset(int rank) {
  return launcher_string(static_cast<pmix_rank_t>(rank), PMIX_CPUSET);
}

Status publish(const std::string& key, const std::vector<char>& blob) {
  if (!g_launched) return {};
  pmix_value_t val;
  PMIX_VALUE_CONSTRUCT(&val);
  val.type = PMIX_BYTE_OBJECT;
  val.data.bo.bytes = const_cast<char*>(blob.data());
  val.data.bo.size = blob.size();
  pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key.c_str(), &val);
  if (rc != PMIX_SUCCESS) return pmix_error("PMIx_Put", rc);
  rc = PMIx_Commit();
  return rc == PMIX_SUCCESS ? Status{} : pmix_error("PMIx_Commit", rc);
}

static Status fence(bool collect) {
  if (!g_launched) return {};
  pmix_proc_t all = proc_of(0);
  all.rank = PMIX_RANK_WILDCARD;
  pmix_info_t info;
  PMIX_INFO_CONSTRUCT(&info);
  bool flag = true;
  PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &flag, PMIX_BOOL);
  pmix_status_t rc = PMIx_Fence(&all, 1, collect ? &info : nullptr, collect ? 1 : 0);
  PMIX_INFO_DESTRUCT(&info);
  return rc == PMIX_SUCCESS ? Status{} : pmix_error("PMIx_Fence", rc);
}

Status exchange() { return fence(true); }

Status barrier_nb(std::atomic<bool>* done) {
  if (!g_launched) {
    done->store(true);
    return {};
  }
  pmix_proc_t all = proc_of(0);
  all.rank = PMIX_RANK_WILDCARD;
  auto on_done = [](pmix_status_t, void* flag) { static_cast<std::atomic<bool>*>(flag)->store(true); };
  pmix_status_t rc = PMIx_Fence_nb(&all, 1, nullptr, 0, on_done, done);
  if (rc == PMIX_OPERATION_SUCCEEDED) done->store(true);  // finished at once: no callback comes
  return rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED ? Status{} : pmix_error("PMIx_Fence_nb", rc);
}
Status barrier() { return fence(false); }

Status lookup(int rank, const std::string& key, std::vector<char>& blob) {
  pmix_proc_t p = proc_of(rank);
  pmix_value_t* val = nullptr;
  pmix_status_t rc = PMIx_Get(&p, key.c_str(), nullptr, 0, &val);
  if (rc != PMIX_SUCCESS || val == nullptr) return pmix_error(("PMIx_Get " + key).c_str(), rc);
  if (val->type != PMIX_BYTE_OBJECT) {
    PMIX_VALUE_RELEASE(val);
    return error(kErrOther, "PMIx_Get " + key + ": unexpected type");
  }
  blob.assign(val->data.bo.bytes, val->data.bo.bytes + val->data.bo.size);
  PMIX_VALUE_RELEASE(val);
  return {};
}

void abort_job(int code, const std::string& message) {
  if (g_launched) {
    PMIx_Abort(code, message.c_str(), nullptr, 0);
    sleep(3);  // the launcher kills the job; this is only a fallback if it does not
  }
  _exit(code);
}

}  // namespace strata::runtime
