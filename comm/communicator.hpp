// A communicator as the layers below api/ see it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/bootstrap.hpp"

namespace strata::comm {

// Each communicator owns a block of context ids: point-to-point uses the first, collectives the next, so their
// messages never match each other.
constexpr uint32_t kContextsPerComm = 2;

struct Communicator {
  uint32_t context = 0;
  int rank = 0;
  int size = 0;
  std::vector<int> world_ranks;  // communicator rank -> world rank
  std::string name;
  int errhandler = 0;  // owned by api/: opaque here

  int world_rank(int r) const { return world_ranks[r]; }
};

Communicator make_world(const runtime::World& world);
Communicator make_self(const runtime::World& world);

}  // namespace strata::comm
