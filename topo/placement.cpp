#include "topo/placement.hpp"

namespace strata::topo {
namespace {

// Both confined, and to the same instance.
bool share(const Placement& a, const Placement& b, Level l) { return a.confined(l) && a.at(l) == b.at(l); }

}  // namespace

Placement place(const Machine& machine, const Cpuset& binding, uint32_t node) {
  Placement p;
  p.node = node;
  for (Level l : kAllLevels) {
    p.redundant[index(l)] = machine.redundant(l);
    if (!machine.present(l)) {
      p.instance[index(l)] = kAbsent;
      continue;
    }
    p.instance[index(l)] = kNotConfined;
    if (binding.empty()) continue;
    for (const Instance& inst : machine.instances(l))
      if (binding.within(inst.cpuset)) {
        p.instance[index(l)] = inst.index;
        break;
      }
  }
  const std::vector<Cpuset>& boards = machine.boards();
  for (std::size_t b = 0; b < boards.size() && !binding.empty(); ++b)
    if (binding.within(boards[b])) {
      p.board = static_cast<int>(b);
      break;
    }
  return p;
}

int distance(const Placement& a, const Placement& b) {
  if (a.node != b.node) {
    if (share(a, b, Level::Switch)) return kSameSwitchDistance;
    return share(a, b, Level::Rack) ? kSameRackDistance : kOtherNodeDistance;
  }
  for (Level l : {Level::PU, Level::Core, Level::L1Cache, Level::L2Cache, Level::L3Cache})
    if (share(a, b, l)) return 1;
  const bool package = share(a, b, Level::Package), numa = share(a, b, Level::NUMANode);
  if (package && numa) return 2;
  if (numa) return 3;
  if (package) return 4;
  return a.board >= 0 && a.board == b.board ? 5 : 6;
}

}  // namespace strata::topo
