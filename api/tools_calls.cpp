// The tools information interface (MPI-4.0 15.3): MPI_T_init_thread/finalize, enumerations, control and performance
// variables, categories, events and sources, over the registry of tools_variables.hpp.
//
// MPI_T calls never run an error handler (15.3.10): each returns its class (MPI_T_ERR_...) itself. They work at any
// time between MPI_T_init_thread and the matching MPI_T_finalize, before MPI_Init and after MPI_Finalize too; the
// handles and sessions die with the last MPI_T_finalize. Handles are pointers to the objects below, checked against
// the live ones before use, so a stale or made-up handle is MPI_T_ERR_INVALID_HANDLE, never a crash. Without a
// Check, each takes the library lock itself (a CallScope; runtime/library_lock.hpp); the stubs that touch nothing
// do not.
#include <algorithm>
#include <cstring>
#include <set>
#include <string>

#include "api/pmpi.hpp"
#include "api/tools_variables.hpp"
#include "runtime/library_lock.hpp"

struct strata_mpi_t_cvar_handle_s {
  int index;
  int count;  // elements MPI_T_cvar_read writes: 1 for MPI_INT; the longest value + 1 for MPI_CHAR
};

// A performance variable as one handle sees it (15.3.7). A counter's handle counts only while started:
// its value is `accumulated` plus, while started, what the engine counted since `base`. A level (continuous and
// read-only) is the engine's figure now.
struct strata_mpi_t_pvar_handle_s {
  MPI_T_pvar_session session;
  int index;
  bool started;
  std::uint64_t accumulated;
  std::uint64_t base;
};

struct strata_mpi_t_pvar_session_s {
  std::set<MPI_T_pvar_handle> handles;
};

namespace strata::api::tools {
namespace {

struct ToolsState {
  int initializations = 0;  // MPI_T_init_thread calls not yet finalized
  std::set<MPI_T_cvar_handle> cvar_handles;
  std::set<MPI_T_pvar_session> sessions;
};
ToolsState g_tools;

bool initialized() { return g_tools.initializations > 0; }

// The string convention of 15.3.3: at most *length - 1 characters and a NUL; *length becomes the string's length
// plus one. A null buffer or a zero length only asks for that length; a null length returns nothing.
void copy_string(const std::string& s, char* buffer, int* length) {
  if (length == nullptr) return;
  if (buffer != nullptr && *length > 0) {
    const std::size_t n = std::min(s.size(), static_cast<std::size_t>(*length - 1));
    std::memcpy(buffer, s.data(), n);
    buffer[n] = '\0';
  }
  *length = static_cast<int>(s.size()) + 1;
}

template <class T>
void set_if(T* out, T value) {  // the info calls' OUT arguments may be NULL: not wanted
  if (out != nullptr) *out = value;
}

// The index of the entry called `name`, or -1.
template <class Entries>
int index_named(const Entries& entries, const char* name) {
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].name == name) return static_cast<int>(i);
  return -1;
}

template <class Entries>
bool valid_index(const Entries& entries, int index) {
  return index >= 0 && static_cast<std::size_t>(index) < entries.size();
}

bool valid_enum(MPI_T_enum e) {
  for (const Enumeration& known : registry().enumerations)
    if (&known == e) return true;
  return false;
}

const PerformanceVariable& variable_of(MPI_T_pvar_handle h) { return registry().pvars[h->index]; }

std::uint64_t value_of(MPI_T_pvar_handle h) {
  const PerformanceVariable& v = variable_of(h);
  if (v.var_class == MPI_T_PVAR_CLASS_LEVEL) return v.current();
  return h->accumulated + (h->started ? v.current() - h->base : 0);
}

void start(MPI_T_pvar_handle h) {
  if (h->started) return;
  h->base = variable_of(h).current();
  h->started = true;
}

void stop(MPI_T_pvar_handle h) {
  if (!h->started) return;
  h->accumulated += variable_of(h).current() - h->base;
  h->started = false;
}

void assign(MPI_T_pvar_handle h, std::uint64_t value) {  // write and reset: counting goes on from `value`
  h->accumulated = value;
  h->base = variable_of(h).current();
}

// The session's checks shared by the calls on a handle: MPI_SUCCESS, or the class to return.
int check_session(MPI_T_pvar_session session) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  return g_tools.sessions.count(session) != 0 ? MPI_SUCCESS : MPI_T_ERR_INVALID_SESSION;
}

int check_handle(MPI_T_pvar_session session, MPI_T_pvar_handle handle, bool all_allowed) {
  if (const int rc = check_session(session); rc != MPI_SUCCESS) return rc;
  if (handle == MPI_T_PVAR_ALL_HANDLES) return all_allowed ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
  return session->handles.count(handle) != 0 ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
}

void free_everything() {
  for (MPI_T_cvar_handle h : g_tools.cvar_handles) delete h;
  g_tools.cvar_handles.clear();
  for (MPI_T_pvar_session s : g_tools.sessions) {
    for (MPI_T_pvar_handle h : s->handles) delete h;
    delete s;
  }
  g_tools.sessions.clear();
}

// Categories' member lists (MPI_T_category_get_cvars, _pvars, _categories): the first `len` indices.
int category_members(int cat_index, int len, int indices[], std::vector<int> Category::*members) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!valid_index(registry().categories, cat_index)) return MPI_T_ERR_INVALID_INDEX;
  if (len < 0 || (len > 0 && indices == nullptr)) return MPI_T_ERR_INVALID;
  const std::vector<int>& all = registry().categories[cat_index].*members;
  std::copy_n(all.begin(), std::min(all.size(), static_cast<std::size_t>(len)), indices);
  return MPI_SUCCESS;
}

// Strata has no event types (MPI_T_event_get_num is 0) and so no event sources (15.3.8: sources are where events
// come from and what their timestamps count in): every index is invalid, and so is every registration and instance,
// since none can ever be made.
int no_event() { return initialized() ? MPI_T_ERR_INVALID_HANDLE : MPI_T_ERR_NOT_INITIALIZED; }

int no_index() { return initialized() ? MPI_T_ERR_INVALID_INDEX : MPI_T_ERR_NOT_INITIALIZED; }

}  // namespace
}  // namespace strata::api::tools

using namespace strata::api::tools;

// ---- Initialization (15.3.4) -----------------------------------------------------------------------------------

STRATA_PMPI(T_init_thread)
extern "C" int PMPI_T_init_thread(int required, int* provided) {
  const strata::runtime::CallScope call_scope;
  if (provided == nullptr) return MPI_T_ERR_INVALID;
  (void)registry();  // reads the settings now, at the first use
  ++g_tools.initializations;
  *provided = std::clamp(required, MPI_THREAD_SINGLE, MPI_THREAD_MULTIPLE);
  if (*provided == MPI_THREAD_MULTIPLE) strata::runtime::enable_library_lock();
  return MPI_SUCCESS;
}

STRATA_PMPI(T_finalize)
extern "C" int PMPI_T_finalize() {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (--g_tools.initializations == 0) free_everything();
  return MPI_SUCCESS;
}

// ---- Enumerations (15.3.5) -------------------------------------------------------------------------------------

STRATA_PMPI(T_enum_get_info)
extern "C" int PMPI_T_enum_get_info(MPI_T_enum enumtype, int* num, char* name, int* name_len) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!valid_enum(enumtype)) return MPI_T_ERR_INVALID_HANDLE;
  set_if(num, static_cast<int>(enumtype->items.size()));
  copy_string(enumtype->name, name, name_len);
  return MPI_SUCCESS;
}

STRATA_PMPI(T_enum_get_item)
extern "C" int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int* value, char* name, int* name_len) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!valid_enum(enumtype)) return MPI_T_ERR_INVALID_HANDLE;
  if (!valid_index(enumtype->items, index)) return MPI_T_ERR_INVALID_ITEM;
  set_if(value, enumtype->items[index].first);
  copy_string(enumtype->items[index].second, name, name_len);
  return MPI_SUCCESS;
}

// ---- Control variables (15.3.6) --------------------------------------------------------------------------------

STRATA_PMPI(T_cvar_get_num)
extern "C" int PMPI_T_cvar_get_num(int* num_cvar) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (num_cvar == nullptr) return MPI_T_ERR_INVALID;
  *num_cvar = static_cast<int>(registry().cvars.size());
  return MPI_SUCCESS;
}

STRATA_PMPI(T_cvar_get_info)
extern "C" int PMPI_T_cvar_get_info(int cvar_index, char* name, int* name_len, int* verbosity, MPI_Datatype* datatype,
                                    MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind, int* scope) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!valid_index(registry().cvars, cvar_index)) return MPI_T_ERR_INVALID_INDEX;
  const ControlVariable& v = registry().cvars[cvar_index];
  copy_string(v.name, name, name_len);
  set_if(verbosity, v.verbosity);
  set_if(datatype, v.datatype);
  set_if(enumtype, const_cast<MPI_T_enum>(v.enumeration));
  copy_string(v.description, desc, desc_len);
  set_if(bind, MPI_T_BIND_NO_OBJECT);
  set_if(scope, v.scope);
  return MPI_SUCCESS;
}

STRATA_PMPI(T_cvar_get_index)
extern "C" int PMPI_T_cvar_get_index(const char* name, int* cvar_index) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (name == nullptr || cvar_index == nullptr) return MPI_T_ERR_INVALID;
  const int i = index_named(registry().cvars, name);
  if (i < 0) return MPI_T_ERR_INVALID_NAME;
  *cvar_index = i;
  return MPI_SUCCESS;
}

STRATA_PMPI(T_cvar_handle_alloc)
extern "C" int PMPI_T_cvar_handle_alloc(int cvar_index, void* obj_handle, MPI_T_cvar_handle* handle, int* count) {
  const strata::runtime::CallScope call_scope;
  (void)obj_handle;  // every variable is bound to no object (MPI_T_BIND_NO_OBJECT): ignored
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!valid_index(registry().cvars, cvar_index)) return MPI_T_ERR_INVALID_INDEX;
  if (handle == nullptr || count == nullptr) return MPI_T_ERR_INVALID;
  const ControlVariable& v = registry().cvars[cvar_index];
  const int n = v.datatype == MPI_CHAR ? static_cast<int>(std::max(v.longest_value, v.text().size())) + 1 : 1;
  *handle = new strata_mpi_t_cvar_handle_s{cvar_index, n};
  g_tools.cvar_handles.insert(*handle);
  *count = n;
  return MPI_SUCCESS;
}

STRATA_PMPI(T_cvar_handle_free)
extern "C" int PMPI_T_cvar_handle_free(MPI_T_cvar_handle* handle) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (handle == nullptr) return MPI_T_ERR_INVALID;
  if (g_tools.cvar_handles.erase(*handle) == 0) return MPI_T_ERR_INVALID_HANDLE;
  delete *handle;
  *handle = MPI_T_CVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}

STRATA_PMPI(T_cvar_read)
extern "C" int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void* buf) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (g_tools.cvar_handles.count(handle) == 0) return MPI_T_ERR_INVALID_HANDLE;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  const ControlVariable& v = registry().cvars[handle->index];
  if (v.datatype == MPI_INT) {
    const int value = v.number();
    std::memcpy(buf, &value, sizeof value);
    return MPI_SUCCESS;
  }
  int room = handle->count;  // the count the handle promised: the value and its NUL fit
  copy_string(v.text(), static_cast<char*>(buf), &room);
  return MPI_SUCCESS;
}

STRATA_PMPI(T_cvar_write)
extern "C" int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void* buf) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (g_tools.cvar_handles.count(handle) == 0) return MPI_T_ERR_INVALID_HANDLE;
  const ControlVariable& v = registry().cvars[handle->index];
  // Settings read once at start-up can not change for the rest of the run.
  if (!v.write) return MPI_T_ERR_CVAR_SET_NEVER;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  const char* text = static_cast<const char*>(buf);
  const std::string value(text, strnlen(text, static_cast<std::size_t>(handle->count)));
  return v.write(value);
}

// ---- Performance variables (15.3.7) ----------------------------------------------------------------------------

STRATA_PMPI(T_pvar_get_num)
extern "C" int PMPI_T_pvar_get_num(int* num_pvar) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (num_pvar == nullptr) return MPI_T_ERR_INVALID;
  *num_pvar = static_cast<int>(registry().pvars.size());
  return MPI_SUCCESS;
}

STRATA_PMPI(T_pvar_get_info)
extern "C" int PMPI_T_pvar_get_info(int pvar_index, char* name, int* name_len, int* verbosity, int* var_class,
                                    MPI_Datatype* datatype, MPI_T_enum* enumtype, char* desc, int* desc_len,
                                    int* bind, int* readonly, int* continuous, int* atomic) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!valid_index(registry().pvars, pvar_index)) return MPI_T_ERR_INVALID_INDEX;
  const PerformanceVariable& v = registry().pvars[pvar_index];
  copy_string(v.name, name, name_len);
  set_if(verbosity, v.verbosity);
  set_if(var_class, v.var_class);
  set_if(datatype, MPI_UNSIGNED_LONG_LONG);
  set_if(enumtype, MPI_T_ENUM_NULL);
  copy_string(v.description, desc, desc_len);
  set_if(bind, MPI_T_BIND_NO_OBJECT);
  set_if(readonly, v.readonly ? 1 : 0);
  set_if(continuous, v.continuous ? 1 : 0);
  set_if(atomic, v.readonly ? 0 : 1);  // calls are serialized: nothing counts between the read and the reset
  return MPI_SUCCESS;
}

STRATA_PMPI(T_pvar_get_index)
extern "C" int PMPI_T_pvar_get_index(const char* name, int var_class, int* pvar_index) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (name == nullptr || pvar_index == nullptr) return MPI_T_ERR_INVALID;
  const int i = index_named(registry().pvars, name);  // names are unique across classes too
  if (i < 0 || registry().pvars[i].var_class != var_class) return MPI_T_ERR_INVALID_NAME;
  *pvar_index = i;
  return MPI_SUCCESS;
}

STRATA_PMPI(T_pvar_session_create)
extern "C" int PMPI_T_pvar_session_create(MPI_T_pvar_session* session) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (session == nullptr) return MPI_T_ERR_INVALID;
  *session = new strata_mpi_t_pvar_session_s;
  g_tools.sessions.insert(*session);
  return MPI_SUCCESS;
}

STRATA_PMPI(T_pvar_session_free)
extern "C" int PMPI_T_pvar_session_free(MPI_T_pvar_session* session) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (session == nullptr) return MPI_T_ERR_INVALID;
  if (g_tools.sessions.erase(*session) == 0) return MPI_T_ERR_INVALID_SESSION;
  for (MPI_T_pvar_handle h : (*session)->handles) delete h;  // a session's handles end with it
  delete *session;
  *session = MPI_T_PVAR_SESSION_NULL;
  return MPI_SUCCESS;
}

STRATA_PMPI(T_pvar_handle_alloc)
extern "C" int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void* obj_handle,
                                        MPI_T_pvar_handle* handle, int* count) {
  const strata::runtime::CallScope call_scope;
  (void)obj_handle;  // MPI_T_BIND_NO_OBJECT: ignored
  if (const int rc = check_session(session); rc != MPI_SUCCESS) return rc;
  if (!valid_index(registry().pvars, pvar_index)) return MPI_T_ERR_INVALID_INDEX;
  if (handle == nullptr || count == nullptr) return MPI_T_ERR_INVALID;
  const PerformanceVariable& v = registry().pvars[pvar_index];
  // A continuous variable is active from the start; any other starts stopped, at 0 (15.3.7).
  *handle = new strata_mpi_t_pvar_handle_s{session, pvar_index, v.continuous, 0, v.current()};
  session->handles.insert(*handle);
  *count = 1;
  return MPI_SUCCESS;
}

STRATA_PMPI(T_pvar_handle_free)
extern "C" int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle* handle) {
  const strata::runtime::CallScope call_scope;
  if (handle == nullptr) return initialized() ? MPI_T_ERR_INVALID : MPI_T_ERR_NOT_INITIALIZED;
  if (const int rc = check_handle(session, *handle, false); rc != MPI_SUCCESS) return rc;
  session->handles.erase(*handle);
  delete *handle;
  *handle = MPI_T_PVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}

STRATA_PMPI(T_pvar_start)
extern "C" int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  const strata::runtime::CallScope call_scope;
  if (const int rc = check_handle(session, handle, true); rc != MPI_SUCCESS) return rc;
  if (handle == MPI_T_PVAR_ALL_HANDLES) {  // every handle of the session that can be started
    for (MPI_T_pvar_handle h : session->handles)
      if (!variable_of(h).continuous) start(h);
    return MPI_SUCCESS;
  }
  if (variable_of(handle).continuous) return MPI_T_ERR_PVAR_NO_STARTSTOP;
  start(handle);
  return MPI_SUCCESS;
}

STRATA_PMPI(T_pvar_stop)
extern "C" int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  const strata::runtime::CallScope call_scope;
  if (const int rc = check_handle(session, handle, true); rc != MPI_SUCCESS) return rc;
  if (handle == MPI_T_PVAR_ALL_HANDLES) {
    for (MPI_T_pvar_handle h : session->handles)
      if (!variable_of(h).continuous) stop(h);
    return MPI_SUCCESS;
  }
  if (variable_of(handle).continuous) return MPI_T_ERR_PVAR_NO_STARTSTOP;
  stop(handle);
  return MPI_SUCCESS;
}

STRATA_PMPI(T_pvar_read)
extern "C" int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf) {
  const strata::runtime::CallScope call_scope;
  if (const int rc = check_handle(session, handle, false); rc != MPI_SUCCESS) return rc;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  const unsigned long long value = value_of(handle);
  std::memcpy(buf, &value, sizeof value);
  return MPI_SUCCESS;
}

STRATA_PMPI(T_pvar_write)
extern "C" int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void* buf) {
  const strata::runtime::CallScope call_scope;
  if (const int rc = check_handle(session, handle, false); rc != MPI_SUCCESS) return rc;
  if (variable_of(handle).readonly) return MPI_T_ERR_PVAR_NO_WRITE;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  unsigned long long value;
  std::memcpy(&value, buf, sizeof value);
  assign(handle, value);
  return MPI_SUCCESS;
}

STRATA_PMPI(T_pvar_reset)
extern "C" int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  const strata::runtime::CallScope call_scope;
  if (const int rc = check_handle(session, handle, true); rc != MPI_SUCCESS) return rc;
  if (handle == MPI_T_PVAR_ALL_HANDLES) {  // every handle of the session that can be written
    for (MPI_T_pvar_handle h : session->handles)
      if (!variable_of(h).readonly) assign(h, 0);
    return MPI_SUCCESS;
  }
  if (variable_of(handle).readonly) return MPI_T_ERR_PVAR_NO_WRITE;
  assign(handle, 0);
  return MPI_SUCCESS;
}

STRATA_PMPI(T_pvar_readreset)
extern "C" int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf) {
  const strata::runtime::CallScope call_scope;
  if (const int rc = check_handle(session, handle, false); rc != MPI_SUCCESS) return rc;
  if (variable_of(handle).readonly) return MPI_T_ERR_PVAR_NO_WRITE;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  const unsigned long long value = value_of(handle);
  std::memcpy(buf, &value, sizeof value);
  assign(handle, 0);
  return MPI_SUCCESS;
}

// ---- Categories (15.3.9) ---------------------------------------------------------------------------------------

STRATA_PMPI(T_category_get_num)
extern "C" int PMPI_T_category_get_num(int* num_cat) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (num_cat == nullptr) return MPI_T_ERR_INVALID;
  *num_cat = static_cast<int>(registry().categories.size());
  return MPI_SUCCESS;
}

STRATA_PMPI(T_category_get_info)
extern "C" int PMPI_T_category_get_info(int cat_index, char* name, int* name_len, char* desc, int* desc_len,
                                        int* num_cvars, int* num_pvars, int* num_categories) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!valid_index(registry().categories, cat_index)) return MPI_T_ERR_INVALID_INDEX;
  const Category& c = registry().categories[cat_index];
  copy_string(c.name, name, name_len);
  copy_string(c.description, desc, desc_len);
  set_if(num_cvars, static_cast<int>(c.cvars.size()));
  set_if(num_pvars, static_cast<int>(c.pvars.size()));
  set_if(num_categories, static_cast<int>(c.categories.size()));
  return MPI_SUCCESS;
}

STRATA_PMPI(T_category_get_num_events)
extern "C" int PMPI_T_category_get_num_events(int cat_index, int* num_events) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!valid_index(registry().categories, cat_index)) return MPI_T_ERR_INVALID_INDEX;
  if (num_events == nullptr) return MPI_T_ERR_INVALID;
  *num_events = 0;
  return MPI_SUCCESS;
}

STRATA_PMPI(T_category_get_index)
extern "C" int PMPI_T_category_get_index(const char* name, int* cat_index) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (name == nullptr || cat_index == nullptr) return MPI_T_ERR_INVALID;
  const int i = index_named(registry().categories, name);
  if (i < 0) return MPI_T_ERR_INVALID_NAME;
  *cat_index = i;
  return MPI_SUCCESS;
}

STRATA_PMPI(T_category_get_cvars)
extern "C" int PMPI_T_category_get_cvars(int cat_index, int len, int indices[]) {
  const strata::runtime::CallScope call_scope;
  return category_members(cat_index, len, indices, &Category::cvars);
}

STRATA_PMPI(T_category_get_pvars)
extern "C" int PMPI_T_category_get_pvars(int cat_index, int len, int indices[]) {
  const strata::runtime::CallScope call_scope;
  return category_members(cat_index, len, indices, &Category::pvars);
}

STRATA_PMPI(T_category_get_events)
extern "C" int PMPI_T_category_get_events(int cat_index, int len, int indices[]) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!valid_index(registry().categories, cat_index)) return MPI_T_ERR_INVALID_INDEX;
  if (len < 0 || (len > 0 && indices == nullptr)) return MPI_T_ERR_INVALID;
  return MPI_SUCCESS;  // no events: nothing to write
}

STRATA_PMPI(T_category_get_categories)
extern "C" int PMPI_T_category_get_categories(int cat_index, int len, int indices[]) {
  const strata::runtime::CallScope call_scope;
  return category_members(cat_index, len, indices, &Category::categories);
}

STRATA_PMPI(T_category_changed)
extern "C" int PMPI_T_category_changed(int* update_number) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (update_number == nullptr) return MPI_T_ERR_INVALID;
  *update_number = 0;  // the variables and categories are all there from MPI_T_init_thread on, and stay
  return MPI_SUCCESS;
}

// ---- Events and event sources (15.3.8): none ------------------------------------------------------------------

STRATA_PMPI(T_source_get_num)
extern "C" int PMPI_T_source_get_num(int* num_sources) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (num_sources == nullptr) return MPI_T_ERR_INVALID;
  *num_sources = 0;
  return MPI_SUCCESS;
}

STRATA_PMPI(T_source_get_info)
extern "C" int PMPI_T_source_get_info(int, char*, int*, char*, int*, MPI_T_source_order*, MPI_Count*, MPI_Count*,
                                      MPI_Info*) {
  const strata::runtime::CallScope call_scope;
  return no_index();
}

STRATA_PMPI(T_source_get_timestamp)
extern "C" int PMPI_T_source_get_timestamp(int, MPI_Count*) { return no_index(); }

STRATA_PMPI(T_event_get_num)
extern "C" int PMPI_T_event_get_num(int* num_events) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (num_events == nullptr) return MPI_T_ERR_INVALID;
  *num_events = 0;
  return MPI_SUCCESS;
}

STRATA_PMPI(T_event_get_info)
extern "C" int PMPI_T_event_get_info(int, char*, int*, int*, MPI_Datatype[], MPI_Aint[], int*, MPI_T_enum*, MPI_Info*,
                                     char*, int*, int*) {
  const strata::runtime::CallScope call_scope;
  return no_index();
}

STRATA_PMPI(T_event_get_index)
extern "C" int PMPI_T_event_get_index(const char* name, int* event_index) {
  const strata::runtime::CallScope call_scope;
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (name == nullptr || event_index == nullptr) return MPI_T_ERR_INVALID;
  return MPI_T_ERR_INVALID_NAME;
}

STRATA_PMPI(T_event_handle_alloc)
extern "C" int PMPI_T_event_handle_alloc(int, void*, MPI_Info, MPI_T_event_registration*) { return no_index(); }

STRATA_PMPI(T_event_handle_set_info)
extern "C" int PMPI_T_event_handle_set_info(MPI_T_event_registration, MPI_Info) { return no_event(); }

STRATA_PMPI(T_event_handle_get_info)
extern "C" int PMPI_T_event_handle_get_info(MPI_T_event_registration, MPI_Info*) { return no_event(); }

STRATA_PMPI(T_event_register_callback)
extern "C" int PMPI_T_event_register_callback(MPI_T_event_registration, MPI_T_cb_safety, MPI_Info, void*,
                                              MPI_T_event_cb_function) {
  const strata::runtime::CallScope call_scope;
  return no_event();
}

STRATA_PMPI(T_event_callback_set_info)
extern "C" int PMPI_T_event_callback_set_info(MPI_T_event_registration, MPI_T_cb_safety, MPI_Info) {
  const strata::runtime::CallScope call_scope;
  return no_event();
}

STRATA_PMPI(T_event_callback_get_info)
extern "C" int PMPI_T_event_callback_get_info(MPI_T_event_registration, MPI_T_cb_safety, MPI_Info*) {
  const strata::runtime::CallScope call_scope;
  return no_event();
}

STRATA_PMPI(T_event_handle_free)
extern "C" int PMPI_T_event_handle_free(MPI_T_event_registration, void*, MPI_T_event_free_cb_function) {
  const strata::runtime::CallScope call_scope;
  return no_event();
}

STRATA_PMPI(T_event_set_dropped_handler)
extern "C" int PMPI_T_event_set_dropped_handler(MPI_T_event_registration, MPI_T_event_dropped_cb_function) {
  const strata::runtime::CallScope call_scope;
  return no_event();
}

STRATA_PMPI(T_event_read)
extern "C" int PMPI_T_event_read(MPI_T_event_instance, int, void*) { return no_event(); }

STRATA_PMPI(T_event_copy)
extern "C" int PMPI_T_event_copy(MPI_T_event_instance, void*) { return no_event(); }

STRATA_PMPI(T_event_get_timestamp)
extern "C" int PMPI_T_event_get_timestamp(MPI_T_event_instance, MPI_Count*) { return no_event(); }

STRATA_PMPI(T_event_get_source)
extern "C" int PMPI_T_event_get_source(MPI_T_event_instance, int*) { return no_event(); }
