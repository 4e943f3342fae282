#include "comm/communicator.hpp"

#include <numeric>

namespace strata::comm {

Communicator make_world(const runtime::World& world) {
  Communicator c;
  c.context = 0;
  c.rank = world.rank;
  c.size = world.size;
  c.world_ranks.resize(world.size);
  std::iota(c.world_ranks.begin(), c.world_ranks.end(), 0);
  c.name = "MPI_COMM_WORLD";
  return c;
}

Communicator make_self(const runtime::World& world) {
  Communicator c;
  c.context = kContextsPerComm;
  c.rank = 0;
  c.size = 1;
  c.world_ranks = {world.rank};
  c.name = "MPI_COMM_SELF";
  return c;
}

}  // namespace strata::comm
