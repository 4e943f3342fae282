#include "coll/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <map>
#include <queue>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "datatype/pack.hpp"

namespace strata::coll {
namespace {

struct Event {
  double time;
  int rank;
  VertexId vertex;
  bool operator>(const Event& o) const { return std::tie(time, rank, vertex) > std::tie(o.time, o.rank, o.vertex); }
};

class Simulation {
 public:
  Simulation(int ranks, const std::function<void(int, Schedule&)>& build, const CostParameters& parameters,
             const std::function<LinkClass(int, int)>& link_of, const std::function<int(int)>& node_of)
      : parameters_(parameters), link_of_(link_of), node_of_(node_of), schedules_(static_cast<std::size_t>(ranks)),
        state_(static_cast<std::size_t>(ranks)) {
    for (int r = 0; r < ranks; ++r) {
      build(r, schedules_[r]);
      const auto& vs = schedules_[r].vertices();
      State& s = state_[r];
      s.deps.resize(vs.size());
      s.ready.assign(vs.size(), 0.0);
      s.finish.assign(vs.size(), -1.0);
      for (std::size_t v = 0; v < vs.size(); ++v) {
        s.deps[v] = vs[v].deps;
        if (vs[v].deps == 0) events_.push({0.0, r, static_cast<VertexId>(v)});
      }
    }
    if (host_cores() > 0 && parameters_.handoff > 0) {  // each rank's wait for its turn, where ranks share
      std::map<int, int> ranks_on_host;
      for (int r = 0; r < ranks; ++r) ++ranks_on_host[host_of(r)];
      handoff_.resize(static_cast<std::size_t>(ranks));
      for (int r = 0; r < ranks; ++r) {
        const double per_processor = ranks_on_host[host_of(r)] / host_cores();
        handoff_[r] = per_processor > 1 ? parameters_.handoff * per_processor : 0;
      }
    }
  }

  Forecast run() {
    double end = 0;
    while (!events_.empty()) {
      // Everything that becomes ready at one instant first, then the transfers it allows, in the order the senders
      // issued them: a root's sends to its children leave in its own order, whoever posted first.
      const double now = events_.top().time;
      while (!events_.empty() && events_.top().time == now) {
        const Event e = events_.top();
        events_.pop();
        start(e);
      }
      match_all();
    }
    double pace = 0;
    for (const State& s : state_) {
      for (double f : s.finish) {
        if (f < 0) return {};  // never completed
        end = std::max(end, f);
      }
      pace = std::max({pace, s.sending, s.receiving});
    }
    return {end, pace};
  }

 private:
  struct State {
    std::vector<int> deps;
    std::vector<double> ready, finish;
    double cpu_free = 0, send_free = 0, recv_free = 0;
    double sending = 0, receiving = 0;  // the link times of its own transfers (Forecast::pace)
  };
  using Channel = std::tuple<int, int, int>;  // source, destination, tag
  struct ChannelHash {
    std::size_t operator()(const Channel& c) const {
      const auto [source, destination, tag] = c;
      return std::hash<uint64_t>{}((uint64_t(uint32_t(source)) << 32 | uint32_t(destination)) * 0x9E3779B97F4A7C15u ^
                                   uint32_t(tag));
    }
  };
  // A channel's sends or receives in posting order: a vector and the index of the oldest, since most channels see
  // one message (a deque would allocate a block for each).
  class Fifo {
   public:
    void push(const Event& e) { events_.push_back(e); }
    bool empty() const { return oldest_ == events_.size(); }
    std::size_t size() const { return events_.size() - oldest_; }
    const Event& front() const { return events_[oldest_]; }
    Event pop() {
      const Event e = events_[oldest_++];
      if (empty()) events_.clear(), oldest_ = 0;
      return e;
    }

   private:
    std::vector<Event> events_;
    std::size_t oldest_ = 0;
  };
  struct Posted {
    Fifo sends, recvs;
  };

  static std::size_t bytes(const Data& d) { return datatype::wire_bytes(*d.type, d.count); }

  void start(const Event& e) {
    const Vertex& v = schedules_[e.rank].vertices()[e.vertex];
    State& s = state_[e.rank];
    switch (v.kind) {
      case Kind::kSend: {
        const Channel c{e.rank, v.peer, v.tag};
        Posted& posted = channels_[c];
        posted.sends.push(e);
        if (posted.sends.size() == 1 && !posted.recvs.empty()) matchable_.insert({e, c});
        return;
      }
      case Kind::kRecv: {
        const Channel c{v.peer, e.rank, v.tag};
        Posted& posted = channels_[c];
        posted.recvs.push(e);
        if (posted.recvs.size() == 1 && !posted.sends.empty()) matchable_.insert({posted.sends.front(), c});
        return;
      }
      case Kind::kPublish: {  // one copy into the node segment, on the writer's way out
        const Link& link = parameters_.node_memory;
        const double duration = link.time(bytes(v.a));
        s.sending += duration;
        s.send_free = on_processor(e.rank, std::max(e.time, s.send_free), duration);
        finish(e.rank, e.vertex, s.send_free);
        const std::vector<int>& readers = schedules_[e.rank].group(v);
        Block& block = blocks_[{e.rank, v.tag, readers}];
        block.published.push_back({s.send_free, static_cast<int>(readers.size())});
        take_blocks(block);
        return;
      }
      case Kind::kRead: {
        Block& block = blocks_[{v.peer, v.tag, schedules_[e.rank].group(v)}];
        block.reads.push_back(e);
        take_blocks(block);
        return;
      }
      case Kind::kReduce: {
        const double duration = static_cast<double>(bytes(v.a)) * parameters_.gamma;
        s.receiving += duration;  // the way in: combining what arrived
        s.cpu_free = on_processor(e.rank, std::max(e.time, s.cpu_free), duration);
        finish(e.rank, e.vertex, s.cpu_free);
        return;
      }
      default:
        finish(e.rank, e.vertex, e.time);
    }
  }

  // Channels whose oldest send and oldest receive are both ready meet, earliest-issued send first: one transfer
  // each, on the sender's send port and the receiver's receive port. `matchable_` holds exactly the channels with
  // both, keyed by their oldest send, so each transfer costs a logarithm rather than a scan of every channel.
  void match_all() {
    while (!matchable_.empty()) {
      const Channel c = matchable_.begin()->second;
      matchable_.erase(matchable_.begin());
      const auto at = channels_.find(c);
      Posted& posted = at->second;
      const Event send = posted.sends.pop(), recv = posted.recvs.pop();
      if (!posted.sends.empty() && !posted.recvs.empty())
        matchable_.insert({posted.sends.front(), c});
      else if (posted.sends.empty() && posted.recvs.empty())
        channels_.erase(at);  // only channels with something posted stay: p^2 of them would not fit at scale
      transfer(send, recv);
    }
  }

  void transfer(const Event& send, const Event& recv) {
    State& from = state_[send.rank];
    State& to = state_[recv.rank];
    const LinkClass link_class = link_of_(send.rank, recv.rank);
    const Link& link = parameters_.link(link_class);
    const Vertex& v = schedules_[send.rank].vertices()[send.vertex];
    const std::size_t size = bytes(v.a);
    double begin = std::max({send.time, recv.time, from.send_free, to.recv_free});
    double *node_out = nullptr, *node_in = nullptr;
    if (node_of_ && between_nodes(link_class)) {
      node_out = &node_port(node_of_(send.rank)).send_free;
      node_in = &node_port(node_of_(recv.rank)).recv_free;
      // A rendezvous waits for the receiver's turn to answer its request; meanwhile the ports may carry an earlier
      // message's data.
      const double answered = link.waits_for_answer(size) ? std::max(send.time, recv.time) + handoff(recv.rank) : 0.0;
      begin = std::max({begin, *node_out, *node_in, answered});
    }
    const double duration = link.time(size);
    from.sending += duration;
    to.receiving += duration;
    double end = on_processor(recv.rank, begin, duration);
    // Between nodes the sender works too (its network stack copies the data out), so it takes one of its node's.
    if (node_out != nullptr) end = std::max(end, on_processor(send.rank, begin, duration));
    from.send_free = to.recv_free = end;
    if (node_out != nullptr) *node_out = *node_in = end;
    finish(send.rank, send.vertex, end);
    finish(recv.rank, recv.vertex, end + handoff(recv.rank));
  }

  // A publish's block, and the reads waiting for it: each read takes the oldest block it has not taken, as one copy
  // out on the reader's way in, once the block is written.
  struct Block {
    std::deque<std::pair<double, int>> published;  // when written, and how many reads have yet to take it
    std::deque<Event> reads;
  };
  using BlockKey = std::tuple<int, int, std::vector<int>>;  // writer, tag, readers

  void take_blocks(Block& block) {
    while (!block.published.empty() && !block.reads.empty()) {
      const Event read = block.reads.front();
      block.reads.pop_front();
      State& s = state_[read.rank];
      const Link& link = parameters_.node_memory;
      const Vertex& v = schedules_[read.rank].vertices()[read.vertex];
      const double reached = std::max(read.time, s.recv_free), written = block.published.front().first;
      const double begin = std::max(reached, written);
      // A reducing read (v.op) also reduces what it takes.
      const double gamma = v.op != nullptr ? parameters_.gamma : 0.0;
      const double duration = link.time(bytes(v.a)) + static_cast<double>(bytes(v.a)) * gamma;
      s.receiving += duration;
      s.recv_free = on_processor(read.rank, begin, duration);
      // A reader that waited for the block acts on it on its turn (handoff); one that finds it written is running.
      finish(read.rank, read.vertex, s.recv_free + (written > reached ? handoff(read.rank) : 0.0));
      if (--block.published.front().second == 0) block.published.pop_front();
    }
  }

  // When `rank`'s work, ready at `begin` and lasting `duration` on a processor of its own, ends: at once without
  // cores_per_node, else on its host's earliest free processor, which it holds until then.
  double on_processor(int rank, double begin, double duration) {
    const double cores = host_cores();
    if (cores <= 0) return begin + duration;
    const double count = std::ceil(cores);
    std::vector<double>& free_at = processors_[host_of(rank)];
    if (free_at.empty()) free_at.assign(static_cast<std::size_t>(count), 0.0);
    const auto earliest = std::min_element(free_at.begin(), free_at.end());
    *earliest = std::max(begin, *earliest) + duration * count / cores;  // each of them cores / count as fast
    return *earliest;
  }

  // The processors a host's ranks share (cores_per_node x nodes_per_host), 0 when not known; the host of a rank.
  double host_cores() const {
    return node_of_ ? parameters_.cores_per_node * std::max(parameters_.nodes_per_host, 1) : 0.0;
  }
  int host_of(int rank) const { return node_of_(rank) / std::max(parameters_.nodes_per_host, 1); }

  // How long after its data is there `rank` acts on a transfer.
  double handoff(int rank) const { return handoff_.empty() ? 0.0 : handoff_[rank]; }

  void finish(int rank, VertexId id, double time) {
    State& s = state_[rank];
    s.finish[id] = time;
    for (VertexId n : schedules_[rank].vertices()[id].next) {
      s.ready[n] = std::max(s.ready[n], time);
      if (--s.deps[n] == 0) events_.push({s.ready[n], rank, n});
    }
  }

  const CostParameters& parameters_;
  struct Port {
    double send_free = 0, recv_free = 0;
  };
  Port& node_port(int node) { return node_ports_[node]; }

  const std::function<LinkClass(int, int)>& link_of_;
  const std::function<int(int)>& node_of_;
  std::map<int, Port> node_ports_;
  std::map<int, std::vector<double>> processors_;  // by host: when each of its processors is next free
  std::vector<double> handoff_;  // per rank: CostParameters::handoff x its host's ranks per processor, or empty
  std::vector<Schedule> schedules_;
  std::vector<State> state_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  std::unordered_map<Channel, Posted, ChannelHash> channels_;
  std::map<BlockKey, Block> blocks_;
  struct Earlier {
    bool operator()(const std::pair<Event, Channel>& x, const std::pair<Event, Channel>& y) const {
      return std::tie(x.first.time, x.first.rank, x.first.vertex) <
             std::tie(y.first.time, y.first.rank, y.first.vertex);
    }
  };
  std::set<std::pair<Event, Channel>, Earlier> matchable_;
};

}  // namespace

LinkClass link_class(int distance) {
  if (distance <= 1) return LinkClass::kSameCache;
  if (distance <= 4) return LinkClass::kSamePackage;
  if (distance <= 6) return LinkClass::kSameNode;
  if (distance == 7) return LinkClass::kSameSwitch;
  return distance == 8 ? LinkClass::kSameRack : LinkClass::kOtherNode;
}

CostParameters CostParameters::uniform(Link link, double gamma) { return two_level(link, link, gamma); }

CostParameters CostParameters::two_level(Link node, Link network, double gamma) {
  CostParameters p;
  p.links.fill(node);
  for (LinkClass c : {LinkClass::kSameSwitch, LinkClass::kSameRack, LinkClass::kOtherNode})
    p.links[static_cast<std::size_t>(c)] = network;
  p.gamma = gamma;
  p.node_memory = {node.alpha, node.beta / 2};
  return p;
}

double predict(int ranks, const std::function<void(int, Schedule&)>& build, const CostParameters& parameters,
               const std::function<LinkClass(int, int)>& link_of, const std::function<int(int)>& node_of) {
  return forecast(ranks, build, parameters, link_of, node_of).seconds;
}

Forecast forecast(int ranks, const std::function<void(int, Schedule&)>& build, const CostParameters& parameters,
                  const std::function<LinkClass(int, int)>& link_of, const std::function<int(int)>& node_of) {
  return Simulation(ranks, build, parameters, link_of, node_of).run();
}

bool ranks_before(const Forecast& x, const Forecast& y) {
  auto picoseconds = [](const Forecast& f) {
    return std::pair(std::llround(f.seconds * 1e12), std::llround(f.pace * 1e12));
  };
  return picoseconds(x) < picoseconds(y);
}

}  // namespace strata::coll
