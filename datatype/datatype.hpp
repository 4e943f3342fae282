// A datatype as the rest of Strata sees it: predefined types (predefined.cpp) and derived types (construct.cpp)
// are the same struct, shared by reference so that a type freed by the user lives on while a pending operation
// still uses it (MPI-4.0 5.1.10).
//
// Three views of one type:
//  - bounds (lb, ub, true bounds), with the sticky lb/ub markers of MPI_Type_create_resized (MPI-4.0 5.1.7);
//  - the layout: where its bytes are, as the pieces pack and unpack walk (layout.hpp);
//  - the signature: which basic types, in order, as a tree of repeats over the types it was built from
//    (MPI_Get_elements walks it; a reduction needs only `element`).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "datatype/layout.hpp"

namespace strata::datatype {

struct Datatype;
using TypeRef = std::shared_ptr<const Datatype>;

// A TypeRef that does not own its type: copying and dropping it update no shared count (each update is an atomic
// operation, and a small message's call made four). Only for a use that ends before anyone can free the type, as a
// blocking call's: the user cannot free its handle before the call returns.
inline TypeRef borrow(const Datatype* type) { return TypeRef(TypeRef(), type); }

// The MPI_COMBINER_* values of include/mpi.h, in the same order (api/ checks it).
enum class Combiner : int {
  kNamed, kDup, kContiguous, kVector, kHvector, kIndexed, kHindexed, kIndexedBlock, kHindexedBlock, kStruct,
  kSubarray, kResized, kDarray, kF90Real, kF90Complex, kF90Integer,
};

// The constructor's arguments, as MPI_Type_get_contents returns them. A large-count constructor's (MPI_Type_vector_c,
// ...; MPI-4.0 5.1.13) counts and displacements are its large counts, and only MPI_Type_get_contents_c returns them.
struct Contents {
  Combiner combiner = Combiner::kNamed;
  std::vector<int> ints;
  std::vector<std::ptrdiff_t> addresses;
  std::vector<long long> large_counts;
  std::vector<TypeRef> types;
};

// `repeat` copies of `type`'s signature: one step of the signature tree.
struct SignaturePart {
  TypeRef type;
  std::size_t repeat;
};

struct Datatype {
  std::string name;             // MPI_Type_set_name; predefined types carry their MPI name
  std::size_t size = 0;         // bytes of data in one element (packed size)
  std::ptrdiff_t lb = 0;        // bounds of one element, markers and alignment padding included
  std::ptrdiff_t ub = 0;
  std::ptrdiff_t true_lb = 0;   // bounds of the data alone
  std::ptrdiff_t true_ub = 0;
  bool lb_marker = false;       // lb (ub) was set by MPI_Type_create_resized, here or in a type this one contains
  bool ub_marker = false;
  std::size_t alignment = 1;    // the largest alignment of its basic types: a struct's extent is padded to it
  bool predefined = false;
  bool committed = false;
  bool contiguous = false;      // `count` elements are the bytes [true_lb, true_lb + count * size): no packing
  int element = 0;              // the predefined type (PredefinedType) of every basic element, 0 when mixed
  std::size_t elements = 0;     // basic elements in one element (MPI_Get_elements)
  Layout layout;                // one element's bytes in pack order
  std::vector<SignaturePart> signature;  // empty for a predefined type
  Contents contents;

  std::ptrdiff_t extent() const { return ub - lb; }
};

// Whether `count` elements of `t` are one contiguous run of bytes starting at buf + t.true_lb.
inline bool contiguous(const Datatype& t, std::size_t count) {
  return t.contiguous || (count == 1 && t.layout.is_one_block());
}

}  // namespace strata::datatype
