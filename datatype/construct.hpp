// The derived datatype constructors of MPI-4.0 5.1.2 - 5.1.7. Each checks its arguments (the MPI error class and a
// message naming the bad value come back in the Status) and builds an uncommitted type: bounds, layout, signature
// and the contents for MPI_Type_get_contents. Sizes and bounds are computed with overflow checks, so a type whose
// size or extent does not fit MPI_Count / MPI_Aint is refused instead of wrapping around.
//
// Displacements are in elements of the old type's extent for the non-h constructors and in bytes for the h ones.
#pragma once
#include <cstddef>
#include <span>
#include <type_traits>

#include "datatype/datatype.hpp"
#include "runtime/status.hpp"

namespace strata::datatype {

constexpr int kOrderC = 56;        // MPI_ORDER_C
constexpr int kOrderFortran = 57;  // MPI_ORDER_FORTRAN
constexpr int kDistributeBlock = 121;    // MPI_DISTRIBUTE_BLOCK
constexpr int kDistributeCyclic = 122;   // MPI_DISTRIBUTE_CYCLIC
constexpr int kDistributeNone = 123;     // MPI_DISTRIBUTE_NONE
constexpr int kDistributeDfltDarg = -49767;  // MPI_DISTRIBUTE_DFLT_DARG

// Each constructor comes in two widths (MPI-4.0 2.5.8): I = int for the MPI-1 calls, I = Count for the large-count
// ones (MPI_Type_contiguous_c, ...), whose byte displacements are Counts too (Address<I>). One implementation serves
// both; the width decides only where MPI_Type_get_contents finds the arguments (Contents::large_counts for Count).
using Count = long long;  // MPI_Count
template <class I>
using Address = std::conditional_t<std::is_same_v<I, Count>, Count, std::ptrdiff_t>;

template <class I>
Status contiguous(I count, const TypeRef& old, TypeRef& out);
template <class I>
Status vector(I count, I blocklength, I stride, const TypeRef& old, TypeRef& out);
template <class I>
Status hvector(I count, I blocklength, Address<I> stride, const TypeRef& old, TypeRef& out);
template <class I>
Status indexed(std::span<const I> blocklengths, std::span<const I> displacements, const TypeRef& old, TypeRef& out);
template <class I>
Status hindexed(std::span<const I> blocklengths, std::span<const Address<I>> displacements, const TypeRef& old,
                TypeRef& out);
template <class I>
Status indexed_block(I blocklength, std::span<const I> displacements, const TypeRef& old, TypeRef& out);
template <class I>
Status hindexed_block(I blocklength, std::span<const Address<I>> displacements, const TypeRef& old, TypeRef& out);
template <class I>
Status structure(std::span<const I> blocklengths, std::span<const Address<I>> displacements,
                 std::span<const TypeRef> types, TypeRef& out);
template <class I>
Status subarray(std::span<const I> sizes, std::span<const I> subsizes, std::span<const I> starts, int order,
                const TypeRef& old, TypeRef& out);
// MPI-4.0 5.1.4: process `rank`'s part of a `gsizes` array distributed over a row-major grid of `psizes` processes.
template <class I>
Status darray(int size, int rank, std::span<const I> gsizes, std::span<const int> distribs,
              std::span<const int> dargs, std::span<const int> psizes, int order, const TypeRef& old, TypeRef& out);
template <class I>
Status resized(const TypeRef& old, Address<I> lb, Address<I> extent, TypeRef& out);
Status dup(const TypeRef& old, TypeRef& out);

// The int constructors whose arguments do not name the width (arrays, bounds), for callers holding vectors of ints.
inline Status indexed(std::span<const int> blocklengths, std::span<const int> displacements, const TypeRef& old,
                      TypeRef& out) {
  return indexed<int>(blocklengths, displacements, old, out);
}
inline Status hindexed(std::span<const int> blocklengths, std::span<const std::ptrdiff_t> displacements,
                       const TypeRef& old, TypeRef& out) {
  return hindexed<int>(blocklengths, displacements, old, out);
}
inline Status structure(std::span<const int> blocklengths, std::span<const std::ptrdiff_t> displacements,
                        std::span<const TypeRef> types, TypeRef& out) {
  return structure<int>(blocklengths, displacements, types, out);
}
inline Status indexed_block(int blocklength, std::span<const int> displacements, const TypeRef& old, TypeRef& out) {
  return indexed_block<int>(blocklength, displacements, old, out);
}
inline Status hindexed_block(int blocklength, std::span<const std::ptrdiff_t> displacements, const TypeRef& old,
                             TypeRef& out) {
  return hindexed_block<int>(blocklength, displacements, old, out);
}
inline Status subarray(std::span<const int> sizes, std::span<const int> subsizes, std::span<const int> starts,
                       int order, const TypeRef& old, TypeRef& out) {
  return subarray<int>(sizes, subsizes, starts, order, old, out);
}
inline Status darray(int size, int rank, std::span<const int> gsizes, std::span<const int> distribs,
                     std::span<const int> dargs, std::span<const int> psizes, int order, const TypeRef& old,
                     TypeRef& out) {
  return darray<int>(size, rank, gsizes, distribs, dargs, psizes, order, old, out);
}
inline Status resized(const TypeRef& old, std::ptrdiff_t lb, std::ptrdiff_t extent, TypeRef& out) {
  return resized<int>(old, lb, extent, out);
}

}  // namespace strata::datatype
