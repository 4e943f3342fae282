// A Hockney (alpha-beta-gamma) model that predicts a collective's time by walking the schedules every rank built,
// so any algorithm is costed from its actual structure rather than a formula written beside it.
//
// Rules: a transfer starts once the send and its matching receive are both ready and the sender's send port and
// the receiver's receive port are free (one message in and one out at a time per rank, as in the single-port
// model), and lasts Link::time of its link class (how close the two processes are): alpha + bytes * beta, or the
// rendezvous line above the transport's eager limit. A publish into the node's shared memory and each read of it
// cost node_memory's alpha + bytes * beta each (one copy, where a message makes two), the publish on the writer's
// send port, each read on its reader's receive port once the block is written (a reducing read adds bytes * gamma).
// A reduce takes bytes * gamma of its rank's processor; copies and callbacks take no time. The prediction is the
// time the last vertex finishes.
//
// Where a node's ranks outnumber its processors (cores_per_node), they also queue for those: each transfer takes
// one of the receiving node's processors for its duration (a transfer between nodes one of the sending node's too:
// the sender's network stack copies the data out), and each publish, read and reduce one of its own node's, the
// earliest free. A fractional count is that many processors rounded up, each as much slower: 0.5 is one
// processor at half speed. Without it an oversubscribed machine looks as parallel as its ranks, and an algorithm of
// many messages (a scatter-allgather bcast: 63 at 8 ranks where binomial sends 7) looks cheaper than it runs.
// Nodes that share their processors (nodes_per_host: simulated nodes on one real processor) queue on one pool of
// cores_per_node x nodes_per_host. Apart, 2 nodes of half a processor each would let 2 ranks work at once on one.
// There a transfer's receiver also acts on it only `handoff` x (its host's ranks per processor) after the data is
// there (a message's receiver, a read's reader; not the sender): it waits for its turn on the processor behind the
// others, so each hop of an algorithm's longest path costs that much more. Without it 2 simulated nodes of 4 ranks
// on one processor each were costed 25 us for a reduce_bcast allreduce of 8 B (6 hops) and 28.9 for the hierarchical
// one (3), which take 205 and 113 (cost_parameters.cpp). A reader that finds its block already written is running
// and takes it at once, with no turn to wait for: until 2026-12-03 every read paid one, so a node leader's reads of
// its node's blocks, one after another, were costed a turn each. At 16 ranks on 2 such nodes (8 a processor) the
// model then put the hierarchical allreduce of 512 KiB at 2.0 ms and multi_leader at 1.67, which ran 1.43-1.59 and
// 1.75-1.87 (now 1.15 and 1.63), and at 8 B recursive doubling (359 us) before it (382), which ran 475-501 against
// 205 (now 214). A rendezvous between nodes waits for one such turn more before its data moves, the receiver's
// answer to its request: without it the model put the hierarchical allreduce of 32-64 KiB (the whole vector between
// the nodes' leaders) before multi_leader and Rabenseifner (half of it or less between nodes), which run 0.68-0.87x
// its time (8 ranks on 2 and 4 nodes). The sender's turn to send on the clear-to-send would be a second; counted
// too, it put Rabenseifner first at 16 ranks on 2 nodes, 1.2-1.4x slower than hierarchical there.
#pragma once
#include <array>
#include <cstddef>
#include <functional>

#include "coll/schedule.hpp"

namespace strata::coll {

struct Link {
  double alpha = 0;  // seconds per message
  double beta = 0;   // seconds per byte
  // A message of more than eager_limit bytes goes by rendezvous (a request, a clear-to-send, then the data), whose
  // round trip is a cost of its own: over tcp a 64 KiB message took 56 us where 8 KiB takes 9 (bench/pingpong,
  // 2 simulated nodes). Such a message costs rendezvous_alpha + bytes * rendezvous_beta. 0: one line for all sizes.
  // Between nodes the line breaks at one fabric message, below the transport's eager limit (cost_parameters.cpp);
  // the messages in between cost the rendezvous line but wait for no answer: answer_above (0: eager_limit).
  std::size_t eager_limit = 0;
  double rendezvous_alpha = 0, rendezvous_beta = 0;
  std::size_t answer_above = 0;

  double time(std::size_t bytes) const {
    const auto m = static_cast<double>(bytes);
    return rendezvous(bytes) ? rendezvous_alpha + m * rendezvous_beta : alpha + m * beta;
  }
  bool rendezvous(std::size_t bytes) const { return eager_limit != 0 && bytes > eager_limit; }
  bool waits_for_answer(std::size_t bytes) const { return rendezvous(bytes) && bytes > answer_above; }
};

// The link classes the model tells apart, from the closest: two processes sharing a cache (L3 or below), the same
// package (or NUMA node), the same node, other nodes on the same switch, other nodes in the same rack, other nodes
// sharing no network level (topo/levels.hpp's Rack and Switch; without them every other node is kOtherNode).
enum class LinkClass : int { kSameCache, kSamePackage, kSameNode, kSameSwitch, kSameRack, kOtherNode, kCount };

// Whether the link leaves the node (goes through its network port).
constexpr bool between_nodes(LinkClass c) {
  return c == LinkClass::kSameSwitch || c == LinkClass::kSameRack || c == LinkClass::kOtherNode;
}

// The class of two processes at a distance of topo::distance's scale (1: a cache, 2-4: a package or NUMA node,
// 5-6: the node, 7: the same switch, 8: the same rack, 9: no shared network level).
LinkClass link_class(int distance);

struct CostParameters {
  std::array<Link, static_cast<std::size_t>(LinkClass::kCount)> links{};
  double gamma = 0;  // seconds per byte reduced
  Link node_memory;  // one copy into or out of the node's shared memory (a publish, a read)
  double cores_per_node = 0;  // the processors each node's ranks share; 0: one per rank (none waits for another)
  int nodes_per_host = 0;     // consecutive nodes (by node_of) that pool their processors; 0 or 1: none
  double handoff = 0;         // seconds per rank sharing a processor, before a receiver acts (see above)

  const Link& link(LinkClass c) const { return links[static_cast<std::size_t>(c)]; }
  // The same link everywhere, or one inside nodes and another between them.
  static CostParameters uniform(Link link, double gamma);
  static CostParameters two_level(Link node, Link network, double gamma);
};

// `build(rank, schedule)` builds each rank's schedule; `link_of(a, b)` says how ranks a and b are connected.
// `node_of(rank)`, when given, makes each node's network port single too: a node sends one message and receives
// one at a time over links between nodes (between_nodes), whichever of its ranks they belong to (the ranks of a
// node share its network interface, so a flat algorithm whose ranks all talk across nodes at once queues there).
// cores_per_node and nodes_per_host count only with `node_of`. Returns the predicted seconds, or a negative value
// when the schedules cannot complete (a receive without a send).
double predict(int ranks, const std::function<void(int, Schedule&)>& build, const CostParameters& parameters,
               const std::function<LinkClass(int, int)>& link_of, const std::function<int(int)>& node_of = {});

// The prediction, and the pace a stream of such calls could keep at best: the busiest rank's own share of the
// transfers, its sends' times or its receives' times (each at its link's figures, without waits; a publish into the
// node's memory counts as a send, a read as a receive, a reduction with the receives), whichever is more.
// Back-to-back calls overlap, so that rank sets their pace however short the path of one: of two algorithms
// predicted alike for one call, the one that spreads its messages over more ranks keeps up better (a root sending
// to log2(nodes) nodes, against each of its node's ranks sending to one: algorithms/hierarchical.cpp's multi_lane).
struct Forecast {
  double seconds = -1;  // predict()'s
  double pace = 0;
};
// The order the model ranks forecasts in: by time, then by pace, each to the picosecond (the same sums in another
// order differ in their last bits); equal in both, neither comes first.
bool ranks_before(const Forecast& x, const Forecast& y);

Forecast forecast(int ranks, const std::function<void(int, Schedule&)>& build, const CostParameters& parameters,
                  const std::function<LinkClass(int, int)>& link_of, const std::function<int(int)>& node_of = {});

}  // namespace strata::coll
