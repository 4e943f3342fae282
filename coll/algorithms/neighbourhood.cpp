// The neighbourhood collectives (MPI-4.0 8.6): each rank receives one block from each of its sources and sends one
// to each of its destinations (Args::sources, destinations: a Cartesian grid's or a graph's neighbours, computed by
// comm::neighbours), all at once. MPI_PROC_NULL neighbours keep their place in the buffers and move nothing. The
// tags pair the k-th message between two ranks with the k-th receive (comm/process_topology.hpp).
#include "coll/algorithms.hpp"
#include "comm/group.hpp"

namespace strata::coll {
namespace {

Data send_data(const Args& a) { return {a.send_buf(), a.sendcount, a.sendtype}; }
Data recv_data(const Args& a) { return {a.recv_buf(), a.recvcount, a.recvtype}; }

// Receives into `into(i)` from each source i and sends `out(j)` to each destination j.
template <class Out, class In>
void exchange(const Args& a, Schedule& s, Out out, In into) {
  for (std::size_t i = 0; i < a.sources.size(); ++i)
    if (a.sources[i] != comm::kProcNull) s.recv(into(i), a.sources[i], a.source_tags[i]);
  for (std::size_t j = 0; j < a.destinations.size(); ++j)
    if (a.destinations[j] != comm::kProcNull) s.send(out(j), a.destinations[j], a.destination_tags[j]);
}

void allgather(const Args& a, Schedule& s) {
  exchange(a, s, [&](std::size_t) { return send_data(a); },
           [&](std::size_t i) { return elements(recv_data(a), i * a.recvcount, a.recvcount); });
}

void allgatherv(const Args& a, Schedule& s) {
  exchange(a, s, [&](std::size_t) { return send_data(a); },
           [&](std::size_t i) { return block_v(a.recv_buf(), a.recvcounts, a.rdispls, a.recvtype, i); });
}

void alltoall(const Args& a, Schedule& s) {
  exchange(a, s, [&](std::size_t j) { return elements(send_data(a), j * a.sendcount, a.sendcount); },
           [&](std::size_t i) { return elements(recv_data(a), i * a.recvcount, a.recvcount); });
}

void alltoallv(const Args& a, Schedule& s) {
  exchange(a, s, [&](std::size_t j) { return block_v(a.send_buf(), a.sendcounts, a.sdispls, a.sendtype, j); },
           [&](std::size_t i) { return block_v(a.recv_buf(), a.recvcounts, a.rdispls, a.recvtype, i); });
}

void alltoallw(const Args& a, Schedule& s) {
  exchange(a, s, [&](std::size_t j) { return block_w(a.send_buf(), a.sendcounts, a.sdispls_bytes, a.sendtypes, j); },
           [&](std::size_t i) { return block_w(a.recv_buf(), a.recvcounts, a.rdispls_bytes, a.recvtypes, i); });
}

constexpr Algorithm kNeighbourhood[] = {
    {Operation::kNeighborAllgather, "neighbourhood", allgather, nullptr},
    {Operation::kNeighborAllgatherv, "neighbourhood", allgatherv, nullptr},
    {Operation::kNeighborAlltoall, "neighbourhood", alltoall, nullptr},
    {Operation::kNeighborAlltoallv, "neighbourhood", alltoallv, nullptr},
    {Operation::kNeighborAlltoallw, "neighbourhood", alltoallw, nullptr},
};
constexpr auto kFirst = static_cast<int>(Operation::kNeighborAllgather);

}  // namespace

bool neighbourhood(Operation op) { return static_cast<int>(op) >= kFirst && op != Operation::kCount; }

const Algorithm& neighbourhood_algorithm(Operation op) { return kNeighbourhood[static_cast<int>(op) - kFirst]; }

}  // namespace strata::coll
