// Virtual process topologies (MPI-4.0 chapter 8): the Cartesian, graph or distributed graph structure that
// MPI_Cart_create, MPI_Graph_create and MPI_Dist_graph_create(_adjacent) attach to the communicator they make (a
// dup keeps it), and the pure functions the query calls need. Nothing here communicates; the creating calls are
// splits and dups (create.hpp), and MPI_Dist_graph_create's edge exchange is one allgather (exchange_edges).
// Strata does not reorder ranks: rank r of the new communicator is rank r of the old.
#pragma once
#include <variant>
#include <vector>

#include "comm/group.hpp"
#include "comm/internal_collectives.hpp"
#include "runtime/status.hpp"

namespace strata::comm {


struct CartTopology {
  std::vector<int> dims;
  std::vector<bool> periods;
  int size() const;  // the product of dims (1 for no dimension)
};

struct GraphTopology {
  std::vector<int> index;  // MPI_Graph_create's: index[i] is the number of edges of nodes 0..i
  std::vector<int> edges;
  std::vector<int> neighbors(int rank) const;
};

// One rank's view: who sends to it and whom it sends to, with weights (all 1 when unweighted).
struct DistGraphTopology {
  std::vector<int> sources, source_weights;
  std::vector<int> destinations, destination_weights;
  bool weighted = false;
};

struct ProcessTopology {
  std::variant<CartTopology, GraphTopology, DistGraphTopology> kind;
};

// MPI_Dims_create: fills the zero entries of `dims` so that the product is `nodes`, the filled ones as close to one
// another as possible and non-increasing (MPI-4.0 8.5.2). An error if the fixed entries do not divide `nodes`.
Status dims_create(int nodes, std::vector<int>& dims);

// The rank at `coords`: periodic dimensions wrap, others must be in range (else kProcNull).
int cart_rank(const CartTopology& t, const std::vector<int>& coords);
std::vector<int> cart_coords(const CartTopology& t, int rank);
// MPI_Cart_shift: the ranks `disp` steps back and forth along `direction` from `rank` (kProcNull off an edge).
void cart_shift(const CartTopology& t, int rank, int direction, int disp, int& source, int& dest);
// MPI_Cart_sub: the color of `rank`'s part (its coordinates in the dropped dimensions, as one number) and the part's
// topology.
int cart_sub_color(const CartTopology& t, int rank, const std::vector<bool>& remain);
CartTopology cart_sub(const CartTopology& t, const std::vector<bool>& remain);

// The neighbourhood collectives' view of a rank (MPI-4.0 8.6): whom it receives from and sends to, in buffer
// order (kProcNull off a non-periodic grid's edge: nothing moves there), and each message's tag, so that the k-th
// message from a to b meets the k-th receive b posts from a: a grid's +1 send lands in the -1 slot; graphs count
// repeated edges.
struct Neighbours {
  std::vector<int> sources, destinations;
  std::vector<int> source_tags, destination_tags;
};
Neighbours neighbours(const ProcessTopology& t, int rank);

// A directed, weighted edge of MPI_Dist_graph_create.
struct Edge {
  int source, destination, weight;
};
// Every rank's edges to every rank (an allgather over `v`, tag kTagAllgather); my part of the graph, the edges in
// the order of their contributing rank and then as given.
DistGraphTopology exchange_edges(const View& v, const std::vector<Edge>& mine, bool weighted);

}  // namespace strata::comm
