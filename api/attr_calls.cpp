// Attribute calls (MPI-4.0 7.7) and the predefined attributes of MPI_COMM_WORLD (11.1.2).
#include <algorithm>

#include "api/attributes.hpp"
#include "api/check.hpp"
#include "runtime/state.hpp"

using namespace strata;
using namespace strata::api;

namespace strata::api {

HandleTable<Keyval>& keyvals() {
  static HandleTable<Keyval> table(STRATA_KIND_KEYVAL);
  static bool reserved = [] {  // the predefined keyvals' indices (windows' included) are never handed out
    for (int k = 1; k <= index_of(MPI_WIN_MODEL); ++k) table.put(k, nullptr);
    return true;
  }();
  (void)reserved;
  return table;
}

static void drop_reference(int keyval) {
  Keyval* k = keyvals().get(keyval);
  if (k && --k->references == 0) {
    keyvals().remove(keyval);
    delete k;
  }
}

int copy_attributes(MPI_Comm from_handle, const comm::Communicator& from, comm::Communicator& to) {
  for (const auto& [keyval, value] : from.attributes) {
    Keyval* k = keyvals().get(keyval);
    if (k == nullptr || k->copy == nullptr) continue;  // MPI_COMM_NULL_COPY_FN
    void* copied = nullptr;
    int flag = 0;
    const int rc = k->copy(from_handle, keyval, k->extra_state, value, &copied, &flag);
    if (rc != MPI_SUCCESS) return rc;
    if (flag) {
      ++k->references;
      to.attributes.push_back({keyval, copied});
    }
  }
  return MPI_SUCCESS;
}

static int delete_one(MPI_Comm handle, int keyval, void* value) {
  Keyval* k = keyvals().get(keyval);
  const int rc = k && k->destroy ? k->destroy(handle, keyval, value, k->extra_state) : MPI_SUCCESS;
  drop_reference(keyval);
  return rc;
}

int delete_attributes(MPI_Comm handle, comm::Communicator& c) {
  int result = MPI_SUCCESS;
  // Reverse order of setting, so an attribute set later (maybe depending on an earlier one) goes first.
  for (auto it = c.attributes.rbegin(); it != c.attributes.rend(); ++it)
    if (int rc = delete_one(handle, it->first, it->second); rc != MPI_SUCCESS && result == MPI_SUCCESS) result = rc;
  c.attributes.clear();
  return result;
}

}  // namespace strata::api

namespace {

bool is_predefined(int keyval) {
  return kind_of(keyval) == STRATA_KIND_KEYVAL && index_of(keyval) >= 1 && index_of(keyval) <= index_of(MPI_LASTUSEDCODE);
}

Check& check_keyval(Check& check, int keyval) {
  if (check.ok() && !is_predefined(keyval) && keyvals().get(keyval) == nullptr)
    check.fail(MPI_ERR_KEYVAL, "invalid keyval " + std::to_string(keyval));
  return check;
}

// The values live here for the whole run: MPI hands out pointers to them.
int g_tag_ub = kTagUpperBound, g_host = MPI_PROC_NULL, g_io = MPI_ANY_SOURCE, g_wtime_is_global = 0;
int g_universe_size = 1, g_appnum = 0, g_last_used_code = 0;

void* predefined_value(int keyval) {
  switch (index_of(keyval)) {
    case index_of(MPI_TAG_UB): return &g_tag_ub;
    case index_of(MPI_HOST): return &g_host;
    case index_of(MPI_IO): return &g_io;
    case index_of(MPI_WTIME_IS_GLOBAL): return &g_wtime_is_global;
    case index_of(MPI_UNIVERSE_SIZE): return (g_universe_size = runtime::state().world.size, &g_universe_size);
    case index_of(MPI_APPNUM): return &g_appnum;
    case index_of(MPI_LASTUSEDCODE): return (g_last_used_code = last_used_code(), &g_last_used_code);
  }
  return nullptr;
}

}  // namespace

STRATA_PMPI(COMM_NULL_COPY_FN)
extern "C" int PMPI_COMM_NULL_COPY_FN(MPI_Comm, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}

STRATA_PMPI(COMM_DUP_FN)
extern "C" int PMPI_COMM_DUP_FN(MPI_Comm, int, void*, void* attribute_val_in, void* attribute_val_out, int* flag) {
  *static_cast<void**>(attribute_val_out) = attribute_val_in;
  *flag = 1;
  return MPI_SUCCESS;
}

STRATA_PMPI(COMM_NULL_DELETE_FN)
extern "C" int PMPI_COMM_NULL_DELETE_FN(MPI_Comm, int, void*, void*) { return MPI_SUCCESS; }

// The bodies of the communicator attribute calls, shared with their MPI-1 names (attr_deprecated_calls.cpp): `call`
// is the name errors give.
namespace strata::api {

int create_keyval(const char* call, MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* destroy,
                  int* comm_keyval, void* extra_state) {
  Check check(call);
  check.not_null(comm_keyval, "comm_keyval");
  if (!check.ok()) return check.raise();
  // The predefined no-op callbacks are stored as "none", so dup and free skip them.
  if (copy == PMPI_COMM_NULL_COPY_FN || copy == MPI_COMM_NULL_COPY_FN || copy == PMPI_NULL_COPY_FN ||
      copy == MPI_NULL_COPY_FN)
    copy = nullptr;
  if (destroy == PMPI_COMM_NULL_DELETE_FN || destroy == MPI_COMM_NULL_DELETE_FN || destroy == PMPI_NULL_DELETE_FN ||
      destroy == MPI_NULL_DELETE_FN)
    destroy = nullptr;
  *comm_keyval = keyvals().add(new Keyval{copy, destroy, extra_state, 1});
  return MPI_SUCCESS;
}

int free_keyval(const char* call, int* comm_keyval) {
  Check check(call);
  check.not_null(comm_keyval, "comm_keyval");
  if (check.ok()) check_keyval(check, *comm_keyval);
  if (check.ok() && is_predefined(*comm_keyval))
    check.fail(MPI_ERR_KEYVAL, "predefined keyval " + std::to_string(*comm_keyval) + " cannot be freed");
  if (!check.ok()) return check.raise();
  drop_reference(*comm_keyval);
  *comm_keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int set_attr(const char* call, MPI_Comm comm, int comm_keyval, void* attribute_val) {
  comm::Communicator* c = nullptr;
  Check check(call, comm);
  check_keyval(check.comm(comm, c), comm_keyval);
  if (check.ok() && is_predefined(comm_keyval))
    check.fail(MPI_ERR_KEYVAL, "predefined attribute " + std::to_string(comm_keyval) + " is read-only");
  if (!check.ok()) return check.raise();
  auto it = std::find_if(c->attributes.begin(), c->attributes.end(), [&](auto& a) { return a.first == comm_keyval; });
  if (it != c->attributes.end()) {  // replacing a value deletes the old one first (MPI-4.0 7.7.2)
    Keyval* k = keyvals().get(comm_keyval);
    if (k->destroy)
      if (int rc = k->destroy(comm, comm_keyval, it->second, k->extra_state); rc != MPI_SUCCESS)
        return raise(call, comm, error_class_of(rc), "the delete callback failed");
    it->second = attribute_val;
    return MPI_SUCCESS;
  }
  ++keyvals().get(comm_keyval)->references;
  c->attributes.push_back({comm_keyval, attribute_val});
  return MPI_SUCCESS;
}

int get_attr(const char* call, MPI_Comm comm, int comm_keyval, void* attribute_val, int* flag) {
  comm::Communicator* c = nullptr;
  Check check(call, comm);
  check_keyval(check.comm(comm, c), comm_keyval).not_null(attribute_val, "attribute_val").not_null(flag, "flag");
  if (!check.ok()) return check.raise();
  if (is_predefined(comm_keyval)) {
    *static_cast<void**>(attribute_val) = predefined_value(comm_keyval);
    *flag = 1;
    return MPI_SUCCESS;
  }
  auto it = std::find_if(c->attributes.begin(), c->attributes.end(), [&](auto& a) { return a.first == comm_keyval; });
  *flag = it != c->attributes.end();
  if (*flag) *static_cast<void**>(attribute_val) = it->second;
  return MPI_SUCCESS;
}

int delete_attr(const char* call, MPI_Comm comm, int comm_keyval) {
  comm::Communicator* c = nullptr;
  Check check(call, comm);
  check_keyval(check.comm(comm, c), comm_keyval);
  if (check.ok() && is_predefined(comm_keyval))
    check.fail(MPI_ERR_KEYVAL, "predefined attribute " + std::to_string(comm_keyval) + " cannot be deleted");
  auto it = c ? std::find_if(c->attributes.begin(), c->attributes.end(), [&](auto& a) { return a.first == comm_keyval; })
              : std::vector<std::pair<int, void*>>::iterator{};
  if (check.ok() && it == c->attributes.end())
    check.fail(MPI_ERR_KEYVAL, "no attribute with keyval " + std::to_string(comm_keyval) + " on " + describe_comm(comm));
  if (!check.ok()) return check.raise();
  const int keyval = it->first;
  void* value = it->second;
  c->attributes.erase(it);
  if (int rc = delete_one(comm, keyval, value); rc != MPI_SUCCESS)
    return raise(call, comm, error_class_of(rc), "the delete callback failed");
  return MPI_SUCCESS;
}

}  // namespace strata::api

STRATA_PMPI(Comm_create_keyval)
extern "C" int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* destroy,
                                       int* comm_keyval, void* extra_state) {
  return create_keyval("MPI_Comm_create_keyval", copy, destroy, comm_keyval, extra_state);
}

STRATA_PMPI(Comm_free_keyval)
extern "C" int PMPI_Comm_free_keyval(int* comm_keyval) { return free_keyval("MPI_Comm_free_keyval", comm_keyval); }

STRATA_PMPI(Comm_set_attr)
extern "C" int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void* attribute_val) {
  return set_attr("MPI_Comm_set_attr", comm, comm_keyval, attribute_val);
}

STRATA_PMPI(Comm_get_attr)
extern "C" int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void* attribute_val, int* flag) {
  return get_attr("MPI_Comm_get_attr", comm, comm_keyval, attribute_val, flag);
}

STRATA_PMPI(Comm_delete_attr)
extern "C" int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval) {
  return delete_attr("MPI_Comm_delete_attr", comm, comm_keyval);
}
