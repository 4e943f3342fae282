#include "comm/process_topology.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>

namespace strata::comm {

int CartTopology::size() const { return std::accumulate(dims.begin(), dims.end(), 1, std::multiplies<>()); }

std::vector<int> GraphTopology::neighbors(int rank) const {
  const int first = rank == 0 ? 0 : index[static_cast<std::size_t>(rank) - 1];
  return {edges.begin() + first, edges.begin() + index[static_cast<std::size_t>(rank)]};
}

namespace {

// The most balanced factorisation of n into k non-increasing factors: the smallest largest-minus-smallest, and
// among those the one whose smallest factor is largest, then its second smallest, ... (21 x 16 x 15 rather than
// 20 x 18 x 14 for 5040: MPICH's choice, which its dims tests check). A search over n's divisors, pruned where
// the factors left could no longer reach n, or their smallest would make the result worse. Fast for any process
// count; n with over a thousand divisors into more than 8 dimensions can take seconds.
std::vector<int> balanced_factors(int n, int k) {
  std::vector<int> divisors;
  for (int d = 1; static_cast<long long>(d) * d <= n; ++d)
    if (n % d == 0) divisors.push_back(d), divisors.push_back(n / d);
  std::sort(divisors.rbegin(), divisors.rend());
  divisors.erase(std::unique(divisors.begin(), divisors.end()), divisors.end());
  std::vector<int> current, best;
  // Whether `d` beats `best`: a smaller spread, or the same and larger factors counted from the smallest.
  const auto better = [&](const std::vector<int>& d) {
    const int spread = d.front() - d.back(), best_spread = best.front() - best.back();
    if (spread != best_spread) return spread < best_spread;
    return std::lexicographical_compare(best.rbegin(), best.rend(), d.rbegin(), d.rend());
  };
  const std::function<void(int, int)> search = [&](int left, int most) {
    const int parts = k - static_cast<int>(current.size());
    if (parts == 1 || left == 1) {  // the last factor, or ones to the end
      if (left > most) return;
      const std::size_t filled = current.size();
      current.resize(static_cast<std::size_t>(k), 1);
      current[filled] = left;
      if (best.empty() || better(current)) best = current;
      current.resize(filled);
      return;
    }
    // The divisors up to `most`, largest first (the list is descending).
    for (auto it = std::lower_bound(divisors.begin(), divisors.end(), most, std::greater<>()); it != divisors.end();
         ++it) {
      const int f = *it;
      if (left % f != 0) continue;
      long long reach = 1;  // the most the remaining parts, each at most f, can multiply to
      for (int i = 0; i < parts && reach < left; ++i) reach *= f;
      if (reach < left) break;  // smaller factors reach even less
      // The smallest factor to come is at most the (parts - 1)-th root of what f leaves.
      const int smallest = static_cast<int>(std::pow(static_cast<double>(left / f), 1.0 / (parts - 1)) + 1e-9);
      const int front = current.empty() ? f : current.front();
      if (!best.empty() && (front - smallest > best.front() - best.back() ||
                            (front - smallest == best.front() - best.back() && smallest < best.back())))
        continue;
      current.push_back(f);
      search(left / f, f);
      current.pop_back();
    }
  };
  search(n, n);
  return best;
}

}  // namespace

Status dims_create(int nodes, std::vector<int>& dims) {
  int fixed = 1;
  for (int d : dims)
    if (d > 0) fixed *= d;
  const int free = static_cast<int>(std::count(dims.begin(), dims.end(), 0));
  if (nodes % fixed != 0 || (free == 0 && nodes != fixed))
    return error(kErrDims, "the fixed dims multiply to " + std::to_string(fixed) + ", which does not " +
                               (free == 0 ? "equal" : "divide") + " nnodes = " + std::to_string(nodes));
  if (free == 0) return {};
  const std::vector<int> factors = balanced_factors(nodes / fixed, free);
  auto it = factors.begin();
  for (int& d : dims)
    if (d == 0) d = *it++;
  return {};
}

int cart_rank(const CartTopology& t, const std::vector<int>& coords) {
  int rank = 0;
  for (std::size_t i = 0; i < t.dims.size(); ++i) {
    int c = coords[i];
    if (t.periods[i])
      c = ((c % t.dims[i]) + t.dims[i]) % t.dims[i];
    else if (c < 0 || c >= t.dims[i])
      return kProcNull;
    rank = rank * t.dims[i] + c;  // row-major (MPI-4.0 8.5.1)
  }
  return rank;
}

std::vector<int> cart_coords(const CartTopology& t, int rank) {
  std::vector<int> coords(t.dims.size());
  for (std::size_t i = t.dims.size(); i-- > 0;) {
    coords[i] = rank % t.dims[i];
    rank /= t.dims[i];
  }
  return coords;
}

void cart_shift(const CartTopology& t, int rank, int direction, int disp, int& source, int& dest) {
  std::vector<int> coords = cart_coords(t, rank);
  const int mine = coords[static_cast<std::size_t>(direction)];
  coords[static_cast<std::size_t>(direction)] = mine + disp;
  dest = cart_rank(t, coords);
  coords[static_cast<std::size_t>(direction)] = mine - disp;
  source = cart_rank(t, coords);
}

int cart_sub_color(const CartTopology& t, int rank, const std::vector<bool>& remain) {
  const std::vector<int> coords = cart_coords(t, rank);
  int color = 0;
  for (std::size_t i = 0; i < t.dims.size(); ++i)
    if (!remain[i]) color = color * t.dims[i] + coords[i];
  return color;
}

CartTopology cart_sub(const CartTopology& t, const std::vector<bool>& remain) {
  CartTopology sub;
  for (std::size_t i = 0; i < t.dims.size(); ++i)
    if (remain[i]) {
      sub.dims.push_back(t.dims[i]);
      sub.periods.push_back(t.periods[i]);
    }
  return sub;
}

namespace {

// Tags by occurrence: the k-th appearance of a peer in `ranks` gets tag k.
std::vector<int> occurrence_tags(const std::vector<int>& ranks) {
  std::vector<int> tags;
  for (std::size_t i = 0; i < ranks.size(); ++i)
    tags.push_back(static_cast<int>(std::count(ranks.begin(), ranks.begin() + static_cast<std::ptrdiff_t>(i),
                                               ranks[i])));
  return tags;
}

}  // namespace

Neighbours neighbours(const ProcessTopology& t, int rank) {
  Neighbours n;
  if (const auto* cart = std::get_if<CartTopology>(&t.kind)) {
    for (std::size_t d = 0; d < cart->dims.size(); ++d) {  // per dimension: the -1 neighbour, then the +1
      int minus = 0, plus = 0;
      cart_shift(*cart, rank, static_cast<int>(d), 1, minus, plus);
      for (int slot : {0, 1}) {
        const int s = static_cast<int>(2 * d) + slot;
        n.sources.push_back(slot == 0 ? minus : plus);
        n.destinations.push_back(slot == 0 ? minus : plus);
        n.destination_tags.push_back(s);  // a send to the +1 side arrives on the receiver's -1 side
        n.source_tags.push_back(s ^ 1);
      }
    }
  } else if (const auto* graph = std::get_if<GraphTopology>(&t.kind)) {
    n.sources = n.destinations = graph->neighbors(rank);
    n.source_tags = n.destination_tags = occurrence_tags(n.sources);
  } else {
    const auto& dist = std::get<DistGraphTopology>(t.kind);
    n.sources = dist.sources;
    n.destinations = dist.destinations;
    n.source_tags = occurrence_tags(n.sources);
    n.destination_tags = occurrence_tags(n.destinations);
  }
  return n;
}

DistGraphTopology exchange_edges(const View& v, const std::vector<Edge>& mine, bool weighted) {
  const int count = static_cast<int>(mine.size());
  std::vector<char> blob(sizeof count);
  std::memcpy(blob.data(), &count, sizeof count);
  const std::vector<char> counts = allgather(v, blob, kTagAllgather);
  const int members = static_cast<int>(v.world_ranks->size());
  int most = 0;
  for (int r = 0; r < members; ++r) {
    int n = 0;
    std::memcpy(&n, counts.data() + r * sizeof n, sizeof n);
    most = std::max(most, n);
  }
  blob.assign(static_cast<std::size_t>(most) * sizeof(Edge), 0);
  if (count > 0) std::memcpy(blob.data(), mine.data(), mine.size() * sizeof(Edge));
  const std::vector<char> all = allgather(v, blob, kTagAllgather + 32);  // the first took tags up to + log2 p
  DistGraphTopology out;
  out.weighted = weighted;
  for (int r = 0; r < members; ++r) {
    int n = 0;
    std::memcpy(&n, counts.data() + r * sizeof n, sizeof n);
    for (int i = 0; i < n; ++i) {
      Edge e;
      std::memcpy(&e, all.data() + (static_cast<std::size_t>(r) * most + i) * sizeof(Edge), sizeof e);
      if (e.destination == v.rank) out.sources.push_back(e.source), out.source_weights.push_back(e.weight);
      if (e.source == v.rank) out.destinations.push_back(e.destination), out.destination_weights.push_back(e.weight);
    }
  }
  return out;
}

}  // namespace strata::comm
