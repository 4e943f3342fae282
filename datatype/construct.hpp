// The derived datatype constructors of MPI-4.0 5.1.2 - 5.1.7. Each checks its arguments (the MPI error class and a
// message naming the bad value come back in the Status) and builds an uncommitted type: bounds, layout, signature
// and the contents for MPI_Type_get_contents. Sizes and bounds are computed with overflow checks, so a type whose
// size or extent does not fit MPI_Count / MPI_Aint is refused instead of wrapping around.
//
// Displacements are in elements of the old type's extent for the non-h constructors and in bytes for the h ones.
#pragma once
#include <cstddef>
#include <span>

#include "datatype/datatype.hpp"
#include "runtime/status.hpp"

namespace strata::datatype {

constexpr int kOrderC = 56;        // MPI_ORDER_C
constexpr int kOrderFortran = 57;  // MPI_ORDER_FORTRAN
constexpr int kDistributeBlock = 121;    // MPI_DISTRIBUTE_BLOCK
constexpr int kDistributeCyclic = 122;   // MPI_DISTRIBUTE_CYCLIC
constexpr int kDistributeNone = 123;     // MPI_DISTRIBUTE_NONE
constexpr int kDistributeDfltDarg = -49767;  // MPI_DISTRIBUTE_DFLT_DARG

Status contiguous(int count, const TypeRef& old, TypeRef& out);
Status vector(int count, int blocklength, int stride, const TypeRef& old, TypeRef& out);
Status hvector(int count, int blocklength, std::ptrdiff_t stride, const TypeRef& old, TypeRef& out);
Status indexed(std::span<const int> blocklengths, std::span<const int> displacements, const TypeRef& old,
               TypeRef& out);
Status hindexed(std::span<const int> blocklengths, std::span<const std::ptrdiff_t> displacements, const TypeRef& old,
                TypeRef& out);
Status indexed_block(int blocklength, std::span<const int> displacements, const TypeRef& old, TypeRef& out);
Status hindexed_block(int blocklength, std::span<const std::ptrdiff_t> displacements, const TypeRef& old,
                      TypeRef& out);
Status structure(std::span<const int> blocklengths, std::span<const std::ptrdiff_t> displacements,
                 std::span<const TypeRef> types, TypeRef& out);
Status subarray(std::span<const int> sizes, std::span<const int> subsizes, std::span<const int> starts, int order,
                const TypeRef& old, TypeRef& out);
// MPI-4.0 5.1.4: process `rank`'s part of a `gsizes` array distributed over a row-major grid of `psizes` processes.
Status darray(int size, int rank, std::span<const int> gsizes, std::span<const int> distribs,
              std::span<const int> dargs, std::span<const int> psizes, int order, const TypeRef& old, TypeRef& out);
Status resized(const TypeRef& old, std::ptrdiff_t lb, std::ptrdiff_t extent, TypeRef& out);
Status dup(const TypeRef& old, TypeRef& out);

}  // namespace strata::datatype
