// The RMA calls' window-side checks and dispatch (see operations.hpp).
#include "rma/operations.hpp"

#include "rma/cross_memory.hpp"
#include "rma/direct.hpp"
#include "rma/target_type.hpp"

namespace strata::rma {
namespace {

Status check_access(Window& w, const TargetAccess& at) {
  if (Status s = w.epochs.access(at.target); !s.ok()) return s;
  if (w.flavor == Flavor::Dynamic) return {};
  const auto [first, last] = span_of(*at.type, at.count);
  if (first == last) return {};
  const std::ptrdiff_t start = at.disp * w.layout.disp_units[at.target];
  const auto size = static_cast<std::ptrdiff_t>(w.layout.sizes[at.target]);
  if (at.disp < 0 || start + first < 0 || start + last > size)
    return error(kErrRmaRange, "the access at target_disp " + std::to_string(at.disp) + " covers bytes [" +
                                   std::to_string(start + first) + ", " + std::to_string(start + last) +
                                   ") of target rank " + std::to_string(at.target) + "'s window, which has " +
                                   std::to_string(size) + " bytes");
  return {};
}

}  // namespace

Status put(Window& w, const OriginBuffer& origin, const TargetAccess& at, Answer* answer) {
  if (Status s = check_access(w, at); !s.ok()) return s;
  if (w.direct()) {
    direct_put(w, origin, at);
    return {};
  }
  if (cross_memory_put(w.cross_memory, w.layout.disp_units[at.target], origin, at)) return {};
  Answer a = w.channel->put(origin, at);
  if (answer) *answer = std::move(a);
  w.touched[at.target] = true;
  return {};
}

Status get(Window& w, const OriginBuffer& origin, const TargetAccess& at, Answer* answer) {
  if (Status s = check_access(w, at); !s.ok()) return s;
  if (w.direct()) {
    direct_get(w, origin, at);
    return {};
  }
  if (cross_memory_get(w.cross_memory, w.layout.disp_units[at.target], origin, at)) return {};
  Answer a = w.channel->get(origin, at);
  if (answer) *answer = std::move(a);
  w.touched[at.target] = true;
  return {};
}

Status accumulate(Window& w, const OriginBuffer& origin, const TargetAccess& at, int op, Answer* answer) {
  if (Status s = check_access(w, at); !s.ok()) return s;
  if (w.direct()) {
    direct_accumulate(w, origin, at, op);
    return {};
  }
  Answer a = w.channel->accumulate(origin, at, op);
  if (answer) *answer = std::move(a);
  w.touched[at.target] = true;
  return {};
}

Status get_accumulate(Window& w, const OriginBuffer& origin, const OriginBuffer& result, const TargetAccess& at,
                      int op, Answer* answer) {
  if (Status s = check_access(w, at); !s.ok()) return s;
  if (w.direct()) {
    direct_get_accumulate(w, origin, result, at, op);
    return {};
  }
  Answer a = w.channel->get_accumulate(origin, result, at, op);
  if (answer) *answer = std::move(a);
  w.touched[at.target] = true;
  return {};
}

Status compare_swap(Window& w, const void* origin, const void* compare, const OriginBuffer& result,
                    const TargetAccess& at) {
  if (Status s = check_access(w, at); !s.ok()) return s;
  if (w.direct()) {
    direct_compare_swap(w, origin, compare, result, at);
    return {};
  }
  w.channel->compare_swap(origin, compare, result, at);
  w.touched[at.target] = true;
  return {};
}

}  // namespace strata::rma
