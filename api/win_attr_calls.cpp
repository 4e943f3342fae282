// A window's attributes, name and hints (MPI-4.0 12.2.6, 12.2.7, 7.8): MPI_Win_get_attr with the predefined
// MPI_WIN_* keys (user keyvals on windows, MPI_Win_create_keyval, are not offered), MPI_Win_set_name /
// get_name, MPI_Win_set_info / get_info.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "api/windows.hpp"

using namespace strata;
using namespace strata::api;

namespace {

constexpr const char* kNoncontigKey = "alloc_shared_noncontig";

// The values MPI hands out pointers to, alike for every window (only shared windows, only the unified model).
int g_flavor = MPI_WIN_FLAVOR_SHARED;
int g_model = MPI_WIN_UNIFIED;

static_assert(std::is_same_v<MPI_Aint, std::intptr_t>, "MPI_WIN_SIZE points at rma::Window::size_attr");

}  // namespace

// attribute_val is really a void**: MPI_WIN_BASE stores the base address itself, the others a pointer to the value
// (MPI_Aint* for MPI_WIN_SIZE, int* for the rest), as MPI-4.0 12.2.6 specifies for C.
STRATA_PMPI(Win_get_attr)
extern "C" int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void* attribute_val, int* flag) {
  rma::Window* w = nullptr;
  Check check("MPI_Win_get_attr");
  check_window(check, win, w).not_null(attribute_val, "attribute_val").not_null(flag, "flag");
  void* value = nullptr;
  if (check.ok()) {
    switch (win_keyval) {
      case MPI_WIN_BASE: value = w->base(w->rank()); break;
      case MPI_WIN_SIZE: value = &w->size_attr; break;
      case MPI_WIN_DISP_UNIT: value = &w->disp_unit_attr; break;
      case MPI_WIN_CREATE_FLAVOR: value = &g_flavor; break;
      case MPI_WIN_MODEL: value = &g_model; break;
      default:
        check.fail(MPI_ERR_KEYVAL, "invalid window keyval " + std::to_string(win_keyval) +
                                       " (windows have only the predefined MPI_WIN_* attributes)");
    }
  }
  if (!check.ok()) return raise_on_window("MPI_Win_get_attr", win, check.status());
  *static_cast<void**>(attribute_val) = value;
  *flag = 1;
  return MPI_SUCCESS;
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

// The new hints replace the old; alloc_shared_noncontig keeps telling the layout in force, which cannot change.
STRATA_PMPI(Win_set_info)
extern "C" int PMPI_Win_set_info(MPI_Win win, MPI_Info info) {
  rma::Window* w = nullptr;
  runtime::Info* given = nullptr;
  Check check("MPI_Win_set_info");
  check_window(check, win, w).info(info, given, false);
  if (!check.ok()) return raise_on_window("MPI_Win_set_info", win, check.status());
  w->hints = given->dup();
  w->hints.set(kNoncontigKey, w->noncontig ? "true" : "false");
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
