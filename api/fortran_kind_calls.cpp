// MPI_Type_create_f90_integer, _real and _complex (MPI-4.0 19.2.5): the predefined type of the Fortran kind that
// SELECTED_INT_KIND(r) or SELECTED_REAL_KIND(p, r) gives, for gfortran's kinds on this machine (INTEGER1 to 8, REAL4
// and 8, COMPLEX8 and 16; the ones C has no type for are refused, as MPI_INTEGER16 is MPI_DATATYPE_NULL here). The
// result behaves as its kind's named type, cannot be freed, and reports MPI_COMBINER_F90_* with its (p, r) or (r)
// as envelope and contents, so each (p, r) gets one handle of its own, made once.
#include <map>
#include <tuple>

#include "api/check.hpp"
#include "runtime/lasting.hpp"

using namespace strata;
using namespace strata::api;

namespace {

// Decimal precision and exponent range of gfortran's real kinds (PRECISION() and RANGE() of real(4), real(8)).
struct RealKind {
  int precision, range;
  MPI_Datatype real, complex;
};
constexpr RealKind kRealKinds[] = {{6, 37, MPI_REAL4, MPI_COMPLEX8}, {15, 307, MPI_REAL8, MPI_COMPLEX16}};

// Decimal range of the integer kinds: RANGE() of integer(1), (2), (4), (8).
struct IntegerKind {
  int range;
  MPI_Datatype type;
};
constexpr IntegerKind kIntegerKinds[] = {{2, MPI_INTEGER1}, {4, MPI_INTEGER2}, {9, MPI_INTEGER4}, {18, MPI_INTEGER8}};

// The handle for (combiner, ints), made from `base` the first time (or again, if MPI restarted since).
MPI_Datatype kind_type(datatype::Combiner combiner, std::vector<int> ints, MPI_Datatype base) {
  using Key = std::tuple<datatype::Combiner, std::vector<int>>;
  static auto& made = runtime::lasting<std::map<Key, MPI_Datatype>>();
  auto key = std::make_tuple(combiner, ints);
  if (auto it = made.find(key); it != made.end()) {
    const datatype::Datatype* t = datatype_of(it->second);
    if (t != nullptr && t->contents.combiner == combiner && t->contents.ints == ints) return it->second;
  }
  auto t = std::make_shared<datatype::Datatype>(*datatype_of(base));
  t->contents = {combiner, std::move(ints), {}, {}, {}};
  t->predefined = true;  // as its named kind: committed, and MPI_Type_free refuses it
  t->committed = true;
  const MPI_Datatype handle = add_datatype(std::move(t));
  made[key] = handle;
  return handle;
}

// SELECTED_REAL_KIND(p, r)'s kind: the first with enough precision and range (MPI_UNDEFINED: any).
const RealKind* real_kind(int p, int r) {
  for (const RealKind& k : kRealKinds)
    if ((p == MPI_UNDEFINED || p <= k.precision) && (r == MPI_UNDEFINED || r <= k.range)) return &k;
  return nullptr;
}

int create_real(const char* call, int p, int r, MPI_Datatype* newtype, bool complex) {
  Check check(call);
  check.not_null(newtype, "newtype");
  if (check.ok() && p == MPI_UNDEFINED && r == MPI_UNDEFINED)
    check.fail(MPI_ERR_ARG, "p and r are both MPI_UNDEFINED (one of them must be given)");
  const RealKind* kind = check.ok() ? real_kind(p, r) : nullptr;
  if (check.ok() && kind == nullptr)
    check.fail(MPI_ERR_ARG, "no real kind has precision " + std::to_string(p) + " and range " + std::to_string(r) +
                                " (the widest here: precision 15, range 307)");
  if (!check.ok()) return check.raise();
  *newtype = complex ? kind_type(datatype::Combiner::kF90Complex, {p, r}, kind->complex)
                     : kind_type(datatype::Combiner::kF90Real, {p, r}, kind->real);
  return MPI_SUCCESS;
}

}  // namespace

STRATA_PMPI(Type_create_f90_real)
extern "C" int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return create_real("MPI_Type_create_f90_real", p, r, newtype, false);
}

STRATA_PMPI(Type_create_f90_complex)
extern "C" int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return create_real("MPI_Type_create_f90_complex", p, r, newtype, true);
}

STRATA_PMPI(Type_create_f90_integer)
extern "C" int PMPI_Type_create_f90_integer(int r, MPI_Datatype* newtype) {
  Check check("MPI_Type_create_f90_integer");
  check.not_null(newtype, "newtype");
  const IntegerKind* kind = nullptr;
  for (const IntegerKind& k : kIntegerKinds)
    if (kind == nullptr && r <= k.range) kind = &k;
  if (check.ok() && kind == nullptr)
    check.fail(MPI_ERR_ARG, "no integer kind has range " + std::to_string(r) + " (the widest here: 18)");
  if (!check.ok()) return check.raise();
  *newtype = kind_type(datatype::Combiner::kF90Integer, {r}, kind->type);
  return MPI_SUCCESS;
}
