// Derived datatype constructors (MPI-4.0 5.1.2 - 5.1.7) with their large-count twins (MPI_Type_contiguous_c, ...),
// MPI_Type_dup, MPI_Type_commit and MPI_Type_free (the last two also copy and delete attributes,
// type_attr_calls.cpp). The types are built in datatype/construct.*; this file checks handles and arrays and hands
// out handles. Errors go to MPI_COMM_SELF's handler: these calls have no communicator.
#include <string>
#include <vector>

#include "api/attributes.hpp"
#include "api/check.hpp"
#include "datatype/construct.hpp"

using namespace strata;
using namespace strata::api;

static_assert(MPI_COMBINER_RESIZED == static_cast<int>(datatype::Combiner::kResized) &&
              MPI_COMBINER_STRUCT == static_cast<int>(datatype::Combiner::kStruct) &&
              MPI_COMBINER_NAMED == static_cast<int>(datatype::Combiner::kNamed));
static_assert(MPI_COMBINER_DARRAY == static_cast<int>(datatype::Combiner::kDarray));
static_assert(MPI_ORDER_C == datatype::kOrderC && MPI_ORDER_FORTRAN == datatype::kOrderFortran);
static_assert(MPI_DISTRIBUTE_BLOCK == datatype::kDistributeBlock &&
              MPI_DISTRIBUTE_CYCLIC == datatype::kDistributeCyclic &&
              MPI_DISTRIBUTE_NONE == datatype::kDistributeNone &&
              MPI_DISTRIBUTE_DFLT_DARG == datatype::kDistributeDfltDarg);

namespace {

using datatype::Count;

// An array argument of `count` entries: NULL only when empty.
Check& array(Check& check, const void* a, Count count, const char* what) {
  if (check.ok() && a == nullptr && count > 0) check.fail(MPI_ERR_ARG, std::string(what) + " is NULL");
  return check;
}

Check& array_count(Check& check, Count count) {
  if (check.ok() && count < 0) check.fail(MPI_ERR_COUNT, "negative count " + std::to_string(count));
  return check;
}

template <class T>
std::span<const T> span_of(const T* a, Count count) {
  return count > 0 ? std::span<const T>(a, static_cast<std::size_t>(count)) : std::span<const T>();
}

// Runs a datatype/ constructor once the arguments passed `check`, and hands out the new type's handle.
template <class Build>
int construct(Check& check, MPI_Datatype* newtype, Build&& build) {
  check.not_null(newtype, "newtype");
  if (!check.ok()) return check.raise();
  datatype::TypeRef type;
  const Status s = build(type);
  if (!s.ok()) return check.fail(s.error_class, s.message).raise();
  *newtype = add_datatype(std::move(type));
  return MPI_SUCCESS;
}

// Each constructor below serves its int call (I = int) and its large-count one (I = MPI_Count, MPI-4.0 2.5.8: the
// counts, and the byte displacements, A = datatype::Address<I>, are MPI_Count).

template <class I>
int type_contiguous(const char* call, I count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  Check check(call);
  datatype::TypeRef old;
  check.type(oldtype, old);
  return construct(check, newtype, [&](datatype::TypeRef& out) { return datatype::contiguous<I>(count, old, out); });
}

template <class I>
int type_vector(const char* call, I count, I blocklength, I stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  Check check(call);
  datatype::TypeRef old;
  check.type(oldtype, old);
  return construct(check, newtype,
                   [&](datatype::TypeRef& out) { return datatype::vector<I>(count, blocklength, stride, old, out); });
}

template <class I, class A = datatype::Address<I>>
int type_hvector(const char* call, I count, I blocklength, A stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  Check check(call);
  datatype::TypeRef old;
  check.type(oldtype, old);
  return construct(check, newtype,
                   [&](datatype::TypeRef& out) { return datatype::hvector<I>(count, blocklength, stride, old, out); });
}

template <class I>
int type_indexed(const char* call, I count, const I blocklengths[], const I displacements[], MPI_Datatype oldtype,
                 MPI_Datatype* newtype) {
  Check check(call);
  datatype::TypeRef old;
  array_count(check, count);
  array(check, blocklengths, count, "array_of_blocklengths");
  array(check, displacements, count, "array_of_displacements").type(oldtype, old);
  return construct(check, newtype, [&](datatype::TypeRef& out) {
    return datatype::indexed<I>(span_of(blocklengths, count), span_of(displacements, count), old, out);
  });
}

template <class I, class A = datatype::Address<I>>
int type_hindexed(const char* call, I count, const I blocklengths[], const A displacements[], MPI_Datatype oldtype,
                  MPI_Datatype* newtype) {
  Check check(call);
  datatype::TypeRef old;
  array_count(check, count);
  array(check, blocklengths, count, "array_of_blocklengths");
  array(check, displacements, count, "array_of_displacements").type(oldtype, old);
  return construct(check, newtype, [&](datatype::TypeRef& out) {
    return datatype::hindexed<I>(span_of(blocklengths, count), span_of(displacements, count), old, out);
  });
}

template <class I>
int type_indexed_block(const char* call, I count, I blocklength, const I displacements[], MPI_Datatype oldtype,
                       MPI_Datatype* newtype) {
  Check check(call);
  datatype::TypeRef old;
  array_count(check, count);
  array(check, displacements, count, "array_of_displacements").type(oldtype, old);
  return construct(check, newtype, [&](datatype::TypeRef& out) {
    return datatype::indexed_block<I>(blocklength, span_of(displacements, count), old, out);
  });
}

template <class I, class A = datatype::Address<I>>
int type_hindexed_block(const char* call, I count, I blocklength, const A displacements[], MPI_Datatype oldtype,
                        MPI_Datatype* newtype) {
  Check check(call);
  datatype::TypeRef old;
  array_count(check, count);
  array(check, displacements, count, "array_of_displacements").type(oldtype, old);
  return construct(check, newtype, [&](datatype::TypeRef& out) {
    return datatype::hindexed_block<I>(blocklength, span_of(displacements, count), old, out);
  });
}

template <class I, class A = datatype::Address<I>>
int type_struct(const char* call, I count, const I blocklengths[], const A displacements[],
                const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  Check check(call);
  array_count(check, count);
  array(check, blocklengths, count, "array_of_blocklengths");
  array(check, displacements, count, "array_of_displacements");
  array(check, array_of_types, count, "array_of_types");
  std::vector<datatype::TypeRef> types(check.ok() ? static_cast<std::size_t>(count) : 0);
  for (std::size_t i = 0; i < types.size() && check.ok(); ++i)
    if (!(types[i] = datatype_ref(array_of_types[i])))
      check.fail(MPI_ERR_TYPE, "array_of_types[" + std::to_string(i) + "] is " + describe_type(array_of_types[i]) +
                                   ", not a valid datatype");
  return construct(check, newtype, [&](datatype::TypeRef& out) {
    return datatype::structure<I>(span_of(blocklengths, count), span_of(displacements, count), types, out);
  });
}

template <class I>
int type_subarray(const char* call, int ndims, const I sizes[], const I subsizes[], const I starts[], int order,
                  MPI_Datatype oldtype, MPI_Datatype* newtype) {
  Check check(call);
  datatype::TypeRef old;
  if (ndims < 1) check.fail(MPI_ERR_ARG, "ndims " + std::to_string(ndims) + " is not positive");
  array(check, sizes, ndims, "array_of_sizes");
  array(check, subsizes, ndims, "array_of_subsizes");
  array(check, starts, ndims, "array_of_starts").type(oldtype, old);
  return construct(check, newtype, [&](datatype::TypeRef& out) {
    return datatype::subarray<I>(span_of(sizes, ndims), span_of(subsizes, ndims), span_of(starts, ndims), order, old,
                                 out);
  });
}

template <class I>
int type_darray(const char* call, int size, int rank, int ndims, const I gsizes[], const int distribs[],
                const int dargs[], const int psizes[], int order, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  Check check(call);
  datatype::TypeRef old;
  if (ndims < 1) check.fail(MPI_ERR_ARG, "ndims " + std::to_string(ndims) + " is not positive");
  array(check, gsizes, ndims, "array_of_gsizes");
  array(check, distribs, ndims, "array_of_distribs");
  array(check, dargs, ndims, "array_of_dargs");
  array(check, psizes, ndims, "array_of_psizes").type(oldtype, old);
  return construct(check, newtype, [&](datatype::TypeRef& out) {
    return datatype::darray<I>(size, rank, span_of(gsizes, ndims), span_of(distribs, ndims), span_of(dargs, ndims),
                               span_of(psizes, ndims), order, old, out);
  });
}

template <class I, class A = datatype::Address<I>>
int type_resized(const char* call, MPI_Datatype oldtype, A lb, A extent, MPI_Datatype* newtype) {
  Check check(call);
  datatype::TypeRef old;
  check.type(oldtype, old);
  return construct(check, newtype,
                   [&](datatype::TypeRef& out) { return datatype::resized<I>(old, lb, extent, out); });
}

}  // namespace

STRATA_PMPI(Type_contiguous)
extern "C" int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_contiguous("MPI_Type_contiguous", count, oldtype, newtype);
}

STRATA_PMPI(Type_contiguous_c)
extern "C" int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_contiguous("MPI_Type_contiguous_c", count, oldtype, newtype);
}

STRATA_PMPI(Type_vector)
extern "C" int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_vector("MPI_Type_vector", count, blocklength, stride, oldtype, newtype);
}

STRATA_PMPI(Type_vector_c)
extern "C" int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                                  MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_vector("MPI_Type_vector_c", count, blocklength, stride, oldtype, newtype);
}

STRATA_PMPI(Type_create_hvector)
extern "C" int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                        MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_hvector("MPI_Type_create_hvector", count, blocklength, stride, oldtype, newtype);
}

STRATA_PMPI(Type_create_hvector_c)
extern "C" int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                          MPI_Datatype oldtype, MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_hvector("MPI_Type_create_hvector_c", count, blocklength, stride, oldtype, newtype);
}

STRATA_PMPI(Type_indexed)
extern "C" int PMPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                                 MPI_Datatype oldtype, MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_indexed("MPI_Type_indexed", count, array_of_blocklengths, array_of_displacements, oldtype, newtype);
}

STRATA_PMPI(Type_indexed_c)
extern "C" int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                   const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_indexed("MPI_Type_indexed_c", count, array_of_blocklengths, array_of_displacements, oldtype, newtype);
}

STRATA_PMPI(Type_create_hindexed)
extern "C" int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                                         const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                         MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_hindexed("MPI_Type_create_hindexed", count, array_of_blocklengths, array_of_displacements, oldtype,
                       newtype);
}

STRATA_PMPI(Type_create_hindexed_c)
extern "C" int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                           const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                           MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_hindexed("MPI_Type_create_hindexed_c", count, array_of_blocklengths, array_of_displacements, oldtype,
                       newtype);
}

STRATA_PMPI(Type_create_indexed_block)
extern "C" int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                              MPI_Datatype oldtype, MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_indexed_block("MPI_Type_create_indexed_block", count, blocklength, array_of_displacements, oldtype,
                            newtype);
}

STRATA_PMPI(Type_create_indexed_block_c)
extern "C" int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                                MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_indexed_block("MPI_Type_create_indexed_block_c", count, blocklength, array_of_displacements, oldtype,
                            newtype);
}

STRATA_PMPI(Type_create_hindexed_block)
extern "C" int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                               MPI_Datatype oldtype, MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_hindexed_block("MPI_Type_create_hindexed_block", count, blocklength, array_of_displacements, oldtype,
                             newtype);
}

STRATA_PMPI(Type_create_hindexed_block_c)
extern "C" int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                                 const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                                 MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_hindexed_block("MPI_Type_create_hindexed_block_c", count, blocklength, array_of_displacements, oldtype,
                             newtype);
}

STRATA_PMPI(Type_create_struct)
extern "C" int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                                       const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                                       MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_struct("MPI_Type_create_struct", count, array_of_blocklengths, array_of_displacements, array_of_types,
                     newtype);
}

STRATA_PMPI(Type_create_struct_c)
extern "C" int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                         const MPI_Count array_of_displacements[],
                                         const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_struct("MPI_Type_create_struct_c", count, array_of_blocklengths, array_of_displacements, array_of_types,
                     newtype);
}

STRATA_PMPI(Type_create_subarray)
extern "C" int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                                         const int array_of_starts[], int order, MPI_Datatype oldtype,
                                         MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_subarray("MPI_Type_create_subarray", ndims, array_of_sizes, array_of_subsizes, array_of_starts, order,
                       oldtype, newtype);
}

STRATA_PMPI(Type_create_subarray_c)
extern "C" int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                           const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[],
                                           int order, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_subarray("MPI_Type_create_subarray_c", ndims, array_of_sizes, array_of_subsizes, array_of_starts, order,
                       oldtype, newtype);
}

STRATA_PMPI(Type_create_darray)
extern "C" int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                                       const int array_of_distribs[], const int array_of_dargs[],
                                       const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                       MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_darray("MPI_Type_create_darray", size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs,
                     array_of_psizes, order, oldtype, newtype);
}

STRATA_PMPI(Type_create_darray_c)
extern "C" int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                                         const int array_of_distribs[], const int array_of_dargs[],
                                         const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                         MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_darray("MPI_Type_create_darray_c", size, rank, ndims, array_of_gsizes, array_of_distribs,
                     array_of_dargs, array_of_psizes, order, oldtype, newtype);
}

STRATA_PMPI(Type_create_resized)
extern "C" int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_resized<int>("MPI_Type_create_resized", oldtype, lb, extent, newtype);
}

STRATA_PMPI(Type_create_resized_c)
extern "C" int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                                          MPI_Datatype* newtype) {
  const runtime::CallScope call_scope;
  return type_resized<MPI_Count>("MPI_Type_create_resized_c", oldtype, lb, extent, newtype);
}

STRATA_PMPI(Type_dup)
extern "C" int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
  Check check("MPI_Type_dup");
  datatype::TypeRef old;
  check.type(oldtype, old);
  if (int rc = construct(check, newtype, [&](datatype::TypeRef& out) { return datatype::dup(old, out); }))
    return rc;
  // The attributes follow (MPI-4.0 7.7.4); if a copy callback fails, the new type goes again, with what was copied.
  if (int rc = copy_type_attributes(oldtype, *newtype); rc != MPI_SUCCESS) {
    delete_type_attributes(*newtype);
    datatypes().remove(*newtype);
    *newtype = MPI_DATATYPE_NULL;
    return check.callback_failed(rc, "an attribute copy callback").raise();
  }
  return MPI_SUCCESS;
}

STRATA_PMPI(Type_commit)
extern "C" int PMPI_Type_commit(MPI_Datatype* datatype) {
  Check check("MPI_Type_commit");
  const datatype::Datatype* t = nullptr;
  check.not_null(datatype, "datatype");
  if (check.ok()) check.type(*datatype, t);
  if (!check.ok()) return check.raise();
  datatype_of(*datatype)->committed = true;  // the layout is complete at construction: nothing left to compile
  return MPI_SUCCESS;
}

// The handle goes at once; the type itself lives on in the types built from it and in pending operations.
STRATA_PMPI(Type_free)
extern "C" int PMPI_Type_free(MPI_Datatype* datatype) {
  Check check("MPI_Type_free");
  const datatype::Datatype* t = nullptr;
  check.not_null(datatype, "datatype");
  if (check.ok()) check.type(*datatype, t);
  if (check.ok() && t->predefined) check.fail(MPI_ERR_TYPE, "cannot free the predefined datatype " + t->name);
  if (!check.ok()) return check.raise();
  const int rc = delete_type_attributes(*datatype);  // the type goes even if a delete callback fails
  datatypes().remove(*datatype);
  *datatype = MPI_DATATYPE_NULL;
  if (rc != MPI_SUCCESS)
    return check.callback_failed(rc, "an attribute delete callback").raise();
  return MPI_SUCCESS;
}
