// A Hockney (alpha-beta-gamma) model that predicts a collective's time by walking the schedules every rank built,
// so any algorithm is costed from its actual structure rather than a formula written beside it.
//
// Rules: a transfer starts once the send and its matching receive are both ready and the sender's send port and
// the receiver's receive port are free (one message in and one out at a time per rank, as in the single-port
// model), and lasts alpha + bytes * beta of its link class (same node or not). A reduce takes bytes * gamma of
// its rank's processor; copies and callbacks take no time. The prediction is the time the last vertex finishes.
#pragma once
#include <functional>

#include "coll/schedule.hpp"

namespace strata::coll {

struct Link {
  double alpha = 0;  // seconds per message
  double beta = 0;   // seconds per byte
};

struct CostParameters {
  Link same_node;
  Link other_node;
  double gamma = 0;  // seconds per byte reduced
};

// `build(rank, schedule)` builds each rank's schedule; `node_of(rank)` says which node a rank is on. Returns the
// predicted seconds, or a negative value when the schedules cannot complete (a receive without a send).
double predict(int ranks, const std::function<void(int, Schedule&)>& build, const CostParameters& parameters,
               const std::function<int(int)>& node_of);

}  // namespace strata::coll
