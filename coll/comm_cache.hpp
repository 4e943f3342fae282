// What coll/ keeps per communicator (Communicator::collectives, freed with it): the last collective built for each
// operation. A call with the same arguments as the previous one of its operation (same buffers, counts, types,
// root, operator and forced algorithm: the loop of an application or a benchmark) reuses it while it is not
// running, and so skips selection, building and every allocation, as a persistent collective does.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "coll/collective.hpp"
#include "comm/communicator.hpp"

namespace strata::coll {

class CommCache {
 public:
  // A collective for these arguments, not running: the cached one if it matches, else a new one, which replaces it
  // (a running one stays alive through its other owners). The caller starts it.
  Status get(Operation op, const Args& args, const comm::Communicator& c, const std::string& forced,
             std::shared_ptr<Collective>& out);

 private:
  std::array<std::shared_ptr<Collective>, static_cast<std::size_t>(Operation::kCount)> last_;
};

}  // namespace strata::coll
