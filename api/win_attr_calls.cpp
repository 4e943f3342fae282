// A window's attributes, name and hints (MPI-4.0 12.2.6, 12.2.7, 7.7.3, 7.8): MPI_Win_get_attr with the predefined
// MPI_WIN_* keys, the user's keyvals on windows (MPI_Win_create_keyval ..., bodies in attr_calls.cpp),
// MPI_Win_set_name / get_name, MPI_Win_set_info / get_info.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "api/attributes.hpp"
#include "api/windows.hpp"

using namespace strata;
using namespace strata::api;

namespace {

// The values MPI hands out pointers to, alike for every window of a flavor (every window is in the unified model:
// shared windows are one memory, and the others are changed only by their owner, applying the operations).
int g_flavors[] = {0, MPI_WIN_FLAVOR_CREATE, MPI_WIN_FLAVOR_ALLOCATE, MPI_WIN_FLAVOR_DYNAMIC, MPI_WIN_FLAVOR_SHARED};
int g_model = MPI_WIN_UNIFIED;
static_assert(static_cast<int>(rma::Flavor::Create) == MPI_WIN_FLAVOR_CREATE &&
              static_cast<int>(rma::Flavor::Shared) == MPI_WIN_FLAVOR_SHARED);

static_assert(std::is_same_v<MPI_Aint, std::intptr_t>, "MPI_WIN_SIZE points at rma::Window::size_attr");

// MPI_WIN_BASE is the base address itself, the others a pointer to the value (MPI_Aint* for MPI_WIN_SIZE, int* for
// the rest), as MPI-4.0 12.2.6 specifies for C.
void* predefined_window_value(rma::Window& w, int keyval) {
  switch (keyval) {
    case MPI_WIN_BASE: return w.program_base(w.rank());
    case MPI_WIN_SIZE: return &w.size_attr;
    case MPI_WIN_DISP_UNIT: return &w.disp_unit_attr;
    case MPI_WIN_CREATE_FLAVOR: return &g_flavors[static_cast<int>(w.flavor)];
    case MPI_WIN_MODEL: return &g_model;
  }
  return nullptr;
}

int raise_if_failed(const char* call, MPI_Win win, const Check& check) {
  return check.ok() ? MPI_SUCCESS : raise_on_window(call, win, check.status());
}

}  // namespace

STRATA_PMPI(WIN_NULL_COPY_FN)
extern "C" int PMPI_WIN_NULL_COPY_FN(MPI_Win, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}

STRATA_PMPI(WIN_DUP_FN)
extern "C" int PMPI_WIN_DUP_FN(MPI_Win, int, void*, void* attribute_val_in, void* attribute_val_out, int* flag) {
  *static_cast<void**>(attribute_val_out) = attribute_val_in;
  *flag = 1;
  return MPI_SUCCESS;
}

STRATA_PMPI(WIN_NULL_DELETE_FN)
extern "C" int PMPI_WIN_NULL_DELETE_FN(MPI_Win, int, void*, void*) { return MPI_SUCCESS; }

STRATA_PMPI(Win_create_keyval)
extern "C" int PMPI_Win_create_keyval(MPI_Win_copy_attr_function* copy, MPI_Win_delete_attr_function* destroy,
                                      int* win_keyval, void* extra_state) {
  Check check("MPI_Win_create_keyval");
  create_keyval(check, AttributeHolder::window, copy, destroy, win_keyval, extra_state);
  return check.ok() ? MPI_SUCCESS : check.raise();
}

STRATA_PMPI(Win_free_keyval)
extern "C" int PMPI_Win_free_keyval(int* win_keyval) {
  Check check("MPI_Win_free_keyval");
  free_keyval(check, AttributeHolder::window, win_keyval);
  return check.ok() ? MPI_SUCCESS : check.raise();
}

STRATA_PMPI(Win_set_attr)
extern "C" int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void* attribute_val) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_set_attr");
  check_window(check, win, w);
  set_attr(check, AttributeHolder::window, win, w ? &w->attributes : nullptr, win_keyval, attribute_val);
  return raise_if_failed("MPI_Win_set_attr", win, check);
}

// attribute_val is really a void**.
STRATA_PMPI(Win_get_attr)
extern "C" int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void* attribute_val, int* flag) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_get_attr");
  check_window(check, win, w);
  if (check.ok() && is_predefined_keyval(AttributeHolder::window, win_keyval)) {
    check.not_null(attribute_val, "attribute_val").not_null(flag, "flag");
    if (!check.ok()) return raise_if_failed("MPI_Win_get_attr", win, check);
    *static_cast<void**>(attribute_val) = predefined_window_value(*w, win_keyval);
    *flag = 1;
    return MPI_SUCCESS;
  }
  get_attr(check, AttributeHolder::window, w ? &w->attributes : nullptr, win_keyval, attribute_val, flag);
  return raise_if_failed("MPI_Win_get_attr", win, check);
}

STRATA_PMPI(Win_delete_attr)
extern "C" int PMPI_Win_delete_attr(MPI_Win win, int win_keyval) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_delete_attr");
  check_window(check, win, w);
  delete_attr(check, AttributeHolder::window, win, w ? &w->attributes : nullptr, win_keyval);
  return raise_if_failed("MPI_Win_delete_attr", win, check);
}

STRATA_PMPI(Win_set_name)
extern "C" int PMPI_Win_set_name(MPI_Win win, const char* win_name) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_set_name");
  check_window(check, win, w).not_null(win_name, "win_name");
  if (!check.ok()) return raise_on_window("MPI_Win_set_name", win, check.status());
  // As for communicators (MPI-4.0 7.8): a longer name is truncated to what MPI_Win_get_name can return.
  w->name.assign(win_name, strnlen(win_name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}

STRATA_PMPI(Win_get_name)
extern "C" int PMPI_Win_get_name(MPI_Win win, char* win_name, int* resultlen) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_get_name");
  check_window(check, win, w).not_null(win_name, "win_name").not_null(resultlen, "resultlen");
  if (!check.ok()) return raise_on_window("MPI_Win_get_name", win, check.status());
  std::memcpy(win_name, w->name.c_str(), w->name.size() + 1);
  *resultlen = static_cast<int>(w->name.size());
  return MPI_SUCCESS;
}

// The new hints replace the old (set_hints keeps those in force whatever was asked).
STRATA_PMPI(Win_set_info)
extern "C" int PMPI_Win_set_info(MPI_Win win, MPI_Info info) {
  rma::Window* w = nullptr;
  runtime::Info* given = nullptr;
  Check check("MPI_Win_set_info");
  check_window(check, win, w).info(info, given, false);
  if (!check.ok()) return raise_on_window("MPI_Win_set_info", win, check.status());
  set_hints(*w, given);
  return MPI_SUCCESS;
}

STRATA_PMPI(Win_get_info)
extern "C" int PMPI_Win_get_info(MPI_Win win, MPI_Info* info_used) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_get_info");
  check_window(check, win, w).not_null(info_used, "info_used");
  if (!check.ok()) return raise_on_window("MPI_Win_get_info", win, check.status());
  *info_used = add_info(w->hints.dup());  // a new object the caller frees
  return MPI_SUCCESS;
}
