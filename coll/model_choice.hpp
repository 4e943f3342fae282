// The cost model as a chooser: the predicted time (cost_model.hpp) of each candidate algorithm for a call, built for
// every rank of the communicator as one shared view of it describes them.
//
// Every member must pick the same algorithm, so the view holds only what every member knows alike. Within one node
// that is every member's placement (bindings are job data). Across nodes a member knows only the other nodes'
// ranks, not where they are bound: the view then places every rank by its node alone (hierarchy.hpp's
// elsewhere()), links are "same node" or "other node", and the hierarchies in it are cut by node only. The
// prediction is coarser there, but the same on every rank.
#pragma once
#include <string>
#include <vector>

#include "coll/algorithms.hpp"
#include "coll/cost_model.hpp"
#include "coll/hierarchy.hpp"

namespace strata::coll {

struct Candidate {
  const Algorithm* algorithm = nullptr;
  double seconds = 0;  // predicted; negative when the schedules could not be costed
  double pace = 0;     // Forecast::pace: what settles a tie
  int groups = 0;      // a grouped algorithm's G as costed (the requested one, else the best of group_choices)
};

// The placements every member of the communicator of `h` knows alike (see above).
std::vector<topo::Placement> shared_view(const Hierarchy& h);

// The predicted time of each of `algorithms` for `args` (any rank's arguments of a call whose significant values
// agree across ranks: bcast, reduce, allreduce, allgather, barrier) on the view; fastest first. A grouped algorithm
// is costed with Args::groups, or when that is 0 with each of group_choices() and kept at its best G. Of candidates
// predicted alike (to the picosecond: the binomial, hierarchical and multi_lane bcasts in block order where ranks
// outnumber processors, each tree's time then its processors' work), the one with the lower pace comes first: it
// keeps up better with calls back to back. Equal in both (to the picosecond), the order given stands.
std::vector<Candidate> rank_by_model(const Args& args, const std::vector<const Algorithm*>& algorithms,
                                     const std::vector<topo::Placement>& view, const CostParameters& parameters);

// The parameters a choice for `op` costs with: `p` without its handoff for a rooted operation. A stream of rooted
// calls keeps every rank busy (a root starts its next call while its leaves take this one), so a receiver's turn on
// the processor overlaps other calls: on 2 simulated nodes of 4 ranks on one processor each, a stream of 8-byte
// bcasts took 27 us a call by linear against binomial's 7.4 (one call alone, bench/coll.c's aligned mode, 206
// against 202), and with the handoff the model chose linear for it. An allreduce's ranks each wait for all the
// others in every call, and pay each turn (cost_parameters.cpp).
CostParameters parameters_for(Operation op, const CostParameters& p);

// A call of `op` moving `bytes` per rank and block, rooted at 0, without buffers (building a schedule never touches
// the data): MPI_DOUBLE sums for the reductions, MPI_BYTE blocks otherwise. What MPIX_Comm_get_coll_info and
// strata-plan cost when they have no real call; the caller sets rank and size.
Args typical_call(Operation op, std::size_t bytes);

// "hierarchical 12.1 us (pace 7.4 us), binomial 20.4 us (pace 9 us), ...": the first `top` candidates, for MPIX
// queries.
std::string describe(const std::vector<Candidate>& candidates, std::size_t top);

}  // namespace strata::coll
