// Virtual process topologies (MPI-4.0 chapter 8; comm/process_topology.hpp): the Cartesian calls (MPI_Cart_*,
// MPI_Dims_create), the graph ones (MPI_Graph_*), the distributed graph ones (MPI_Dist_graph_*) and MPI_Topo_test.
// The constructors are a split (members: the first ranks of comm_old) or a dup, with the topology attached; ranks
// are never reordered, so `reorder` changes nothing.
#include <algorithm>
#include <memory>

#include "api/check.hpp"
#include "api/comm_inherit.hpp"
#include "comm/create.hpp"
#include "comm/process_topology.hpp"

using namespace strata;
using namespace strata::api;
using comm::CartTopology;
using comm::DistGraphTopology;
using comm::GraphTopology;

int strata_mpi_unweighted = 0, strata_mpi_weights_empty = 0;  // mpi.h: MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY

namespace {

// The new communicator of the first `members` ranks of `parent` (the others get MPI_COMM_NULL), carrying `t`.
int make_with(const char* call, MPI_Comm parent_handle, const comm::Communicator& parent, int members,
              comm::ProcessTopology t, MPI_Comm* out) {
  std::unique_ptr<comm::Communicator> fresh;
  if (Status s = comm::create_split(parent, parent.rank < members ? 0 : comm::kUndefined, parent.rank, fresh);
      !s.ok())
    return raise(call, parent_handle, s);
  if (fresh) fresh->topology = std::make_shared<const comm::ProcessTopology>(std::move(t));
  return publish(call, parent_handle, parent, std::move(fresh), false, out);
}

// A communicator like `parent` (a dup's context agreement, nothing inherited but the error handler) carrying `t`.
int dup_with(const char* call, MPI_Comm parent_handle, const comm::Communicator& parent, comm::ProcessTopology t,
             MPI_Comm* out) {
  std::unique_ptr<comm::Communicator> fresh;
  if (Status s = comm::create_dup(parent, fresh); !s.ok()) return raise(call, parent_handle, s);
  fresh->topology = std::make_shared<const comm::ProcessTopology>(std::move(t));
  return publish(call, parent_handle, parent, std::move(fresh), false, out);
}

// `comm`'s topology of kind T, or a failed check.
template <class T>
const T* topology_of(Check& check, MPI_Comm handle, comm::Communicator*& c, const char* kind) {
  if (!check.intracomm(handle, c).ok()) return nullptr;
  const T* t = c->topology ? std::get_if<T>(&c->topology->kind) : nullptr;
  if (t == nullptr) check.fail(MPI_ERR_TOPOLOGY, describe_comm(handle) + " has no " + kind + " topology");
  return t;
}

// `rank` names a node of `t`'s graph.
Check& graph_node(Check& check, const GraphTopology* t, int rank) {
  if (check.ok() && (rank < 0 || rank >= static_cast<int>(t->index.size())))
    check.fail(MPI_ERR_RANK, "invalid rank " + std::to_string(rank) + " (the graph has " +
                                 std::to_string(t->index.size()) + " nodes)");
  return check;
}

// An output array of `maxdims` entries holds the grid's `n` dimensions.
Check& room_for_dims(Check& check, int maxdims, int n) {
  if (check.ok() && maxdims < n)
    check.fail(MPI_ERR_ARG, "maxdims " + std::to_string(maxdims) + " is less than the " + std::to_string(n) +
                                " dimensions");
  return check;
}

// A Cartesian topology from the arguments of MPI_Cart_create or MPI_Cart_map, which must fit in `c`.
Check& cart_arguments(Check& check, const comm::Communicator& c, int ndims, const int* dims, const int* periods,
                      CartTopology& t) {
  if (!check.ok()) return check;
  if (ndims < 0) return check.fail(MPI_ERR_DIMS, "invalid ndims " + std::to_string(ndims) + " (must be >= 0)");
  if (ndims > 0 && (dims == nullptr || periods == nullptr)) return check.fail(MPI_ERR_ARG, "dims or periods is NULL");
  long long product = 1;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] <= 0)
      return check.fail(MPI_ERR_DIMS, "dims[" + std::to_string(i) + "] is " + std::to_string(dims[i]) +
                                          " (must be > 0)");
    product = std::min<long long>(product * dims[i], 1LL << 40);
    t.dims.push_back(dims[i]);
    t.periods.push_back(periods[i] != 0);
  }
  if (product > c.size)
    check.fail(MPI_ERR_ARG, "the grid has " + std::to_string(product) + " places, more than the " +
                                std::to_string(c.size) + " ranks of the communicator");
  return check;
}

// A graph from the arguments of MPI_Graph_create or MPI_Graph_map.
Check& graph_arguments(Check& check, const comm::Communicator& c, int nnodes, const int* index, const int* edges,
                       GraphTopology& t) {
  if (!check.ok()) return check;
  if (nnodes < 0 || nnodes > c.size)
    return check.fail(MPI_ERR_ARG, "invalid nnodes " + std::to_string(nnodes) + " (the communicator has " +
                                       std::to_string(c.size) + " ranks)");
  if (nnodes > 0 && (index == nullptr || edges == nullptr)) return check.fail(MPI_ERR_ARG, "index or edges is NULL");
  t.index.assign(index, index + nnodes);
  for (int i = 0; i < nnodes; ++i)
    if (index[i] < (i == 0 ? 0 : index[i - 1]))
      return check.fail(MPI_ERR_ARG, "index[" + std::to_string(i) + "] = " + std::to_string(index[i]) +
                                         " is smaller than the one before (index counts edges cumulatively)");
  const int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
  t.edges.assign(edges, edges + nedges);
  for (int i = 0; i < nedges; ++i)
    if (edges[i] < 0 || edges[i] >= nnodes)
      return check.fail(MPI_ERR_ARG, "edges[" + std::to_string(i) + "] = " + std::to_string(edges[i]) +
                                         " is not a node (0 .. nnodes - 1)");
  return check;
}

// Whether a weights argument carries values: MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY do not.
bool has_weights(const int* weights) { return weights != MPI_UNWEIGHTED && weights != MPI_WEIGHTS_EMPTY; }

Check& neighbour_list(Check& check, const comm::Communicator& c, int degree, const int* ranks, const int* weights,
                      const char* what, std::vector<int>& out, std::vector<int>& out_weights) {
  if (!check.ok()) return check;
  if (degree < 0) return check.fail(MPI_ERR_ARG, std::string("negative ") + what + "degree");
  if (degree > 0 && (ranks == nullptr || weights == nullptr || weights == MPI_WEIGHTS_EMPTY))
    return check.fail(MPI_ERR_ARG, std::string(what) + "s or their weights are NULL or MPI_WEIGHTS_EMPTY");
  for (int i = 0; i < degree; ++i) {
    if (ranks[i] < 0 || ranks[i] >= c.size)
      return check.fail(MPI_ERR_RANK, std::string(what) + "s[" + std::to_string(i) + "] = " +
                                          std::to_string(ranks[i]) + " is not a rank of the communicator");
    out.push_back(ranks[i]);
    out_weights.push_back(has_weights(weights) ? weights[i] : 1);
  }
  return check;
}

}  // namespace

// ---- Cartesian -----------------------------------------------------------------------------------------------

STRATA_PMPI(Dims_create)
extern "C" int PMPI_Dims_create(int nnodes, int ndims, int dims[]) {
  Check check("MPI_Dims_create");
  if (nnodes <= 0) check.fail(MPI_ERR_ARG, "invalid nnodes " + std::to_string(nnodes) + " (must be > 0)");
  if (check.ok() && ndims < 0) check.fail(MPI_ERR_DIMS, "invalid ndims " + std::to_string(ndims));
  if (check.ok() && ndims > 0) check.not_null(dims, "dims");
  for (int i = 0; i < ndims && check.ok(); ++i)
    if (dims[i] < 0)
      check.fail(MPI_ERR_DIMS, "dims[" + std::to_string(i) + "] is " + std::to_string(dims[i]) + " (must be >= 0)");
  if (!check.ok()) return check.raise();
  std::vector<int> d(dims, dims + ndims);
  if (Status s = comm::dims_create(nnodes, d); !s.ok()) return raise("MPI_Dims_create", MPI_COMM_NULL, s);
  std::copy(d.begin(), d.end(), dims);
  return MPI_SUCCESS;
}

STRATA_PMPI(Cart_create)
extern "C" int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int,
                                MPI_Comm* comm_cart) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Cart_create", comm_old);
  check.intracomm(comm_old, c).not_null(comm_cart, "comm_cart");
  CartTopology t;
  cart_arguments(check, *c, ndims, dims, periods, t);
  if (!check.ok()) return check.raise();
  const int members = t.size();
  return make_with("MPI_Cart_create", comm_old, *c, members, {std::move(t)}, comm_cart);
}

STRATA_PMPI(Cart_map)
extern "C" int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Cart_map", comm);
  check.intracomm(comm, c).not_null(newrank, "newrank");
  CartTopology t;
  if (!cart_arguments(check, *c, ndims, dims, periods, t).ok()) return check.raise();
  *newrank = c->rank < t.size() ? c->rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

STRATA_PMPI(Cartdim_get)
extern "C" int PMPI_Cartdim_get(MPI_Comm comm, int* ndims) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Cartdim_get", comm);
  const CartTopology* t = topology_of<CartTopology>(check, comm, c, "Cartesian");
  check.not_null(ndims, "ndims");
  if (!check.ok()) return check.raise();
  *ndims = static_cast<int>(t->dims.size());
  return MPI_SUCCESS;
}

STRATA_PMPI(Cart_get)
extern "C" int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Cart_get", comm);
  const CartTopology* t = topology_of<CartTopology>(check, comm, c, "Cartesian");
  const int n = t ? static_cast<int>(t->dims.size()) : 0;
  room_for_dims(check, maxdims, n);
  if (check.ok() && n > 0) check.not_null(dims, "dims").not_null(periods, "periods").not_null(coords, "coords");
  if (!check.ok()) return check.raise();
  const std::vector<int> mine = comm::cart_coords(*t, c->rank);
  for (int i = 0; i < n; ++i) dims[i] = t->dims[i], periods[i] = t->periods[i], coords[i] = mine[i];
  return MPI_SUCCESS;
}

STRATA_PMPI(Cart_rank)
extern "C" int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int* rank) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Cart_rank", comm);
  const CartTopology* t = topology_of<CartTopology>(check, comm, c, "Cartesian");
  check.not_null(rank, "rank");
  if (check.ok() && !t->dims.empty()) check.not_null(coords, "coords");
  if (!check.ok()) return check.raise();
  const std::vector<int> at(coords, coords + t->dims.size());
  *rank = comm::cart_rank(*t, at);
  if (*rank == comm::kProcNull)
    return check.fail(MPI_ERR_ARG, "the coordinates lie outside a non-periodic dimension").raise();
  return MPI_SUCCESS;
}

STRATA_PMPI(Cart_coords)
extern "C" int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Cart_coords", comm);
  const CartTopology* t = topology_of<CartTopology>(check, comm, c, "Cartesian");
  const int n = t ? static_cast<int>(t->dims.size()) : 0;
  if (check.ok() && (rank < 0 || rank >= c->size))
    check.fail(MPI_ERR_RANK, "invalid rank " + std::to_string(rank) + " (the communicator has " +
                                 std::to_string(c->size) + " ranks)");
  room_for_dims(check, maxdims, n);
  if (check.ok() && n > 0) check.not_null(coords, "coords");
  if (!check.ok()) return check.raise();
  const std::vector<int> at = comm::cart_coords(*t, rank);
  std::copy(at.begin(), at.end(), coords);
  return MPI_SUCCESS;
}

STRATA_PMPI(Cart_shift)
extern "C" int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Cart_shift", comm);
  const CartTopology* t = topology_of<CartTopology>(check, comm, c, "Cartesian");
  check.not_null(rank_source, "rank_source").not_null(rank_dest, "rank_dest");
  if (check.ok() && (direction < 0 || direction >= static_cast<int>(t->dims.size())))
    check.fail(MPI_ERR_ARG, "invalid direction " + std::to_string(direction) + " (the grid has " +
                                std::to_string(t->dims.size()) + " dimensions)");
  if (!check.ok()) return check.raise();
  comm::cart_shift(*t, c->rank, direction, disp, *rank_source, *rank_dest);
  return MPI_SUCCESS;
}

STRATA_PMPI(Cart_sub)
extern "C" int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Cart_sub", comm);
  const CartTopology* t = topology_of<CartTopology>(check, comm, c, "Cartesian");
  check.not_null(newcomm, "newcomm");
  if (check.ok() && !t->dims.empty()) check.not_null(remain_dims, "remain_dims");
  if (!check.ok()) return check.raise();
  std::vector<bool> remain;
  for (std::size_t i = 0; i < t->dims.size(); ++i) remain.push_back(remain_dims[i] != 0);
  std::unique_ptr<comm::Communicator> fresh;
  if (Status s = comm::create_split(*c, comm::cart_sub_color(*t, c->rank, remain), c->rank, fresh); !s.ok())
    return raise("MPI_Cart_sub", comm, s);
  fresh->topology = std::make_shared<const comm::ProcessTopology>(comm::ProcessTopology{comm::cart_sub(*t, remain)});
  return publish("MPI_Cart_sub", comm, *c, std::move(fresh), false, newcomm);
}

// ---- Graph -----------------------------------------------------------------------------------------------------

STRATA_PMPI(Graph_create)
extern "C" int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int,
                                 MPI_Comm* comm_graph) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Graph_create", comm_old);
  check.intracomm(comm_old, c).not_null(comm_graph, "comm_graph");
  GraphTopology t;
  if (!graph_arguments(check, *c, nnodes, index, edges, t).ok()) return check.raise();
  return make_with("MPI_Graph_create", comm_old, *c, nnodes, {std::move(t)}, comm_graph);
}

STRATA_PMPI(Graph_map)
extern "C" int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Graph_map", comm);
  check.intracomm(comm, c).not_null(newrank, "newrank");
  GraphTopology t;
  if (!graph_arguments(check, *c, nnodes, index, edges, t).ok()) return check.raise();
  *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

STRATA_PMPI(Graphdims_get)
extern "C" int PMPI_Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Graphdims_get", comm);
  const GraphTopology* t = topology_of<GraphTopology>(check, comm, c, "graph");
  check.not_null(nnodes, "nnodes").not_null(nedges, "nedges");
  if (!check.ok()) return check.raise();
  *nnodes = static_cast<int>(t->index.size());
  *nedges = static_cast<int>(t->edges.size());
  return MPI_SUCCESS;
}

STRATA_PMPI(Graph_get)
extern "C" int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Graph_get", comm);
  const GraphTopology* t = topology_of<GraphTopology>(check, comm, c, "graph");
  if (check.ok() && (maxindex < 0 || maxedges < 0)) check.fail(MPI_ERR_ARG, "negative maxindex or maxedges");
  if (check.ok() && maxindex > 0) check.not_null(index, "index");
  if (check.ok() && maxedges > 0) check.not_null(edges, "edges");
  if (!check.ok()) return check.raise();
  std::copy_n(t->index.begin(), std::min<std::size_t>(t->index.size(), static_cast<std::size_t>(maxindex)), index);
  std::copy_n(t->edges.begin(), std::min<std::size_t>(t->edges.size(), static_cast<std::size_t>(maxedges)), edges);
  return MPI_SUCCESS;
}

STRATA_PMPI(Graph_neighbors_count)
extern "C" int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int* nneighbors) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Graph_neighbors_count", comm);
  const GraphTopology* t = topology_of<GraphTopology>(check, comm, c, "graph");
  check.not_null(nneighbors, "nneighbors");
  graph_node(check, t, rank);
  if (!check.ok()) return check.raise();
  *nneighbors = static_cast<int>(t->neighbors(rank).size());
  return MPI_SUCCESS;
}

STRATA_PMPI(Graph_neighbors)
extern "C" int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Graph_neighbors", comm);
  const GraphTopology* t = topology_of<GraphTopology>(check, comm, c, "graph");
  graph_node(check, t, rank);
  if (check.ok() && maxneighbors > 0) check.not_null(neighbors, "neighbors");
  if (!check.ok()) return check.raise();
  const std::vector<int> all = t->neighbors(rank);
  std::copy_n(all.begin(), std::min<std::size_t>(all.size(), static_cast<std::size_t>(std::max(maxneighbors, 0))),
              neighbors);
  return MPI_SUCCESS;
}

// ---- Distributed graph -----------------------------------------------------------------------------------------

STRATA_PMPI(Dist_graph_create_adjacent)
extern "C" int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                               const int sourceweights[], int outdegree, const int destinations[],
                                               const int destweights[], MPI_Info info, int, MPI_Comm* comm_dist_graph) {
  comm::Communicator* c = nullptr;
  runtime::Info* hints = nullptr;
  Check check("MPI_Dist_graph_create_adjacent", comm_old);
  check.intracomm(comm_old, c).info(info, hints, true).not_null(comm_dist_graph, "comm_dist_graph");
  DistGraphTopology t;
  t.weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
  neighbour_list(check, *c, indegree, sources, sourceweights, "source", t.sources, t.source_weights);
  neighbour_list(check, *c, outdegree, destinations, destweights, "destination", t.destinations,
                 t.destination_weights);
  if (!check.ok()) return check.raise();
  return dup_with("MPI_Dist_graph_create_adjacent", comm_old, *c, {std::move(t)}, comm_dist_graph);
}

STRATA_PMPI(Dist_graph_create)
extern "C" int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                      const int destinations[], const int weights[], MPI_Info info, int,
                                      MPI_Comm* comm_dist_graph) {
  static constexpr const char* kCall = "MPI_Dist_graph_create";
  comm::Communicator* c = nullptr;
  runtime::Info* hints = nullptr;
  Check check(kCall, comm_old);
  check.intracomm(comm_old, c).info(info, hints, true).not_null(comm_dist_graph, "comm_dist_graph");
  if (check.ok() && n < 0) check.fail(MPI_ERR_ARG, "negative n " + std::to_string(n));
  if (check.ok() && n > 0) check.not_null(sources, "sources").not_null(degrees, "degrees");
  std::vector<comm::Edge> mine;
  for (int i = 0, k = 0; i < n && check.ok(); ++i) {
    std::vector<int> to, weight;
    if (sources[i] < 0 || sources[i] >= c->size)
      check.fail(MPI_ERR_RANK, "sources[" + std::to_string(i) + "] = " + std::to_string(sources[i]) +
                                   " is not a rank of the communicator");
    neighbour_list(check, *c, degrees[i], destinations ? destinations + k : nullptr,
                   has_weights(weights) ? weights + k : weights, "destination", to, weight);
    for (std::size_t j = 0; j < to.size(); ++j) mine.push_back({sources[i], to[j], weight[j]});
    k += std::max(degrees[i], 0);
  }
  if (!check.ok()) return check.raise();
  const comm::View v{c->collective_context(), c->rank, &c->world_ranks};
  return dup_with(kCall, comm_old, *c, {comm::exchange_edges(v, mine, weights != MPI_UNWEIGHTED)}, comm_dist_graph);
}

STRATA_PMPI(Dist_graph_neighbors_count)
extern "C" int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Dist_graph_neighbors_count", comm);
  const DistGraphTopology* t = topology_of<DistGraphTopology>(check, comm, c, "distributed graph");
  check.not_null(indegree, "indegree").not_null(outdegree, "outdegree").not_null(weighted, "weighted");
  if (!check.ok()) return check.raise();
  *indegree = static_cast<int>(t->sources.size());
  *outdegree = static_cast<int>(t->destinations.size());
  *weighted = t->weighted;
  return MPI_SUCCESS;
}

STRATA_PMPI(Dist_graph_neighbors)
extern "C" int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                                         int maxoutdegree, int destinations[], int destweights[]) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Dist_graph_neighbors", comm);
  const DistGraphTopology* t = topology_of<DistGraphTopology>(check, comm, c, "distributed graph");
  if (check.ok() && (maxindegree < static_cast<int>(t->sources.size()) ||
                     maxoutdegree < static_cast<int>(t->destinations.size())))
    check.fail(MPI_ERR_ARG, "maxindegree or maxoutdegree is less than the degree (MPI_Dist_graph_neighbors_count)");
  if (!check.ok()) return check.raise();
  const bool weights = t->weighted;
  for (std::size_t i = 0; i < t->sources.size(); ++i) {
    sources[i] = t->sources[i];
    if (weights && has_weights(sourceweights)) sourceweights[i] = t->source_weights[i];
  }
  for (std::size_t i = 0; i < t->destinations.size(); ++i) {
    destinations[i] = t->destinations[i];
    if (weights && has_weights(destweights)) destweights[i] = t->destination_weights[i];
  }
  return MPI_SUCCESS;
}

STRATA_PMPI(Topo_test)
extern "C" int PMPI_Topo_test(MPI_Comm comm, int* status) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Topo_test", comm);
  check.comm(comm, c).not_null(status, "status");
  if (!check.ok()) return check.raise();
  static constexpr int kKinds[] = {MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH};
  *status = c->topology ? kKinds[c->topology->kind.index()] : MPI_UNDEFINED;
  return MPI_SUCCESS;
}
