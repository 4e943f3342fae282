// Reduction operators (MPI-4.0 6.9.5 - 6.9.7): MPI_Op_create, MPI_Op_free, MPI_Op_commutative and MPI_Reduce_local,
// and the large-count MPI_Op_create_c (user functions with an MPI_Count length) and MPI_Reduce_local_c.
// The operators and their loops are datatype/op.*; this file maps handles onto them and checks arguments. Errors
// go to MPI_COMM_SELF's handler (these calls have no communicator).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "api/check.hpp"
#include "datatype/op.hpp"

using namespace strata;
using namespace strata::api;

static_assert(index_of(MPI_MAX) == datatype::kOpMax && index_of(MPI_MIN) == datatype::kOpMin &&
              index_of(MPI_SUM) == datatype::kOpSum && index_of(MPI_PROD) == datatype::kOpProd &&
              index_of(MPI_LAND) == datatype::kOpLand && index_of(MPI_BAND) == datatype::kOpBand &&
              index_of(MPI_LOR) == datatype::kOpLor && index_of(MPI_BOR) == datatype::kOpBor &&
              index_of(MPI_LXOR) == datatype::kOpLxor && index_of(MPI_BXOR) == datatype::kOpBxor &&
              index_of(MPI_MAXLOC) == datatype::kOpMaxloc && index_of(MPI_MINLOC) == datatype::kOpMinloc &&
              index_of(MPI_REPLACE) == datatype::kOpReplace && index_of(MPI_NO_OP) == datatype::kOpNoOp &&
              index_of(MPI_OP_NULL) == datatype::kOpNull);
static_assert(std::is_same_v<MPI_User_function, datatype::UserFunction>);
static_assert(std::is_same_v<MPI_User_function_c, datatype::UserFunctionLarge>);

namespace {

std::string describe_op(MPI_Op handle) {
  if (handle == MPI_OP_NULL) return "MPI_OP_NULL";
  if (kind_of(handle) != STRATA_KIND_OP || handle < 0)
    return "handle " + std::to_string(handle) + ", which is not an operator handle";
  return "operator handle " + std::to_string(handle) + ", freed or never created";
}

// Argument checks in the style of Check's own (the first failure wins).
Check& valid_op(Check& check, MPI_Op handle, const datatype::Op*& out) {
  if (!check.ok()) return check;
  out = op_of(handle);
  if (out == nullptr) check.fail(MPI_ERR_OP, "op is " + describe_op(handle));
  return check;
}

// A buffer of `count` elements: not NULL (unless empty, or MPI_BOTTOM with a type of absolute addresses), not
// MPI_IN_PLACE (which MPI_Reduce_local does not take).
Check& reduce_buffer(Check& check, const void* buf, const char* what, MPI_Count count,
                     const datatype::Datatype& t) {
  if (!check.ok()) return check;
  if (buf == MPI_IN_PLACE) return check.fail(MPI_ERR_BUFFER, std::string(what) + " is MPI_IN_PLACE");
  if (buf == nullptr && count > 0 && t.size > 0 && t.true_lb == 0)
    check.fail(MPI_ERR_BUFFER, std::string(what) + " is NULL with count " + std::to_string(count));
  return check;
}

// The two buffers' data spans must not overlap (MPI-4.0 2.3: an INOUT argument is never aliased).
Check& disjoint(Check& check, const void* in, const void* inout, MPI_Count count, const datatype::Datatype& t) {
  if (!check.ok() || count == 0 || t.size == 0) return check;
  const std::ptrdiff_t last = static_cast<std::ptrdiff_t>(count - 1) * t.extent();
  const std::ptrdiff_t low = t.true_lb + std::min<std::ptrdiff_t>(last, 0);
  const std::ptrdiff_t high = t.true_ub + std::max<std::ptrdiff_t>(last, 0);
  const auto a = reinterpret_cast<std::intptr_t>(in), b = reinterpret_cast<std::intptr_t>(inout);
  if (a + low < b + high && b + low < a + high)
    check.fail(MPI_ERR_BUFFER, "inbuf and inoutbuf overlap (aliased buffers)");
  return check;
}

Check& op_on_type(Check& check, const datatype::Op& op, const datatype::Datatype& t) {
  if (!check.ok()) return check;
  const Status s = datatype::check(op, t);
  if (!s.ok()) check.fail(s.error_class, s.message);
  return check;
}

// A user operator of either width (`user` or `user_large`, the other null).
int op_create(const char* call, MPI_User_function* user, MPI_User_function_c* user_large, int commute, MPI_Op* op) {
  Check check(call);
  check.not_null(user != nullptr ? reinterpret_cast<void*>(user) : reinterpret_cast<void*>(user_large), "user_fn");
  check.not_null(op, "op");
  if (!check.ok()) return check.raise();
  *op = ops().add(std::make_shared<const datatype::Op>(
      datatype::Op{datatype::kOpUser, commute != 0, false, user, user_large}));
  return MPI_SUCCESS;
}

// inoutbuf = inbuf op inoutbuf (MPI-4.0 6.9.7). MPI_REPLACE and MPI_NO_OP are accumulate operators (12.3.4), not
// reductions: MPI_ERR_OP here, as in MPICH.
int reduce_local(const char* call, const void* inbuf, void* inoutbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op) {
  const datatype::Datatype* t = nullptr;
  const datatype::Op* o = nullptr;
  Check check(call);
  check.count(count).type(datatype, t).committed(datatype);
  valid_op(check, op, o);
  if (check.ok()) {
    reduce_buffer(check, inbuf, "inbuf", count, *t);
    reduce_buffer(check, inoutbuf, "inoutbuf", count, *t);
    disjoint(check, inbuf, inoutbuf, count, *t);
    op_on_type(check, *o, *t);
  }
  if (!check.ok()) return check.raise();
  datatype::reduce(*o, inbuf, inoutbuf, static_cast<std::size_t>(count), *t, datatype);
  return MPI_SUCCESS;
}

}  // namespace

STRATA_PMPI(Op_create)
extern "C" int PMPI_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op) {
  const runtime::CallScope call_scope;
  return op_create("MPI_Op_create", user_fn, nullptr, commute, op);
}

STRATA_PMPI(Op_create_c)
extern "C" int PMPI_Op_create_c(MPI_User_function_c* user_fn, int commute, MPI_Op* op) {
  const runtime::CallScope call_scope;
  return op_create("MPI_Op_create_c", nullptr, user_fn, commute, op);
}

// The handle goes at once; a pending nonblocking collective keeps its own reference to the operator.
STRATA_PMPI(Op_free)
extern "C" int PMPI_Op_free(MPI_Op* op) {
  const datatype::Op* o = nullptr;
  Check check("MPI_Op_free");
  check.not_null(op, "op");
  if (check.ok()) valid_op(check, *op, o);
  if (check.ok() && o->predefined)
    check.fail(MPI_ERR_OP, std::string("cannot free the predefined operator ") + datatype::op_name(*o));
  if (!check.ok()) return check.raise();
  ops().remove(*op);
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}

STRATA_PMPI(Op_commutative)
extern "C" int PMPI_Op_commutative(MPI_Op op, int* commute) {
  const datatype::Op* o = nullptr;
  Check check("MPI_Op_commutative");
  valid_op(check, op, o).not_null(commute, "commute");
  if (!check.ok()) return check.raise();
  *commute = o->commutative ? 1 : 0;
  return MPI_SUCCESS;
}

STRATA_PMPI(Reduce_local)
extern "C" int PMPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  const runtime::CallScope call_scope;
  return reduce_local("MPI_Reduce_local", inbuf, inoutbuf, count, datatype, op);
}

STRATA_PMPI(Reduce_local_c)
extern "C" int PMPI_Reduce_local_c(const void* inbuf, void* inoutbuf, MPI_Count count, MPI_Datatype datatype,
                                   MPI_Op op) {
  const runtime::CallScope call_scope;
  return reduce_local("MPI_Reduce_local_c", inbuf, inoutbuf, count, datatype, op);
}
