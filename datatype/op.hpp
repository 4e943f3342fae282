// Reduction operators (MPI-4.0 section 6.9): the predefined ones and user functions made by MPI_Op_create, applied
// as inout = in op inout, element by element. Collectives, MPI_Reduce_local and accumulate all reduce through here.
//
// A predefined operator on a type the standard allows is one tight loop per (operator, C type), taken from a table
// indexed by [operator][type] (op.cpp, loops in op_kernels.hpp): one indirect call per reduce(), never per element.
// Which (operator, type) pairs exist is MPI-4.0 6.9.2 (groups of basic types) and 6.9.4 (MAXLOC/MINLOC pairs);
// check() rejects the others with kErrOp. Reductions take predefined datatypes only; accumulate (12.3.4) also
// takes derived datatypes whose basic elements are all of one predefined type: reduced in place when contiguous,
// through scratch otherwise.
#pragma once
#include <cstddef>

#include "datatype/datatype.hpp"
#include "runtime/status.hpp"

namespace strata::datatype {

// The predefined operators. The values are the handle indices in include/mpi.h (api/op_calls.cpp checks that at
// compile time), so the table of predefined operators is indexed directly by a handle's index.
enum OpKind : int {
  kOpNull = 0, kOpMax, kOpMin, kOpSum, kOpProd, kOpLand, kOpBand, kOpLor, kOpBor, kOpLxor, kOpBxor, kOpMaxloc,
  kOpMinloc, kOpReplace, kOpNoOp,
  kPredefinedOpEnd,
  kOpUser = kPredefinedOpEnd,  // a user function (MPI_Op_create)
};

// MPI_User_function: (invec, inoutvec, len, datatype), the datatype being an MPI_Datatype handle (an int).
using UserFunction = void(void* in, void* inout, int* len, int* datatype);
// MPI_User_function_c (MPI_Op_create_c, MPI-4.0 6.9.5): the same with an MPI_Count length.
using UserFunctionLarge = void(void* in, void* inout, long long* len, int* datatype);

struct Op {
  int kind;             // OpKind
  bool commutative;
  bool predefined;
  UserFunction* user;   // kOpUser only: one of these two
  UserFunctionLarge* user_large = nullptr;
};

// The predefined operator of that kind; nullptr for kOpNull and anything out of range.
const Op* predefined_op(int kind);
// "MPI_SUM", ..., or "a user-defined operator".
const char* op_name(const Op& op);

// Whether `op` may be applied to elements of `t`: kErrOp with a message naming both when the standard does not
// define it. User operators take any type. MPI_REPLACE and MPI_NO_OP are accumulate operators only (12.3.4).
enum class Use { kReduction, kAccumulate };
Status check(const Op& op, const Datatype& t, Use use = Use::kReduction);

// inout = in op inout for `count` elements of `t` (check() must have passed). `type_handle` is the datatype's
// MPI handle, handed to user functions. The buffers must not overlap (except in == inout).
void reduce(const Op& op, const void* in, void* inout, std::size_t count, const Datatype& t, int type_handle);

}  // namespace strata::datatype
