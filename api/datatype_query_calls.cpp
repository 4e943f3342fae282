// Datatype queries: size, extents, envelope and contents, names, and the counts of a received message
// (MPI_Get_count, MPI_Get_elements). The int-valued variants give MPI_UNDEFINED where the value does not fit an
// int (MPI-4.0 5.1.5); the _x and the large-count (_c, MPI-4.0 2.5.8) variants return MPI_Count. A type built by a
// large-count constructor keeps its arguments as large counts, which only the _c envelope and contents calls return.
#include <algorithm>
#include <climits>
#include <limits>
#include <cstring>
#include <string>
#include <type_traits>

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

// The size as an int (MPI_UNDEFINED when it does not fit) or an MPI_Count.
template <class T>
static int type_size(const char* call, MPI_Datatype datatype, T* size) {
  const datatype::Datatype* t = nullptr;
  Check check(call);
  check.type(datatype, t).not_null(size, "size");
  if (!check.ok()) return check.raise();
  if constexpr (std::is_same_v<T, int>)
    *size = to_int(static_cast<long long>(t->size));
  else
    *size = static_cast<MPI_Count>(t->size);
  return MPI_SUCCESS;
}

STRATA_PMPI(Type_size)
extern "C" int PMPI_Type_size(MPI_Datatype datatype, int* size) {
  const runtime::CallScope call_scope;
  return type_size("MPI_Type_size", datatype, size);
}

STRATA_PMPI(Type_size_x)
extern "C" int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count* size) {
  const runtime::CallScope call_scope;
  return type_size("MPI_Type_size_x", datatype, size);
}

STRATA_PMPI(Type_size_c)
extern "C" int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count* size) {
  const runtime::CallScope call_scope;
  return type_size("MPI_Type_size_c", datatype, size);
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
  const runtime::CallScope call_scope;
  return bounds("MPI_Type_get_extent", datatype, lb, extent, false);
}

STRATA_PMPI(Type_get_extent_x)
extern "C" int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  const runtime::CallScope call_scope;
  return bounds("MPI_Type_get_extent_x", datatype, lb, extent, false);
}

STRATA_PMPI(Type_get_extent_c)
extern "C" int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  const runtime::CallScope call_scope;
  return bounds("MPI_Type_get_extent_c", datatype, lb, extent, false);
}

STRATA_PMPI(Type_get_true_extent)
extern "C" int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  const runtime::CallScope call_scope;
  return bounds("MPI_Type_get_true_extent", datatype, true_lb, true_extent, true);
}

STRATA_PMPI(Type_get_true_extent_x)
extern "C" int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  const runtime::CallScope call_scope;
  return bounds("MPI_Type_get_true_extent_x", datatype, true_lb, true_extent, true);
}

STRATA_PMPI(Type_get_true_extent_c)
extern "C" int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  const runtime::CallScope call_scope;
  return bounds("MPI_Type_get_true_extent_c", datatype, true_lb, true_extent, true);
}

// MPI-4.0 5.1.13: the int calls cannot describe a type built by a large-count constructor (MPI_ERR_TYPE).
static Check& small_contents(Check& check, const datatype::Datatype* t, bool large_call) {
  if (check.ok() && !large_call && !t->contents.large_counts.empty())
    check.fail(MPI_ERR_TYPE, "the datatype was built by a large-count (_c) constructor: its envelope and contents "
                             "need MPI_Type_get_envelope_c and MPI_Type_get_contents_c");
  return check;
}

// The envelope into ints (no large counts: num_large_counts is null) or MPI_Counts.
template <class T>
static int get_envelope(const char* call, MPI_Datatype datatype, T* num_integers, T* num_addresses,
                        T* num_large_counts, T* num_datatypes, int* combiner, bool large_call) {
  const datatype::Datatype* t = nullptr;
  Check check(call);
  check.type(datatype, t).not_null(num_integers, "num_integers").not_null(num_addresses, "num_addresses");
  if (large_call) check.not_null(num_large_counts, "num_large_counts");
  check.not_null(num_datatypes, "num_datatypes").not_null(combiner, "combiner");
  if (!small_contents(check, t, large_call).ok()) return check.raise();
  const datatype::Contents& c = t->contents;
  *num_integers = static_cast<T>(c.ints.size());
  *num_addresses = static_cast<T>(c.addresses.size());
  if (large_call) *num_large_counts = static_cast<T>(c.large_counts.size());
  *num_datatypes = static_cast<T>(c.types.size());
  *combiner = static_cast<int>(c.combiner);
  return MPI_SUCCESS;
}

STRATA_PMPI(Type_get_envelope)
extern "C" int PMPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses,
                                      int* num_datatypes, int* combiner) {
  const runtime::CallScope call_scope;
  return get_envelope<int>("MPI_Type_get_envelope", datatype, num_integers, num_addresses, nullptr, num_datatypes,
                           combiner, false);
}

STRATA_PMPI(Type_get_envelope_c)
extern "C" int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count* num_integers, MPI_Count* num_addresses,
                                        MPI_Count* num_large_counts, MPI_Count* num_datatypes, int* combiner) {
  const runtime::CallScope call_scope;
  return get_envelope<MPI_Count>("MPI_Type_get_envelope_c", datatype, num_integers, num_addresses, num_large_counts,
                                 num_datatypes, combiner, true);
}

// The contents; `large_counts` and its room are only the _c call's (large_call).
template <class T>
static int get_contents(const char* call, MPI_Datatype datatype, T max_integers, T max_addresses, T max_large_counts,
                        T max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[],
                        MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[], bool large_call) {
  const datatype::Datatype* t = nullptr;
  Check check(call);
  check.type(datatype, t);
  if (check.ok() && t->contents.combiner == datatype::Combiner::kNamed)
    check.fail(MPI_ERR_ARG, t->name + " is a predefined datatype: it has no contents (MPI_COMBINER_NAMED)");
  if (!small_contents(check, t, large_call).ok()) return check.raise();
  const datatype::Contents& c = t->contents;
  auto room = [&](std::size_t need, T max, const void* a, const char* what) {
    if (check.ok() && static_cast<long long>(need) > static_cast<long long>(max))
      check.fail(MPI_ERR_ARG, std::string(what) + " " + std::to_string(max) + " is less than the " +
                                  std::to_string(need) + " the envelope reports");
    else if (check.ok() && need > 0 && a == nullptr)
      check.fail(MPI_ERR_ARG, std::string(what) + "'s array is NULL");
  };
  room(c.ints.size(), max_integers, array_of_integers, "max_integers");
  room(c.addresses.size(), max_addresses, array_of_addresses, "max_addresses");
  if (large_call) room(c.large_counts.size(), max_large_counts, array_of_large_counts, "max_large_counts");
  room(c.types.size(), max_datatypes, array_of_datatypes, "max_datatypes");
  if (!check.ok()) return check.raise();
  std::copy(c.ints.begin(), c.ints.end(), array_of_integers);
  std::copy(c.addresses.begin(), c.addresses.end(), array_of_addresses);
  if (large_call) std::copy(c.large_counts.begin(), c.large_counts.end(), array_of_large_counts);
  for (std::size_t i = 0; i < c.types.size(); ++i) array_of_datatypes[i] = handle_for(c.types[i]);
  return MPI_SUCCESS;
}

STRATA_PMPI(Type_get_contents)
extern "C" int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                                      int array_of_integers[], MPI_Aint array_of_addresses[],
                                      MPI_Datatype array_of_datatypes[]) {
  const runtime::CallScope call_scope;
  return get_contents<int>("MPI_Type_get_contents", datatype, max_integers, max_addresses, 0, max_datatypes,
                           array_of_integers, array_of_addresses, nullptr, array_of_datatypes, false);
}

STRATA_PMPI(Type_get_contents_c)
extern "C" int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                                        MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[],
                                        MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                                        MPI_Datatype array_of_datatypes[]) {
  const runtime::CallScope call_scope;
  return get_contents<MPI_Count>("MPI_Type_get_contents_c", datatype, max_integers, max_addresses, max_large_counts,
                                 max_datatypes, array_of_integers, array_of_addresses, array_of_large_counts,
                                 array_of_datatypes, true);
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
  const runtime::CallScope call_scope;
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

STRATA_PMPI(Get_count_c)
extern "C" int PMPI_Get_count_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  const runtime::CallScope call_scope;
  return get_count("MPI_Get_count_c", status, datatype, count);
}

STRATA_PMPI(Get_elements)
extern "C" int PMPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  const runtime::CallScope call_scope;
  return get_elements("MPI_Get_elements", status, datatype, count);
}

STRATA_PMPI(Get_elements_x)
extern "C" int PMPI_Get_elements_x(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  const runtime::CallScope call_scope;
  return get_elements("MPI_Get_elements_x", status, datatype, count);
}

STRATA_PMPI(Get_elements_c)
extern "C" int PMPI_Get_elements_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  const runtime::CallScope call_scope;
  return get_elements("MPI_Get_elements_c", status, datatype, count);
}
