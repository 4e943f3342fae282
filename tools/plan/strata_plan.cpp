// strata-plan: what the cost model (coll/cost_model.hpp) predicts for every algorithm of one collective on a
// described cluster, fastest first, with the pace calls back to back could keep (its last column; of equal
// predictions, the lower pace first, as the library ranks them). Nothing runs and nothing is sent: each rank's
// schedule is built as the library would build it (its hierarchy from coll::make_hierarchy on what that rank knows,
// hierarchy.hpp) and the model walks them all, each link costed by the class of the two ranks' true distance, each
// node's network port single.
// With network levels in the machine (mpiexec --network's words: "nodes:8 rack:2 switch:2 ..."), links between nodes
// are costed as same switch, same rack or other node, and the hierarchies cut by rack and switch before the node.
//
// The library's own choice (coll/model_choice.hpp) costs the same algorithms on one view every member shares,
// coarser across nodes; this tool has the whole cluster at hand and uses it exactly.
//
//   strata-plan --machine "nodes:64 [rack:2 switch:4] pack:2 l3:1 core:16" --op bcast --bytes 8
//               [--order block|scattered|shuffled] [--costs FILE] [--groups G]
//
// The cost parameters are --costs FILE's, else a job's (STRATA_COST_FILE's, else the built-in ones). Errors in
// the options print one line and exit 2.
//
// Cost: every rank's schedule is held at once, so time and memory follow the schedules' total size. At 2048 ranks
// (64 nodes x 32 cores, 64 KiB, here) a bcast plans in 17 s and 2.0 GB, an allgather in 42 s and 2.5 GB, an
// allreduce in 46 s and 3.4 GB (its ring: 2p steps a rank, 25 million vertices in all); reduce, gather, scatter and
// barrier in 2 s.
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "cluster.hpp"
#include "coll/algorithms.hpp"
#include "coll/algorithms/grouped.hpp"
#include "coll/cost_model.hpp"
#include "coll/cost_parameters.hpp"
#include "coll/hierarchy.hpp"
#include "coll/model_choice.hpp"
#include "coll/node_segment.hpp"

using namespace strata;

namespace {

constexpr const char* kUsage =
    "usage: strata-plan --machine \"nodes:N [network levels] <hwloc synthetic node>\" --op OP --bytes N\n"
    "                   [--order block|scattered|shuffled] [--costs FILE] [--groups G]\n"
    "  network levels: as mpiexec --network takes them, top to bottom, fitting the N nodes: \"rack:2 switch:2\",\n"
    "  \"switch:12,6,4,2\" (uneven: each switch's nodes); links between nodes are then same_switch, same_rack or\n"
    "  other_node, and the hierarchical algorithms cut by rack and switch before the node;\n"
    "  OP: bcast, reduce, allreduce, allgather, barrier, gather, scatter; N: the message (bcast, reductions: whole\n"
    "  doubles) or each rank's block (gather, scatter, allgather); one rank per core, root 0;\n"
    "  costs: --costs FILE, else STRATA_COST_FILE, else the built-in ones (format: coll/cost_parameters.hpp)";

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "strata-plan: %s\n", what.c_str());
  std::exit(2);
}

struct Options {
  std::string machine;
  coll::Operation op = coll::Operation::kCount;
  std::optional<std::size_t> bytes;
  plan::Order order = plan::Order::kBlock;
  std::string costs;  // empty: the built-in parameters
  int groups = 0;
};

std::size_t parse_count(const std::string& option, const std::string& value) {
  std::size_t used = 0;
  unsigned long long n = 0;
  try {
    n = std::stoull(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != value.size() || value[0] == '-') fail(option + " \"" + value + "\" is not a count");
  return static_cast<std::size_t>(n);
}

// G as Args::groups takes it (0: the best of those the library's model tries); more groups than ranks are clamped
// there.
int parse_groups(const std::string& value) {
  return static_cast<int>(std::min<std::size_t>(parse_count("--groups", value), INT_MAX));
}

coll::Operation parse_op(const std::string& value) {
  using coll::Operation;
  for (Operation op : {Operation::kBcast, Operation::kReduce, Operation::kAllreduce, Operation::kAllgather,
                       Operation::kBarrier, Operation::kGather, Operation::kScatter})
    if (value == coll::operation_name(op)) return op;
  fail("unknown --op \"" + value + "\" (bcast, reduce, allreduce, allgather, barrier, gather or scatter)");
}

plan::Order parse_order(const std::string& value) {
  if (value == "block") return plan::Order::kBlock;
  if (value == "scattered") return plan::Order::kScattered;
  if (value == "shuffled") return plan::Order::kShuffled;
  fail("--order \"" + value + "\" is not block, scattered or shuffled");
}

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string option = argv[i];
    if (option == "-h" || option == "--help") {
      std::puts(kUsage);
      std::exit(0);
    }
    if (i + 1 == argc) fail(option.rfind("--", 0) == 0 ? option + " needs a value" : "unexpected \"" + option + "\"");
    const std::string value = argv[++i];
    if (option == "--machine") o.machine = value;
    else if (option == "--op") o.op = parse_op(value);
    else if (option == "--bytes") o.bytes = parse_count(option, value);
    else if (option == "--costs") o.costs = value;
    else if (option == "--groups") o.groups = parse_groups(value);
    else if (option == "--order") o.order = parse_order(value);
    else fail("unknown option \"" + option + "\" (--help lists them)");
  }
  if (o.machine.empty()) fail("--machine is missing (e.g. --machine \"nodes:64 pack:2 core:16\")");
  if (o.op == coll::Operation::kCount) fail("--op is missing");
  if (!o.bytes && o.op != coll::Operation::kBarrier) fail("--bytes is missing");
  return o;
}

bool reduction(coll::Operation op) { return op == coll::Operation::kReduce || op == coll::Operation::kAllreduce; }

// One rank's arguments. The buffers are only addresses: building a schedule never touches the data. A node's ranks
// would share a node segment (coll/node_segment.hpp), as a communicator's members on one node do.
coll::Args args_for(const Options& o, const plan::Cluster& cluster, int rank) {
  static std::byte send_area[8], recv_area[8];
  coll::Args a = coll::typical_call(o.op, o.bytes.value_or(0));
  a.rank = rank;
  a.size = cluster.ranks();
  a.node_memory = cluster.cores >= 2 && cluster.cores <= coll::NodeSegment::kMostRanks;
  a.shared_memory = a.node_memory && cluster.nodes == 1;
  a.groups = o.groups;
  a.sendbuf = send_area;
  a.recvbuf = recv_area;
  return a;
}

// Each rank's hierarchy as it would see the cluster: exactly on its node, elsewhere by node and its racks and
// switches only, as a job knows them from the launcher (coll::elsewhere). Made when a schedule is built and dropped
// after, not cached: kept for every rank they would hold every rank's copy of all placements (2048 ranks: about
// 200 MB), and making them is cheap (all 2048, shuffled: about 0.2 s).
class Views {
 public:
  explicit Views(const std::vector<topo::Placement>& placements) : placements_(placements) {}

  std::shared_ptr<const coll::Hierarchy> hierarchy(int rank) {
    const uint32_t node = placements_[static_cast<std::size_t>(rank)].node;
    if (!view_ || node != view_node_) {  // ranks come in order, so in block order each node's view is made once
      view_ = std::make_unique<std::vector<topo::Placement>>(placements_);
      for (topo::Placement& p : *view_)
        if (p.node != node) p = coll::elsewhere(p);
      view_node_ = node;
    }
    return std::make_shared<const coll::Hierarchy>(coll::make_hierarchy(*view_, rank));
  }

 private:
  const std::vector<topo::Placement>& placements_;
  std::unique_ptr<std::vector<topo::Placement>> view_;
  uint32_t view_node_ = 0;
};

struct Prediction {
  const coll::Algorithm* algorithm;
  double seconds;  // negative: the schedules do not complete
  bool applies;
  double pace = 0;      // coll::Forecast::pace: calls back to back go no faster (and it settles ties)
  double planning = 0;  // seconds this tool spent building and walking its schedules
  int groups = 0;       // a grouped algorithm's G (Args::groups)
};

// A grouped algorithm's G, else "-", for the last column.
std::string groups_column(const Prediction& p) { return p.groups > 0 ? std::to_string(p.groups) : "-"; }

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::string describe_order(plan::Order o) {
  return o == plan::Order::kBlock ? "block order" : o == plan::Order::kScattered ? "scattered order" : "shuffled order";
}

int run(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  const Options o = parse_options(argc, argv);
  if (o.bytes && reduction(o.op) && *o.bytes % sizeof(double) != 0)
    fail("--bytes " + std::to_string(*o.bytes) + ": a reduction takes whole doubles (a multiple of 8 bytes)");
  plan::Cluster cluster;
  if (const Status s = plan::parse_cluster(o.machine, cluster); !s.ok()) fail("--machine: " + s.message);
  // --costs, else what a job would use: STRATA_COST_FILE, or the built-in figures. A job falls back on the latter
  // when the file is unusable; a plan stops, since it would otherwise answer for parameters nobody asked for.
  coll::CostParameters parameters = coll::default_cost_parameters();
  const char* job_file = std::getenv("STRATA_COST_FILE");
  std::string costs = "built-in (coll/cost_parameters.cpp)";
  if (!o.costs.empty()) {
    if (const Status s = coll::read_cost_parameters(o.costs, parameters); !s.ok()) fail("--costs: " + s.message);
    costs = o.costs;
  } else if (job_file != nullptr && *job_file != '\0') {
    if (const Status s = coll::read_cost_parameters(job_file, parameters); !s.ok())
      fail("STRATA_COST_FILE: " + s.message);
    costs = std::string("STRATA_COST_FILE=") + job_file;
  }
  // The library's own choices inside a plan (a level's flat algorithm against the node's shared memory) cost with
  // the same figures as the plan.
  coll::set_job_cost_parameters(parameters, costs);

  const int size = cluster.ranks();
  const std::vector<topo::Placement> placements = plan::rank_placements(cluster, o.order);
  Views views(placements);
  const auto link_of = [&](int a, int b) {
    return coll::link_class(
        topo::distance(placements[static_cast<std::size_t>(a)], placements[static_cast<std::size_t>(b)]));
  };
  // The ranks of a node share its network port, as in the library's own choice (coll/model_choice.cpp).
  const auto node_of = [&](int r) { return static_cast<int>(placements[static_cast<std::size_t>(r)].node); };

  std::vector<Prediction> predictions;
  for (const coll::Algorithm* algorithm : coll::algorithms_for(o.op)) {
    // Whether it applies is decided on rank 0's arguments: `applies` only reads what every rank has alike.
    coll::Args first = args_for(o, cluster, 0);
    if (algorithm->topology_aware) first.hierarchy = views.hierarchy(0);
    if (algorithm->applies != nullptr && !algorithm->applies(first)) {
      predictions.push_back({algorithm, 0, false});
      continue;
    }
    // A grouped algorithm without --groups: each G the library's model would try, keeping the best (as it does).
    std::vector<int> groups{o.groups};
    if (algorithm->grouped && o.groups == 0 && !coll::group_choices(size, cluster.nodes).empty())
      groups = coll::group_choices(size, cluster.nodes);
    Prediction best{algorithm, -1, true};
    const auto begin = std::chrono::steady_clock::now();
    for (int g : groups) {
      const auto build = [&](int rank, coll::Schedule& s) {
        coll::Args a = args_for(o, cluster, rank);
        a.groups = g;
        if (algorithm->topology_aware) a.hierarchy = views.hierarchy(rank);
        algorithm->build(a, s);
      };
      const coll::Forecast f = coll::forecast(size, build, coll::parameters_for(o.op, parameters), link_of, node_of);
      if (f.seconds >= 0 && (best.seconds < 0 || f.seconds < best.seconds)) {
        best.seconds = f.seconds;
        best.pace = f.pace;
        best.groups = g;
      }
    }
    best.planning = seconds_since(begin);
    predictions.push_back(best);
  }
  // As the library ranks them (coll/model_choice.hpp): by time to the picosecond, then by pace.
  std::stable_sort(predictions.begin(), predictions.end(), [](const Prediction& x, const Prediction& y) {
    const auto rank = [](const Prediction& p) { return p.applies && p.seconds >= 0 ? 0 : p.applies ? 1 : 2; };
    return rank(x) != rank(y) ? rank(x) < rank(y)
                              : rank(x) == 0 && coll::ranks_before({x.seconds, x.pace}, {y.seconds, y.pace});
  });

  std::printf("# %s", coll::operation_name(o.op));
  if (o.op != coll::Operation::kBarrier) std::printf(" of %zu bytes", *o.bytes);
  std::printf(", %d ranks: %d node(s)", size, cluster.nodes);
  if (!cluster.network_description.empty()) std::printf(" under \"%s\"", cluster.network_description.c_str());
  std::printf(" x %d cores of \"%s\", %s%s\n", cluster.cores, cluster.node_description.c_str(),
              describe_order(o.order).c_str(), coll::rooted(o.op) ? ", root 0" : "");
  std::printf("# costs: %s\n", costs.c_str());
  std::printf("%-22s %14s %10s %6s %10s\n", "# algorithm", "predicted_us", "x_fastest", "groups", "pace_us");
  const double fastest = !predictions.empty() && predictions.front().applies ? predictions.front().seconds : 0;
  for (const Prediction& p : predictions) {
    const char* name = p.algorithm->name;
    const std::string g = groups_column(p);
    if (!p.applies) std::printf("%-22s %14s %10s %6s\n", name, "n/a", "-", "-");
    else if (p.seconds < 0) std::printf("%-22s %14s %10s %6s\n", name, "incomplete", "-", g.c_str());
    else
      std::printf("%-22s %14.3f %10.2f %6s %10.3f\n", name, p.seconds * 1e6, fastest > 0 ? p.seconds / fastest : 1.0,
                  g.c_str(), p.pace * 1e6);
  }
  const auto slowest = std::max_element(predictions.begin(), predictions.end(), [](auto& x, auto& y) {
    return x.planning < y.planning;
  });
  std::printf("# planned in %.1f s", seconds_since(start));
  if (slowest != predictions.end()) std::printf("; the longest to plan: %s, %.1f s", slowest->algorithm->name,
                                                slowest->planning);
  std::printf("\n");
  return 0;
}

}  // namespace

// A machine too large for this host's memory (every rank's schedule is held at once) ends with a message, not an
// abort.
int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    fail("out of memory: the plan holds every rank's schedule at once (a smaller --machine plans)");
  }
}
