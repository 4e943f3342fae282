// What an accumulate does to the target's memory (MPI-4.0 12.3.4), whoever applies it: the target on receipt of a
// message (channel.cpp) or the origin on a mapped window (direct.cpp). The caller provides the atomicity.
#pragma once
#include <cstddef>

#include "datatype/datatype.hpp"

namespace strata::rma {

// target = origin op target, element by element, over `count` elements of `t` at `addr`, with the origin's data
// packed (t's signature) at `packed`; MPI_REPLACE stores the data, MPI_NO_OP leaves the target alone.
void accumulate_packed(char* addr, std::size_t count, const datatype::Datatype& t, int op_kind, const char* packed);

}  // namespace strata::rma
