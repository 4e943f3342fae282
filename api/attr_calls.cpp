// Attribute caching for communicators, datatypes and windows (see attributes.hpp), the communicator calls and the
// predefined attributes of MPI_COMM_WORLD (MPI-4.0 11.1.2).
#include <algorithm>

#include "api/attributes.hpp"
#include "runtime/lasting.hpp"
#include "runtime/state.hpp"

using namespace strata;
using namespace strata::api;

namespace {

// The predefined keyvals: the communicator ones, then the window ones (mpi.h). Datatypes have none.
constexpr int kFirstCommKey = index_of(MPI_TAG_UB), kLastCommKey = index_of(MPI_LASTUSEDCODE);
constexpr int kFirstWinKey = index_of(MPI_WIN_BASE), kLastWinKey = index_of(MPI_WIN_MODEL);

bool is_predefined(int keyval) {
  return kind_of(keyval) == STRATA_KIND_KEYVAL && index_of(keyval) >= kFirstCommKey && index_of(keyval) <= kLastWinKey;
}

const char* holder_name(AttributeHolder holder) {
  switch (holder) {
    case AttributeHolder::comm: return "communicators";
    case AttributeHolder::datatype: return "datatypes";
    case AttributeHolder::window: return "windows";
  }
  return "";
}

// A keyval the program freed while attributes still use it (Keyval::freed) may still name them, to get or delete
// them (MPI-4.0 7.7.2: the program releases those references "via calls to MPI_COMM_DELETE_ATTR"), but not to set
// new ones or to be freed again: `in_use_ok` says which.
void check_keyval(Check& check, AttributeHolder holder, int keyval, bool in_use_ok = false) {
  if (!check.ok() || is_predefined_keyval(holder, keyval)) return;
  const std::string name = "keyval " + std::to_string(keyval);
  const Keyval* k = is_predefined(keyval) ? nullptr : keyvals().get(keyval);
  if (is_predefined(keyval))
    check.fail(MPI_ERR_KEYVAL, "the predefined " + name + " does not belong to " + holder_name(holder));
  else if (k == nullptr || (k->freed && !in_use_ok))
    check.fail(MPI_ERR_KEYVAL, "invalid " + name + " (never created, or freed)");
  else if (k->holder != holder)
    check.fail(MPI_ERR_KEYVAL, name + " was created for " + holder_name(k->holder) + ", not " + holder_name(holder));
}

void drop_reference(int keyval) {
  Keyval* k = keyvals().get(keyval);
  if (k && --k->references == 0) {
    keyvals().remove(keyval);
    delete k;
  }
}

Attributes::iterator find(Attributes& list, int keyval) {
  return std::find_if(list.begin(), list.end(), [&](const auto& a) { return a.first == keyval; });
}

// Runs keyval's delete callback on `value`; MPI_SUCCESS or the callback's error code.
int run_delete(int handle, int keyval, void* value) {
  const Keyval* k = keyvals().get(keyval);
  return k && k->destroy ? k->destroy(handle, keyval, value, k->extra_state) : MPI_SUCCESS;
}

void fail_delete(Check& check, int keyval, int rc) {
  check.callback_failed(rc, "the delete callback of keyval " + std::to_string(keyval));
}

}  // namespace

namespace strata::api {

HandleTable<Keyval>& keyvals() {
  static auto& table = runtime::lasting<HandleTable<Keyval>>(STRATA_KIND_KEYVAL);
  static bool reserved = [] {  // the predefined keyvals' indices are never handed out
    for (int k = 1; k <= kLastWinKey; ++k) table.put(k, nullptr);
    return true;
  }();
  (void)reserved;
  return table;
}

bool is_predefined_keyval(AttributeHolder holder, int keyval) {
  if (kind_of(keyval) != STRATA_KIND_KEYVAL) return false;
  const int i = index_of(keyval);
  if (holder == AttributeHolder::comm) return i >= kFirstCommKey && i <= kLastCommKey;
  if (holder == AttributeHolder::window) return i >= kFirstWinKey && i <= kLastWinKey;
  return false;
}

int copy_attributes(int from_handle, const Attributes& from, Attributes& to) {
  const Attributes snapshot = from;  // a callback may set attributes on the object being copied
  for (const auto& [keyval, value] : snapshot) {
    Keyval* k = keyvals().get(keyval);
    if (k == nullptr || k->copy == nullptr) continue;
    void* copied = nullptr;
    int flag = 0;
    if (int rc = k->copy(from_handle, keyval, k->extra_state, value, &copied, &flag); rc != MPI_SUCCESS) return rc;
    if (flag) {
      ++k->references;
      to.push_back({keyval, copied});
    }
  }
  return MPI_SUCCESS;
}

int delete_attributes(int handle, Attributes& list) {
  const Attributes doomed = std::move(list);  // a callback may touch the list being emptied
  list.clear();
  int result = MPI_SUCCESS;
  // Last set first, so an attribute set later (maybe depending on an earlier one) goes first.
  for (auto it = doomed.rbegin(); it != doomed.rend(); ++it) {
    if (int rc = run_delete(handle, it->first, it->second); rc != MPI_SUCCESS && result == MPI_SUCCESS) result = rc;
    drop_reference(it->first);
  }
  return result;
}

void create_keyval(Check& check, AttributeHolder holder, CopyFunction* copy, DeleteFunction* destroy, int* keyval,
                   void* extra_state) {
  check.not_null(keyval, "keyval");
  if (check.ok()) *keyval = keyvals().add(new Keyval{holder, copy, destroy, extra_state, 1});
}

void free_keyval(Check& check, AttributeHolder holder, int* keyval) {
  check.not_null(keyval, "keyval");
  if (check.ok()) check_keyval(check, holder, *keyval);
  if (check.ok() && is_predefined(*keyval))
    check.fail(MPI_ERR_KEYVAL, "the predefined keyval " + std::to_string(*keyval) + " cannot be freed");
  if (!check.ok()) return;
  keyvals().get(*keyval)->freed = true;  // attributes set with it may keep it alive, but a second free is refused
  drop_reference(*keyval);
  *keyval = MPI_KEYVAL_INVALID;
}

void set_attr(Check& check, AttributeHolder holder, int handle, Attributes* list, int keyval, void* value) {
  check_keyval(check, holder, keyval);
  if (check.ok() && is_predefined(keyval))
    check.fail(MPI_ERR_KEYVAL, "the predefined attribute " + std::to_string(keyval) + " is read-only");
  if (!check.ok()) return;
  if (auto it = find(*list, keyval); it != list->end()) {
    // Replacing a value deletes the old one first (MPI-4.0 7.7.2); if that fails, the old value stays, as in MPICH.
    if (int rc = run_delete(handle, keyval, it->second); rc != MPI_SUCCESS)
      return fail_delete(check, keyval, rc);
    find(*list, keyval)->second = value;  // found again: the callback may have changed the list
    return;
  }
  ++keyvals().get(keyval)->references;
  list->push_back({keyval, value});
}

void get_attr(Check& check, AttributeHolder holder, const Attributes* list, int keyval, void* value, int* flag) {
  check_keyval(check, holder, keyval, true);
  check.not_null(value, "attribute_val").not_null(flag, "flag");
  if (!check.ok()) return;
  const auto it = std::find_if(list->begin(), list->end(), [&](const auto& a) { return a.first == keyval; });
  *flag = it != list->end();
  if (*flag) *static_cast<void**>(value) = it->second;
}

void delete_attr(Check& check, AttributeHolder holder, int handle, Attributes* list, int keyval) {
  check_keyval(check, holder, keyval, true);
  if (check.ok() && is_predefined(keyval))
    check.fail(MPI_ERR_KEYVAL, "the predefined attribute " + std::to_string(keyval) + " cannot be deleted");
  // Deleting an attribute that is not set does nothing: MPI-4.0 7.7.2 names no error for it, MPICH returns
  // MPI_SUCCESS (Open MPI MPI_ERR_OTHER), and a program written against MPICH must not die here.
  if (!check.ok()) return;
  const auto set = find(*list, keyval);
  if (set == list->end()) return;
  // A failing delete callback leaves the attribute in place (as MPICH does; MPI-4.0 7.7.2 only says the call fails).
  if (int rc = run_delete(handle, keyval, set->second); rc != MPI_SUCCESS) return fail_delete(check, keyval, rc);
  // The callback may have changed the list, so look again.
  if (auto it = find(*list, keyval); it != list->end()) {
    list->erase(it);
    drop_reference(keyval);
  }
}

}  // namespace strata::api

namespace {

// The values live here for the whole run: MPI hands out pointers to them.
int g_tag_ub = kTagUpperBound, g_host = MPI_PROC_NULL, g_io = MPI_ANY_SOURCE, g_wtime_is_global = 0;
int g_universe_size = 1, g_appnum = 0, g_last_used_code = 0;

void* predefined_comm_value(int keyval) {
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

// The bodies of the communicator calls, shared with their MPI-1 names (attr_deprecated_calls.cpp).
namespace strata::api {

int comm_create_keyval(const char* call, CopyFunction* copy, DeleteFunction* destroy, int* keyval, void* extra_state) {
  Check check(call);
  create_keyval(check, AttributeHolder::comm, copy, destroy, keyval, extra_state);
  return check.ok() ? MPI_SUCCESS : check.raise();
}

int comm_free_keyval(const char* call, int* keyval) {
  Check check(call);
  free_keyval(check, AttributeHolder::comm, keyval);
  return check.ok() ? MPI_SUCCESS : check.raise();
}

int comm_set_attr(const char* call, MPI_Comm comm, int keyval, void* attribute_val) {
  comm::Communicator* c = nullptr;
  Check check(call, comm);
  check.comm(comm, c);
  set_attr(check, AttributeHolder::comm, comm, c ? &c->attributes : nullptr, keyval, attribute_val);
  return check.ok() ? MPI_SUCCESS : check.raise();
}

int comm_get_attr(const char* call, MPI_Comm comm, int keyval, void* attribute_val, int* flag) {
  comm::Communicator* c = nullptr;
  Check check(call, comm);
  check.comm(comm, c);
  if (check.ok() && is_predefined_keyval(AttributeHolder::comm, keyval)) {
    check.not_null(attribute_val, "attribute_val").not_null(flag, "flag");
    if (!check.ok()) return check.raise();
    *static_cast<void**>(attribute_val) = predefined_comm_value(keyval);
    *flag = 1;
    return MPI_SUCCESS;
  }
  get_attr(check, AttributeHolder::comm, c ? &c->attributes : nullptr, keyval, attribute_val, flag);
  return check.ok() ? MPI_SUCCESS : check.raise();
}

int comm_delete_attr(const char* call, MPI_Comm comm, int keyval) {
  comm::Communicator* c = nullptr;
  Check check(call, comm);
  check.comm(comm, c);
  delete_attr(check, AttributeHolder::comm, comm, c ? &c->attributes : nullptr, keyval);
  return check.ok() ? MPI_SUCCESS : check.raise();
}

}  // namespace strata::api

STRATA_PMPI(Comm_create_keyval)
extern "C" int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* destroy,
                                       int* comm_keyval, void* extra_state) {
  const runtime::CallScope call_scope;
  return comm_create_keyval("MPI_Comm_create_keyval", copy, destroy, comm_keyval, extra_state);
}

STRATA_PMPI(Comm_free_keyval)
extern "C" int PMPI_Comm_free_keyval(int* comm_keyval) {
  const runtime::CallScope call_scope;
  return comm_free_keyval("MPI_Comm_free_keyval", comm_keyval);
}

STRATA_PMPI(Comm_set_attr)
extern "C" int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void* attribute_val) {
  const runtime::CallScope call_scope;
  return comm_set_attr("MPI_Comm_set_attr", comm, comm_keyval, attribute_val);
}

STRATA_PMPI(Comm_get_attr)
extern "C" int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void* attribute_val, int* flag) {
  const runtime::CallScope call_scope;
  return comm_get_attr("MPI_Comm_get_attr", comm, comm_keyval, attribute_val, flag);
}

STRATA_PMPI(Comm_delete_attr)
extern "C" int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval) {
  const runtime::CallScope call_scope;
  return comm_delete_attr("MPI_Comm_delete_attr", comm, comm_keyval);
}
