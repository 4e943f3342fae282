#include "coll/model_choice.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <set>

#include "coll/algorithms/grouped.hpp"
#include "datatype/predefined.hpp"

namespace strata::coll {

// Across nodes every member knows every rank's node and its racks and switches (job-level data), so the view keeps
// those: links there are "same switch", "same rack" or "other node", and the view's hierarchies cut by the network
// levels before the nodes.
std::vector<topo::Placement> shared_view(const Hierarchy& h) {
  if (!h.spans_nodes()) return h.placements;
  std::vector<topo::Placement> view;
  view.reserve(h.placements.size());
  for (const topo::Placement& p : h.placements) view.push_back(elsewhere(p));  // keeps racks and switches
  return view;
}

std::vector<Candidate> rank_by_model(const Args& args, const std::vector<const Algorithm*>& algorithms,
                                     const std::vector<topo::Placement>& view, const CostParameters& parameters) {
  const int p = static_cast<int>(view.size());
  if (algorithms.empty()) return {};
  const CostParameters costed = parameters_for(algorithms.front()->operation, parameters);
  // Each rank's hierarchy in the view, made once for all candidates.
  std::vector<std::shared_ptr<const Hierarchy>> hierarchies(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) hierarchies[r] = std::make_shared<const Hierarchy>(make_hierarchy(view, r));
  auto link_of = [&](int a, int b) { return link_class(topo::distance(view[a], view[b])); };

  auto cost = [&](const Algorithm* algorithm, int groups) {
    return forecast(
        p,
        [&](int r, Schedule& s) {
          Args theirs = args;
          theirs.rank = r;
          theirs.hierarchy = hierarchies[r];
          theirs.groups = groups;
          algorithm->build(theirs, s);
        },
        costed, link_of, [&](int r) { return static_cast<int>(view[r].node); });
  };
  std::set<std::size_t> nodes;
  for (const topo::Placement& place : view) nodes.insert(place.node);

  std::vector<Candidate> out;
  for (const Algorithm* algorithm : algorithms) {
    if (!algorithm->grouped || args.groups != 0) {
      const Forecast f = cost(algorithm, args.groups);
      out.push_back({algorithm, f.seconds, f.pace, args.groups});
      continue;
    }
    Candidate best{algorithm, -1, 0, 0};
    for (int g : group_choices(p, static_cast<int>(nodes.size()))) {
      const Forecast f = cost(algorithm, g);
      if (f.seconds >= 0 && (best.seconds < 0 || f.seconds < best.seconds)) best = {algorithm, f.seconds, f.pace, g};
    }
    if (best.groups != 0) out.push_back(best);
  }
  // Uncostable ones last; then as the model ranks forecasts, and in the order given (the caller's preference).
  std::stable_sort(out.begin(), out.end(), [](const Candidate& x, const Candidate& y) {
    if ((x.seconds < 0) != (y.seconds < 0)) return y.seconds < 0;
    return ranks_before({x.seconds, x.pace}, {y.seconds, y.pace});
  });
  return out;
}

CostParameters parameters_for(Operation op, const CostParameters& p) {
  CostParameters out = p;
  if (rooted(op)) out.handoff = 0;
  return out;
}

Args typical_call(Operation op, std::size_t bytes) {
  const bool doubles = op == Operation::kReduce || op == Operation::kAllreduce ||
                       op == Operation::kReduceScatterBlock || op == Operation::kScan || op == Operation::kExscan;
  Args a;
  a.sendtype = a.recvtype = datatype::predefined(doubles ? datatype::kDouble : datatype::kByte);
  a.sendcount = a.recvcount = doubles ? bytes / sizeof(double) : bytes;
  if (doubles) a.op = datatype::predefined_op(datatype::kOpSum);
  return a;
}

std::string describe(const std::vector<Candidate>& candidates, std::size_t top) {
  std::string out;
  for (std::size_t i = 0; i < candidates.size() && i < top; ++i) {
    char figure[64];
    if (candidates[i].seconds < 0)
      std::snprintf(figure, sizeof figure, " (not costed)");
    else
      std::snprintf(figure, sizeof figure, " %.3g us (pace %.3g us)", candidates[i].seconds * 1e6,
                    candidates[i].pace * 1e6);
    std::string name = candidates[i].algorithm->name;
    if (candidates[i].groups > 0) name += " (G=" + std::to_string(candidates[i].groups) + ")";
    out += (out.empty() ? "" : ", ") + name + figure;
  }
  return out;
}

}  // namespace strata::coll
