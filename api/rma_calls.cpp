// The RMA communication calls (MPI-4.0 12.3, 12.4): MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate,
// MPI_Fetch_and_op, MPI_Compare_and_swap and the request-based MPI_Rput, MPI_Rget, MPI_Raccumulate,
// MPI_Rget_accumulate. Arguments are checked here; epochs, ranges and the operations themselves are rma/'s
// (rma/operations.hpp). MPI_PROC_NULL as the target does nothing (12.3). A request-based put or accumulate is
// complete at once, since the data is packed into the outgoing message before the call returns; a request-based
// get completes when its data has arrived (complete_when watches the answer). Each call with counts has its
// large-count twin (MPI_Put_c, ...; MPI-4.0 2.5.8): rma/ counts in 64 bits, so any MPI_Count works.
#include <algorithm>

#include "api/derived_requests.hpp"
#include "api/windows.hpp"
#include "datatype/op.hpp"
#include "datatype/pack.hpp"
#include "rma/operations.hpp"

using namespace strata;
using namespace strata::api;

namespace {

struct Side {  // one buffer argument, checked
  void* buf;
  std::size_t count;
  datatype::TypeRef type;
};

Check& check_side(Check& check, const void* buf, MPI_Count count, MPI_Datatype type, Side& out, const char* which) {
  if (!check.ok()) return check;
  if (count < 0) return check.fail(MPI_ERR_COUNT, std::string("negative ") + which + "_count " + std::to_string(count));
  check.type(type, out.type).committed(type, out.type.get()).buffer(buf, count, out.type.get());
  out.buf = const_cast<void*>(buf);
  out.count = static_cast<std::size_t>(count);
  return check;
}

// The target's count and datatype (its memory is the window's).
Check& check_target_side(Check& check, MPI_Count count, MPI_Datatype type, Side& out) {
  check_side(check, nullptr, 0, type, out, "target");
  if (check.ok() && count < 0) check.fail(MPI_ERR_COUNT, "negative target_count " + std::to_string(count));
  out.count = static_cast<std::size_t>(std::max<MPI_Count>(count, 0));
  return check;
}

Check& check_target_rank(Check& check, int rank, const rma::Window* w, MPI_Win win) {
  if (check.ok() && rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size()))
    check.fail(MPI_ERR_RANK, "invalid target_rank " + std::to_string(rank) + " (" + describe_window(win) + " has " +
                                 std::to_string(w->size()) + " processes)");
  return check;
}

// The origin's data and the target's access carry the same number of bytes (MPI-4.0 12.3: matching signatures).
Check& check_sizes_match(Check& check, const Side& a, const char* a_name, const Side& b, const char* b_name) {
  if (!check.ok()) return check;
  const std::size_t x = datatype::wire_bytes(*a.type, a.count), y = datatype::wire_bytes(*b.type, b.count);
  if (x != y)
    check.fail(MPI_ERR_TYPE, std::string(a_name) + " describes " + std::to_string(x) + " bytes but " + b_name +
                                 " " + std::to_string(y) + " (the type signatures must match)");
  return check;
}

// An accumulate operator: a predefined one (MPI-4.0 12.3.4 allows no user operator) defined on the target type.
Check& check_accumulate_op(Check& check, MPI_Op op, const datatype::Datatype& target_type, int& kind) {
  if (!check.ok()) return check;
  const datatype::Op* o = op_of(op);
  if (o == nullptr) return check.fail(MPI_ERR_OP, "invalid operator handle " + std::to_string(op));
  if (!o->predefined)
    return check.fail(MPI_ERR_OP, "a user-defined operator can not accumulate (MPI-4.0 12.3.4: predefined "
                                  "operators, MPI_REPLACE and MPI_NO_OP only)");
  if (Status s = datatype::check(*o, target_type, datatype::Use::kAccumulate); !s.ok())
    return check.fail(s.error_class, s.message);
  kind = o->kind;
  return check;
}

rma::TargetAccess access(int rank, MPI_Aint disp, const Side& target) {
  return {rank, static_cast<std::int64_t>(disp), target.count, target.type.get()};
}

rma::OriginBuffer origin_of(const Side& s) { return {s.buf, s.count, s.type}; }

// ---- Request-based operations --------------------------------------------------------------------------------

// A request for an RMA operation: complete now (`answer` null) or when `answer` has arrived.
MPI_Request rma_request(rma::Answer answer) {
  auto* r = new ApiRequest;
  r->kind = transport::RequestKind::Send;  // its status says nothing but that it completed (MPI-4.0 12.4)
  r->comm = MPI_COMM_SELF;
  r->active = true;
  r->one_sided = true;
  complete_when(r, [answer = std::move(answer)](ApiRequest&) { return answer == nullptr || answer->complete; });
  return add_request(r);
}

// MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate: their request argument is required.
bool request_based(const char* call) { return call[4] == 'R'; }

// The common start of every RMA call: the window and the target rank; a request-based call also needs a
// passive-target epoch on the target (MPI-4.0 12.4), which the others leave to rma::'s epoch check.
Check& check_call(Check& check, const char* call, MPI_Win win, rma::Window*& w, int target_rank) {
  check_window(check, win, w);
  check_target_rank(check, target_rank, w, win);
  if (check.ok() && request_based(call) && target_rank != MPI_PROC_NULL)
    if (Status s = w->epochs.passive_access(target_rank); !s.ok()) check.fail(s.error_class, s.message);
  return check;
}

// MPI_Put, MPI_Get and their request-based forms: the same arguments, the data going one way or the other.
int put_or_get(const char* call, bool is_get, const void* origin_addr, MPI_Count origin_count,
               MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request) {
  rma::Window* w = nullptr;
  Side origin{}, target{};
  Check check(call);
  check_call(check, call, win, w, target_rank);
  check_side(check, origin_addr, origin_count, origin_datatype, origin, "origin");
  check_target_side(check, target_count, target_datatype, target);
  check_sizes_match(check, origin, "the origin", target, "the target");
  if (request_based(call)) check.not_null(request, "request");
  if (!check.ok()) return raise_on_window(call, win, check.status());
  rma::Answer answer;
  if (target_rank != MPI_PROC_NULL) {
    const rma::TargetAccess at = access(target_rank, target_disp, target);
    const Status s =
        is_get ? rma::get(*w, origin_of(origin), at, &answer) : rma::put(*w, origin_of(origin), at, &answer);
    if (!s.ok()) return raise_on_window(call, win, s);
  }
  if (request) *request = rma_request(std::move(answer));
  return MPI_SUCCESS;
}

int accumulate(const char* call, const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
               MPI_Win win, MPI_Request* request) {
  rma::Window* w = nullptr;
  Side origin{}, target{};
  int kind = 0;
  Check check(call);
  check_call(check, call, win, w, target_rank);
  check_side(check, origin_addr, origin_count, origin_datatype, origin, "origin");
  check_target_side(check, target_count, target_datatype, target);
  if (check.ok()) check_accumulate_op(check, op, *target.type, kind);
  check_sizes_match(check, origin, "the origin", target, "the target");
  if (request_based(call)) check.not_null(request, "request");
  if (!check.ok()) return raise_on_window(call, win, check.status());
  rma::Answer answer;
  if (target_rank != MPI_PROC_NULL)
    if (Status s = rma::accumulate(*w, origin_of(origin), access(target_rank, target_disp, target), kind, &answer);
        !s.ok())
      return raise_on_window(call, win, s);
  if (request) *request = rma_request(std::move(answer));
  return MPI_SUCCESS;
}

int get_accumulate(const char* call, const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                   void* result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                   MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                   MPI_Request* request) {
  rma::Window* w = nullptr;
  Side origin{}, result{}, target{};
  int kind = 0;
  Check check(call);
  check_call(check, call, win, w, target_rank);
  check_target_side(check, target_count, target_datatype, target);
  if (check.ok()) check_accumulate_op(check, op, *target.type, kind);
  // With MPI_NO_OP the origin buffer is ignored (MPI-4.0 12.3.5).
  if (check.ok() && kind != datatype::kOpNoOp) {
    check_side(check, origin_addr, origin_count, origin_datatype, origin, "origin");
    check_sizes_match(check, origin, "the origin", target, "the target");
  }
  check_side(check, result_addr, result_count, result_datatype, result, "result");
  check_sizes_match(check, result, "the result", target, "the target");
  if (request_based(call)) check.not_null(request, "request");
  if (!check.ok()) return raise_on_window(call, win, check.status());
  rma::Answer answer;
  if (target_rank != MPI_PROC_NULL) {
    if (kind == datatype::kOpNoOp) origin = {nullptr, 0, target.type};
    if (Status s = rma::get_accumulate(*w, origin_of(origin), origin_of(result),
                                       access(target_rank, target_disp, target), kind, &answer);
        !s.ok())
      return raise_on_window(call, win, s);
  }
  if (request) *request = rma_request(std::move(answer));
  return MPI_SUCCESS;
}

}  // namespace

STRATA_PMPI(Put)
extern "C" int PMPI_Put(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  const runtime::CallScope call_scope;
  return put_or_get("MPI_Put", false, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, win, nullptr);
}

STRATA_PMPI(Put_c)
extern "C" int PMPI_Put_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                          int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype,
                          MPI_Win win) {
  const runtime::CallScope call_scope;
  return put_or_get("MPI_Put_c", false, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, win, nullptr);
}

STRATA_PMPI(Rput)
extern "C" int PMPI_Rput(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                         MPI_Request* request) {
  const runtime::CallScope call_scope;
  return put_or_get("MPI_Rput", false, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, win, request);
}

STRATA_PMPI(Rput_c)
extern "C" int PMPI_Rput_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                           int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                           MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return put_or_get("MPI_Rput_c", false, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, win, request);
}

STRATA_PMPI(Get)
extern "C" int PMPI_Get(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  const runtime::CallScope call_scope;
  return put_or_get("MPI_Get", true, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, win, nullptr);
}

STRATA_PMPI(Get_c)
extern "C" int PMPI_Get_c(void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win) {
  const runtime::CallScope call_scope;
  return put_or_get("MPI_Get_c", true, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, win, nullptr);
}

STRATA_PMPI(Rget)
extern "C" int PMPI_Rget(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                         MPI_Request* request) {
  const runtime::CallScope call_scope;
  return put_or_get("MPI_Rget", true, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, win, request);
}

STRATA_PMPI(Rget_c)
extern "C" int PMPI_Rget_c(void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                           MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                           MPI_Request* request) {
  const runtime::CallScope call_scope;
  return put_or_get("MPI_Rget_c", true, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, win, request);
}

STRATA_PMPI(Accumulate)
extern "C" int PMPI_Accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                               int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
                               MPI_Op op, MPI_Win win) {
  const runtime::CallScope call_scope;
  return accumulate("MPI_Accumulate", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, op, win, nullptr);
}

STRATA_PMPI(Accumulate_c)
extern "C" int PMPI_Accumulate_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                                 int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                 MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  const runtime::CallScope call_scope;
  return accumulate("MPI_Accumulate_c", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, op, win, nullptr);
}

STRATA_PMPI(Raccumulate)
extern "C" int PMPI_Raccumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                int target_rank, MPI_Aint target_disp, int target_count,
                                MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return accumulate("MPI_Raccumulate", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, op, win, request);
}

STRATA_PMPI(Raccumulate_c)
extern "C" int PMPI_Raccumulate_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                                  int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                  MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return accumulate("MPI_Raccumulate_c", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, op, win, request);
}

STRATA_PMPI(Get_accumulate)
extern "C" int PMPI_Get_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                   void* result_addr, int result_count, MPI_Datatype result_datatype,
                                   int target_rank, MPI_Aint target_disp, int target_count,
                                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  const runtime::CallScope call_scope;
  return get_accumulate("MPI_Get_accumulate", origin_addr, origin_count, origin_datatype, result_addr, result_count,
                        result_datatype, target_rank, target_disp, target_count, target_datatype, op, win, nullptr);
}

STRATA_PMPI(Get_accumulate_c)
extern "C" int PMPI_Get_accumulate_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                                     void* result_addr, MPI_Count result_count, MPI_Datatype result_datatype,
                                     int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  const runtime::CallScope call_scope;
  return get_accumulate("MPI_Get_accumulate_c", origin_addr, origin_count, origin_datatype, result_addr, result_count,
                        result_datatype, target_rank, target_disp, target_count, target_datatype, op, win, nullptr);
}

STRATA_PMPI(Rget_accumulate)
extern "C" int PMPI_Rget_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                    void* result_addr, int result_count, MPI_Datatype result_datatype,
                                    int target_rank, MPI_Aint target_disp, int target_count,
                                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return get_accumulate("MPI_Rget_accumulate", origin_addr, origin_count, origin_datatype, result_addr,
                        result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op,
                        win, request);
}

STRATA_PMPI(Rget_accumulate_c)
extern "C" int PMPI_Rget_accumulate_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                                      void* result_addr, MPI_Count result_count, MPI_Datatype result_datatype,
                                      int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                      MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return get_accumulate("MPI_Rget_accumulate_c", origin_addr, origin_count, origin_datatype, result_addr,
                        result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op,
                        win, request);
}

STRATA_PMPI(Fetch_and_op)
extern "C" int PMPI_Fetch_and_op(const void* origin_addr, void* result_addr, MPI_Datatype datatype, int target_rank,
                                 MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
  const runtime::CallScope call_scope;
  // One element of a predefined type (MPI-4.0 12.3.5): a get_accumulate of count 1.
  const datatype::Datatype* t = datatype_of(datatype);
  if (t != nullptr && !t->predefined)
    return raise_on_window("MPI_Fetch_and_op", win, MPI_ERR_TYPE,
                           describe_type(datatype) + " is not a predefined datatype (MPI-4.0 12.3.5)");
  return get_accumulate("MPI_Fetch_and_op", origin_addr, 1, datatype, result_addr, 1, datatype, target_rank,
                        target_disp, 1, datatype, op, win, nullptr);
}

STRATA_PMPI(Compare_and_swap)
extern "C" int PMPI_Compare_and_swap(const void* origin_addr, const void* compare_addr, void* result_addr,
                                     MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win) {
  constexpr const char* call = "MPI_Compare_and_swap";
  rma::Window* w = nullptr;
  Side target{}, origin{}, compare{}, result{};
  Check check(call);
  check_call(check, call, win, w, target_rank);
  check_side(check, origin_addr, 1, datatype, origin, "origin");
  check_side(check, compare_addr, 1, datatype, compare, "compare");
  check_side(check, result_addr, 1, datatype, result, "result");
  // An integer, logical, multi-language or byte type (MPI-4.0 12.3.5): those MPI_BAND (integers, multi-language,
  // byte) or MPI_LAND (logical) is defined on.
  const auto takes = [&](datatype::OpKind op) {
    return datatype::check(*datatype::predefined_op(op), *origin.type).ok();
  };
  if (check.ok() && (!origin.type->predefined || !(takes(datatype::kOpBand) || takes(datatype::kOpLand))))
    check.fail(MPI_ERR_TYPE, describe_type(datatype) + " is not an integer, logical or byte type (MPI-4.0 12.3.5)");
  if (!check.ok()) return raise_on_window(call, win, check.status());
  if (target_rank == MPI_PROC_NULL) return MPI_SUCCESS;
  target = {nullptr, 1, origin.type};
  return raise_on_window(call, win,
                         rma::compare_swap(*w, origin_addr, compare_addr, origin_of(result),
                                           access(target_rank, target_disp, target)));
}
