// The accumulate step (see accumulate.hpp).
#include "rma/accumulate.hpp"

#include <vector>

#include "datatype/op.hpp"
#include "datatype/pack.hpp"
#include "datatype/predefined.hpp"

namespace strata::rma {

void accumulate_packed(char* addr, std::size_t count, const datatype::Datatype& t, int op_kind, const char* packed) {
  const std::size_t bytes = datatype::wire_bytes(t, count);
  if (op_kind == datatype::kOpNoOp || bytes == 0) return;
  if (op_kind == datatype::kOpReplace) {
    datatype::unpack(packed, bytes, count, t, addr);
    return;
  }
  // Reduced as the basic elements they all are (the operator check allows nothing else).
  const datatype::Op& op = *datatype::predefined_op(op_kind);
  const datatype::Datatype& basic = t.predefined ? t : *datatype::predefined(t.element);
  if (basic.size != static_cast<std::size_t>(basic.extent())) {
    // A pair type with padding (MPI_DOUBLE_INT, MPI_LONG_DOUBLE_INT, ...): packed, its elements lie `size` apart,
    // but the operator reads them `extent` apart, as in memory. Both operands go through arrays of such elements.
    const std::size_t n = bytes / basic.size, spaced = n * static_cast<std::size_t>(basic.extent());
    std::vector<char> in(spaced), current(spaced), repacked(bytes);
    datatype::unpack(packed, bytes, n, basic, in.data());
    datatype::pack(addr, count, t, repacked.data());
    datatype::unpack(repacked.data(), bytes, n, basic, current.data());
    datatype::reduce(op, in.data(), current.data(), n, basic, 0);
    datatype::pack(current.data(), n, basic, repacked.data());
    datatype::unpack(repacked.data(), bytes, count, t, addr);
    return;
  }
  if (datatype::contiguous(t, count)) {
    datatype::reduce(op, packed, addr + t.true_lb, bytes / basic.size, basic, 0);
    return;
  }
  std::vector<char> current(bytes);  // the target's elements packed, reduced, put back
  datatype::pack(addr, count, t, current.data());
  datatype::reduce(op, packed, current.data(), bytes / basic.size, basic, 0);
  datatype::unpack(current.data(), bytes, count, t, addr);
}

}  // namespace strata::rma
