// Datatype queries: size, extents, envelope and contents, names, and the counts of a received message
// (MPI_Get_count, MPI_Get_elements). The int-valued variants give MPI_UNDEFINED where the value does not fit an
// int (MPI-4.0 5.1.5); the _x variants return MPI_Count.
#include <algorithm>
#include <climits>
#include <limits>
#include <cstring>
#include <string>

#include "api/check.hpp"
#include "datatype/pack.hpp"

using namespace strata;
using namespace strata::api;

namespace {

int to_int(long long v) { return v >= INT_MIN && v <= INT_MAX ? static_cast<int>(v) : MPI_UNDEFINED; }

// The handle under which a type from a type's contents goes back to the user: a predefined type is its own
// handle; a derived one gets a new handle (the user frees it, MPI-4.0 5.1.13).
MPI_Datatype handle_for(const datatype::TypeRef& t) {
  return t->predefined ? STRATA_HANDLE(STRATA_KIND_DATATYPE, t->element) : add_datatype(t);
}

}  // namespace

STRATA_PMPI(Type_match_size)
extern "C" int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype* datatype) {
  struct Match {
    int typeclass, size;
    MPI_Datatype type;
  };
  static constexpr Match kMatches[] = {
      {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1}, {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},
      {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4}, {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
      {MPI_TYPECLASS_REAL, 4, MPI_REAL4},       {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
      {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8}, {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16},
      // No Fortran kind here has 16-byte reals; a C program asking for sizeof(long double) gets long double (as
      // with MPICH).
      {MPI_TYPECLASS_REAL, sizeof(long double), MPI_LONG_DOUBLE},
      {MPI_TYPECLASS_COMPLEX, sizeof(long double _Complex), MPI_C_LONG_DOUBLE_COMPLEX},
  };
  Check check("MPI_Type_match_size");
  check.not_null(datatype, "datatype");
  if (check.ok() && typeclass != MPI_TYPECLASS_INTEGER && typeclass != MPI_TYPECLASS_REAL &&
      typeclass != MPI_TYPECLASS_COMPLEX)
    check.fail(MPI_ERR_ARG, "invalid typeclass " + std::to_string(typeclass));
  if (!check.ok()) return check.raise();
  for (const Match& m : kMatches)
    if (m.typeclass == typeclass && m.size == size) {
      *datatype = m.type;
      return MPI_SUCCESS;
    }
  check.fail(MPI_ERR_ARG, "no type of class " + std::to_string(typeclass) + " has size " + std::to_string(size));
  return check.raise();
}

STRATA_PMPI(Type_size)
extern "C" int PMPI_Type_size(MPI_Datatype datatype, int* size) {
  const datatype::Datatype* t = nullptr;
  Check check("MPI_Type_size");
  check.type(datatype, t).not_null(size, "size");
  if (!check.ok()) return check.raise();
  *size = to_int(static_cast<long long>(t->size));
  return MPI_SUCCESS;
}

STRATA_PMPI(Type_size_x)
extern "C" int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count* size) {
  const datatype::Datatype* t = nullptr;
  Check check("MPI_Type_size_x");
  check.type(datatype, t).not_null(size, "size");
  if (!check.ok()) return check.raise();
  *size = static_cast<MPI_Count>(t->size);
  return MPI_SUCCESS;
}

// lb and extent, or true_lb and true extent, as MPI_Aint or MPI_Count.
template <class T>
static int bounds(const char* call, MPI_Datatype datatype, T* lb, T* extent, bool data_only) {
  const datatype::Datatype* t = nullptr;
  Check check(call);
  check.type(datatype, t).not_null(lb, "lb").not_null(extent, "extent");
  if (!check.ok()) return check.raise();
  *lb = data_only ? t->true_lb : t->lb;
  *extent = data_only ? t->true_ub - t->true_lb : t->extent();
  return MPI_SUCCESS;
}

STRATA_PMPI(Type_get_extent)
extern "C" int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  return bounds("MPI_Type_get_extent", datatype, lb, extent, false);
}

STRATA_PMPI(Type_get_extent_x)
extern "C" int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  return bounds("MPI_Type_get_extent_x", datatype, lb, extent, false);
}

STRATA_PMPI(Type_get_true_extent)
extern "C" int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  return bounds("MPI_Type_get_true_extent", datatype, true_lb, true_extent, true);
}

STRATA_PMPI(Type_get_true_extent_x)
extern "C" int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  return bounds("MPI_Type_get_true_extent_x", datatype, true_lb, true_extent, true);
}

STRATA_PMPI(Type_get_envelope)
extern "C" int PMPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses,
                                      int* num_datatypes, int* combiner) {
  const datatype::Datatype* t = nullptr;
  Check check("MPI_Type_get_envelope");
  check.type(datatype, t).not_null(num_integers, "num_integers").not_null(num_addresses, "num_addresses");
  check.not_null(num_datatypes, "num_datatypes").not_null(combiner, "combiner");
  if (!check.ok()) return check.raise();
  const datatype::Contents& c = t->contents;
  *num_integers = static_cast<int>(c.ints.size());
  *num_addresses = static_cast<int>(c.addresses.size());
  *num_datatypes = static_cast<int>(c.types.size());
  *combiner = static_cast<int>(c.combiner);
  return MPI_SUCCESS;
}

STRATA_PMPI(Type_get_contents)
extern "C" int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                                      int array_of_integers[], MPI_Aint array_of_addresses[],
                                      MPI_Datatype array_of_datatypes[]) {
  const datatype::Datatype* t = nullptr;
  Check check("MPI_Type_get_contents");
  check.type(datatype, t);
  if (check.ok() && t->contents.combiner == datatype::Combiner::kNamed)
    check.fail(MPI_ERR_ARG, t->name + " is a predefined datatype: it has no contents (MPI_COMBINER_NAMED)");
  if (!check.ok()) return check.raise();
  const datatype::Contents& c = t->contents;
  auto room = [&](std::size_t need, int max, const void* a, const char* what) {
    if (check.ok() && static_cast<long long>(need) > max)
      check.fail(MPI_ERR_ARG, std::string(what) + " " + std::to_string(max) + " is less than the " +
                                  std::to_string(need) + " MPI_Type_get_envelope reports");
    else if (check.ok() && need > 0 && a == nullptr)
      check.fail(MPI_ERR_ARG, std::string(what) + "'s array is NULL");
  };
  room(c.ints.size(), max_integers, array_of_integers, "max_integers");
  room(c.addresses.size(), max_addresses, array_of_addresses, "max_addresses");
  room(c.types.size(), max_datatypes, array_of_datatypes, "max_datatypes");
  if (!check.ok()) return check.raise();
  std::copy(c.ints.begin(), c.ints.end(), array_of_integers);
  std::copy(c.addresses.begin(), c.addresses.end(), array_of_addresses);
  for (std::size_t i = 0; i < c.types.size(); ++i) array_of_datatypes[i] = handle_for(c.types[i]);
  return MPI_SUCCESS;
}

STRATA_PMPI(Type_set_name)
extern "C" int PMPI_Type_set_name(MPI_Datatype datatype, const char* type_name) {
  const datatype::Datatype* t = nullptr;
  Check check("MPI_Type_set_name");
  check.type(datatype, t).not_null(type_name, "type_name");
  if (!check.ok()) return check.raise();
  // A longer name is truncated to what MPI_Type_get_name can return, as for communicators.
  datatype_of(datatype)->name.assign(type_name, strnlen(type_name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}

STRATA_PMPI(Type_get_name)
extern "C" int PMPI_Type_get_name(MPI_Datatype datatype, char* type_name, int* resultlen) {
  const datatype::Datatype* t = nullptr;
  Check check("MPI_Type_get_name");
  check.type(datatype, t).not_null(type_name, "type_name").not_null(resultlen, "resultlen");
  if (!check.ok()) return check.raise();
  std::memcpy(type_name, t->name.c_str(), t->name.size() + 1);
  *resultlen = static_cast<int>(t->name.size());
  return MPI_SUCCESS;
}

// ---- Counts of a received message ------------------------------------------------------------------------------

// Whole elements of `datatype` in the message, or MPI_UNDEFINED when it ends inside one (MPI-4.0 3.2.5).
template <class T>
static int get_count(const char* call, const MPI_Status* status, MPI_Datatype datatype, T* count) {
  const datatype::Datatype* t = nullptr;
  Check check(call);
  check.not_null(status, "status").type(datatype, t).not_null(count, "count");
  if (!check.ok()) return check.raise();
  const MPI_Count bytes = status->strata_bytes, size = static_cast<MPI_Count>(t->size);
  if (size == 0)
    *count = 0;
  else if (bytes % size != 0 || bytes / size > static_cast<MPI_Count>(std::numeric_limits<T>::max()))
    *count = MPI_UNDEFINED;
  else
    *count = static_cast<T>(bytes / size);
  return MPI_SUCCESS;
}

STRATA_PMPI(Get_count)
extern "C" int PMPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  return get_count("MPI_Get_count", status, datatype, count);
}

// Basic elements in the message, or MPI_UNDEFINED when it ends inside one (MPI-4.0 5.1.11).
template <class T>
static int get_elements(const char* call, const MPI_Status* status, MPI_Datatype datatype, T* count) {
  const datatype::Datatype* t = nullptr;
  Check check(call);
  check.not_null(status, "status").type(datatype, t).not_null(count, "count");
  if (!check.ok()) return check.raise();
  const std::ptrdiff_t n = datatype::basic_elements(*t, static_cast<std::size_t>(status->strata_bytes));
  *count = n < 0 || n > static_cast<std::ptrdiff_t>(std::numeric_limits<T>::max()) ? MPI_UNDEFINED : static_cast<T>(n);
  return MPI_SUCCESS;
}

STRATA_PMPI(Get_elements)
extern "C" int PMPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  return get_elements("MPI_Get_elements", status, datatype, count);
}

STRATA_PMPI(Get_elements_x)
extern "C" int PMPI_Get_elements_x(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  return get_elements("MPI_Get_elements_x", status, datatype, count);
}
