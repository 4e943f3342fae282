// What each collective's arguments are, shared by its blocking, nonblocking and persistent entry points
// (coll_calls.cpp, coll_init_calls.cpp): the checks of MPI-4.0 6.4 - 6.12 and 6.13 (the same for the three forms),
// and how the arguments become coll::Args. Arguments the standard calls significant only at the root are checked
// only there. Each operation's function returns the `prepare` step that api's run helpers call with the checked
// communicator.
#pragma once
#include <string>
#include <vector>

#include "api/coll_launch.hpp"
#include "comm/process_topology.hpp"

namespace strata::api::coll_prepare {

using coll::Args;

inline bool in_place(const void* buf) { return buf == MPI_IN_PLACE; }

// Rooted collectives: whether this rank gives the root's side (the root of an intracommunicator, MPI_ROOT on an
// intercommunicator), and whether it takes part from the other side (any other rank of an intracommunicator, a rank
// naming the remote root on an intercommunicator; MPI_PROC_NULL there takes no part). MPI_IN_PLACE is for
// intracommunicators only.
inline bool root_side(const comm::Communicator& c, int root) { return c.inter() ? root == MPI_ROOT : c.rank == root; }
inline bool other_side(const comm::Communicator& c, int root) { return c.inter() ? root >= 0 : c.rank != root; }

inline Check& not_in_place(Check& check, const void* buf, const char* what) {
  if (check.ok() && in_place(buf)) check.fail(MPI_ERR_BUFFER, std::string(what) + " cannot be MPI_IN_PLACE here");
  return check;
}

// The send side: MPI_IN_PLACE where `allowed`, else data.
inline Check& send_side(Check& check, const void* buf, MPI_Count count, MPI_Datatype type, bool allowed, Args& a) {
  if (!check.ok()) return check;
  if (in_place(buf)) {
    if (!allowed) return check.fail(MPI_ERR_BUFFER, "sendbuf cannot be MPI_IN_PLACE here");
    a.in_place = true;
    return check;
  }
  a.sendbuf = buf;
  a.sendcount = static_cast<std::size_t>(count > 0 ? count : 0);
  return data(check, buf, count, type, a.sendtype);
}

inline Check& recv_side(Check& check, void* buf, MPI_Count count, MPI_Datatype type, Args& a) {
  not_in_place(check, buf, "recvbuf");
  a.recvbuf = buf;
  a.recvcount = static_cast<std::size_t>(count > 0 ? count : 0);
  return data(check, buf, count, type, a.recvtype);
}

// The receive side of the v variants: a count and a displacement for each of `n` peers (read here, before the call
// returns).
inline Check& recv_side_v(Check& check, void* buf, CallArray counts_in, CallArray displs, MPI_Datatype type, int n,
                          Args& a) {
  counts(check, counts_in, displs, n, a.recvcounts, &a.rdispls, "recvcounts");
  not_in_place(check, buf, "recvbuf");
  a.recvbuf = buf;
  return check.type(type, a.recvtype).committed(type);
}

// For reductions: one count and type for both sides.
// `received`: the elements recvbuf takes, where that is not `count` (a reduce-scatter's own block); -1: count.
inline Check& reduce_sides(Check& check, const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype type,
                           MPI_Op op, bool in_place_allowed, bool receives, Args& a, MPI_Count received = -1) {
  send_side(check, sendbuf, count, type, in_place_allowed, a);
  if (a.in_place) data(check, recvbuf, count, type, a.sendtype);
  a.recvcount = a.sendcount = static_cast<std::size_t>(count > 0 ? count : 0);
  a.recvtype = a.sendtype;
  if (receives) {
    not_in_place(check, recvbuf, "recvbuf");
    if (check.ok()) check.buffer(recvbuf, received < 0 ? count : received, a.recvtype.get());
    a.recvbuf = recvbuf;
  }
  if (check.ok()) reduction(check, op, *a.recvtype, a.op);
  a.op_ref = op_ref(op);
  a.type_handle = type;
  return check;
}

// After an operation's checks: its send and receive buffers must not overlap (MPI-4.0 2.3, an OUT argument is never
// aliased; MPI_IN_PLACE is how a collective shares one). Only the certain case is refused, cheaply: the same start
// address with the same datatype on both sides and data on both, so that the first elements share bytes. The v and
// w variants and the neighbourhood collectives may place their blocks apart (displacements, degrees), and two
// different derived types may interleave; those are left alone. MPI_BOTTOM is exempt (absolute addresses).
inline Check& distinct_buffers(Check& check, coll::Operation op, const Args& a) {
  if (!check.ok() || a.in_place || a.sendbuf == MPI_BOTTOM || a.sendbuf != a.recvbuf) return check;
  const bool placed_apart = !a.sdispls.empty() || !a.rdispls.empty() || !a.sendtypes.empty() ||
                            op >= coll::Operation::kNeighborAllgather;
  if (placed_apart || a.sendtype.get() != a.recvtype.get() || a.sendtype->size == 0) return check;
  if (a.sendcount > 0 && a.recvcount > 0)
    check.fail(MPI_ERR_BUFFER, "sendbuf and recvbuf are the same buffer (MPI_IN_PLACE is the way to share one)");
  return check;
}

inline auto bcast(void* buffer, MPI_Count count, MPI_Datatype type, int r) {
  return [=](Check& check, comm::Communicator& c, Args& a) {
    root(check, r, c);
    a.root = r;
    if (c.inter() && r == MPI_PROC_NULL) {  // the root's group but the root: no argument is significant
      a.recvtype = datatype_ref(MPI_BYTE);
      return;
    }
    not_in_place(check, buffer, "buffer");
    a.recvbuf = buffer;
    a.recvcount = static_cast<std::size_t>(count > 0 ? count : 0);
    data(check, buffer, count, type, a.recvtype);
  };
}

inline auto gather(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, CallArray recvcounts, CallArray displs, int r, bool v) {
  return [=](Check& check, comm::Communicator& c, Args& a) {
    root(check, r, c);
    a.root = r;
    const bool at_root = root_side(c, r);
    if (!c.inter() || other_side(c, r)) send_side(check, sendbuf, sendcount, sendtype, !c.inter() && at_root, a);
    if (!at_root || !check.ok()) return;
    if (v)
      recv_side_v(check, recvbuf, recvcounts, displs, recvtype, c.peer_count(), a);
    else
      recv_side(check, recvbuf, recvcount, recvtype, a);
  };
}

inline auto scatter(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, CallArray sendcounts,
                    CallArray displs, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int r, bool v) {
  return [=](Check& check, comm::Communicator& c, Args& a) {
    root(check, r, c);
    a.root = r;
    const bool at_root = root_side(c, r);
    if (at_root && !c.inter() && in_place(recvbuf)) {
      a.in_place = true;
    } else if (other_side(c, r) || !c.inter()) {  // the root of an intercommunicator receives nothing
      recv_side(check, recvbuf, recvcount, recvtype, a);
    }
    if (!at_root || !check.ok()) return;
    not_in_place(check, sendbuf, "sendbuf");
    a.sendbuf = sendbuf;
    if (v) {
      counts(check, sendcounts, displs, c.peer_count(), a.sendcounts, &a.sdispls, "sendcounts");
      check.type(sendtype, a.sendtype).committed(sendtype);
    } else {
      a.sendcount = static_cast<std::size_t>(sendcount > 0 ? sendcount : 0);
      data(check, sendbuf, sendcount, sendtype, a.sendtype);
    }
  };
}

inline auto allgather(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, CallArray recvcounts, CallArray displs, bool v) {
  return [=](Check& check, comm::Communicator& c, Args& a) {
    send_side(check, sendbuf, sendcount, sendtype, !c.inter(), a);
    if (v)
      recv_side_v(check, recvbuf, recvcounts, displs, recvtype, c.peer_count(), a);
    else
      recv_side(check, recvbuf, recvcount, recvtype, a);
  };
}

inline auto alltoall(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype) {
  return [=](Check& check, comm::Communicator& c, Args& a) {
    send_side(check, sendbuf, sendcount, sendtype, !c.inter(), a);
    recv_side(check, recvbuf, recvcount, recvtype, a);
  };
}

inline auto alltoallv(const void* sendbuf, CallArray sendcounts, CallArray sdispls, MPI_Datatype sendtype,
                      void* recvbuf, CallArray recvcounts, CallArray rdispls, MPI_Datatype recvtype) {
  return [=](Check& check, comm::Communicator& c, Args& a) {
    if (in_place(sendbuf)) {
      if (c.inter()) not_in_place(check, sendbuf, "sendbuf");
      a.in_place = true;
    } else {
      a.sendbuf = sendbuf;
      counts(check, sendcounts, sdispls, c.peer_count(), a.sendcounts, &a.sdispls, "sendcounts");
      check.type(sendtype, a.sendtype).committed(sendtype);
    }
    recv_side_v(check, recvbuf, recvcounts, rdispls, recvtype, c.peer_count(), a);
  };
}

// Per-peer types: every handle valid and committed.
inline Check& types(Check& check, const MPI_Datatype* handles, int n, std::vector<datatype::TypeRef>& out,
                    const char* what) {
  if (!check.ok()) return check;
  if (handles == nullptr && n > 0) return check.fail(MPI_ERR_ARG, std::string(what) + " is NULL");
  out.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n && check.ok(); ++i) check.type(handles[i], out[i]).committed(handles[i]);
  return check;
}

inline auto alltoallw(const void* sendbuf, CallArray sendcounts, CallArray sdispls, const MPI_Datatype* sendtypes,
                      void* recvbuf, CallArray recvcounts, CallArray rdispls, const MPI_Datatype* recvtypes) {
  return [=](Check& check, comm::Communicator& c, Args& a) {
    if (in_place(sendbuf)) {
      if (c.inter()) not_in_place(check, sendbuf, "sendbuf");
      a.in_place = true;
    } else {
      a.sendbuf = sendbuf;
      counts(check, sendcounts, sdispls, c.peer_count(), a.sendcounts, &a.sdispls, "sendcounts");
      types(check, sendtypes, c.peer_count(), a.sendtypes, "sendtypes");
    }
    not_in_place(check, recvbuf, "recvbuf");
    a.recvbuf = recvbuf;
    counts(check, recvcounts, rdispls, c.peer_count(), a.recvcounts, &a.rdispls, "recvcounts");
    types(check, recvtypes, c.peer_count(), a.recvtypes, "recvtypes");
  };
}

inline auto reduce(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype type, MPI_Op op, int r) {
  return [=](Check& check, comm::Communicator& c, Args& a) {
    root(check, r, c);
    a.root = r;
    if (!c.inter()) {
      reduce_sides(check, sendbuf, recvbuf, count, type, op, c.rank == r, c.rank == r, a);
    } else if (r == MPI_ROOT) {  // receives only: recvbuf stands for both sides in the checks
      reduce_sides(check, recvbuf, recvbuf, count, type, op, false, true, a);
      a.sendbuf = nullptr;
    } else if (r != MPI_PROC_NULL) {
      reduce_sides(check, sendbuf, recvbuf, count, type, op, false, false, a);
    }
  };
}

// Allreduce, Scan and Exscan: everyone sends and receives `count` elements.
inline auto everyone_reduces(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype type, MPI_Op op) {
  return [=](Check& check, comm::Communicator& c, Args& a) {
    reduce_sides(check, sendbuf, recvbuf, count, type, op, !c.inter(), true, a);
  };
}

inline auto reduce_scatter_block(const void* sendbuf, void* recvbuf, MPI_Count recvcount, MPI_Datatype type,
                                 MPI_Op op) {
  return [=](Check& check, comm::Communicator& c, Args& a) {
    // Everyone contributes size x recvcount elements; the input is recvbuf's when in place.
    // The algorithms take the total as an int (the large-count call's limit too).
    MPI_Count total = 0;
    if (check.ok() && (__builtin_mul_overflow(recvcount, static_cast<MPI_Count>(c.size), &total) || total > 0x7fffffff))
      check.fail(MPI_ERR_COUNT, "recvcount " + std::to_string(recvcount) + " x size exceeds an int");
    reduce_sides(check, sendbuf, recvbuf, total, type, op, !c.inter(), true, a, recvcount);
    a.recvcount = static_cast<std::size_t>(recvcount > 0 ? recvcount : 0);
    a.sendcount = a.recvcount * static_cast<std::size_t>(c.size);
  };
}

inline auto reduce_scatter(const void* sendbuf, void* recvbuf, CallArray recvcounts, MPI_Datatype type, MPI_Op op) {
  return [=](Check& check, comm::Communicator& c, Args& a) {
    counts(check, recvcounts, nullptr, c.size, a.recvcounts, nullptr, "recvcounts");
    long long total = 0;
    for (int n : a.recvcounts) total += n;
    if (check.ok() && total > 0x7fffffff) check.fail(MPI_ERR_COUNT, "the sum of recvcounts exceeds an int");
    const MPI_Count mine = c.rank < static_cast<int>(a.recvcounts.size()) ? a.recvcounts[c.rank] : 0;
    reduce_sides(check, sendbuf, recvbuf, total, type, op, !c.inter(), true, a, mine);
    a.sendcount = static_cast<std::size_t>(total);
    a.recvcount = static_cast<std::size_t>(mine);
  };
}

// ---- Neighbourhood collectives (MPI-4.0 8.6): the peers come from the communicator's topology ------------------

inline Check& neighbours(Check& check, const comm::Communicator& c, Args& a) {
  if (!check.ok()) return check;
  if (!c.topology) return check.fail(MPI_ERR_TOPOLOGY, "the communicator has no Cartesian or graph topology");
  comm::Neighbours n = comm::neighbours(*c.topology, c.rank);
  a.sources = std::move(n.sources);
  a.destinations = std::move(n.destinations);
  a.source_tags = std::move(n.source_tags);
  a.destination_tags = std::move(n.destination_tags);
  return check;
}

inline int indegree(const Args& a) { return static_cast<int>(a.sources.size()); }
inline int outdegree(const Args& a) { return static_cast<int>(a.destinations.size()); }

inline auto neighbor_allgather(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype, CallArray recvcounts, CallArray displs,
                               bool v) {
  return [=](Check& check, comm::Communicator& c, Args& a) {
    neighbours(check, c, a);
    send_side(check, sendbuf, sendcount, sendtype, false, a);
    if (v)
      recv_side_v(check, recvbuf, recvcounts, displs, recvtype, indegree(a), a);
    else
      recv_side(check, recvbuf, recvcount, recvtype, a);
  };
}

inline auto neighbor_alltoall(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype) {
  return [=](Check& check, comm::Communicator& c, Args& a) {
    neighbours(check, c, a);
    send_side(check, sendbuf, sendcount, sendtype, false, a);
    recv_side(check, recvbuf, recvcount, recvtype, a);
  };
}

inline auto neighbor_alltoallv(const void* sendbuf, CallArray sendcounts, CallArray sdispls, MPI_Datatype sendtype,
                               void* recvbuf, CallArray recvcounts, CallArray rdispls, MPI_Datatype recvtype) {
  return [=](Check& check, comm::Communicator& c, Args& a) {
    neighbours(check, c, a);
    not_in_place(check, sendbuf, "sendbuf");
    a.sendbuf = sendbuf;
    counts(check, sendcounts, sdispls, outdegree(a), a.sendcounts, &a.sdispls, "sendcounts");
    if (check.ok()) check.type(sendtype, a.sendtype).committed(sendtype);
    recv_side_v(check, recvbuf, recvcounts, rdispls, recvtype, indegree(a), a);
  };
}

// Alltoallw's displacements are MPI_Aint bytes here (unlike MPI_Alltoallw's ints).
inline Check& byte_displacements(Check& check, const MPI_Aint* displs, int n, std::vector<std::ptrdiff_t>& out,
                                 const char* what) {
  if (check.ok() && n > 0 && displs == nullptr) return check.fail(MPI_ERR_ARG, std::string(what) + " is NULL");
  if (check.ok()) out.assign(displs, displs + n);
  return check;
}

inline auto neighbor_alltoallw(const void* sendbuf, CallArray sendcounts, const MPI_Aint* sdispls,
                               const MPI_Datatype* sendtypes, void* recvbuf, CallArray recvcounts,
                               const MPI_Aint* rdispls, const MPI_Datatype* recvtypes) {
  return [=](Check& check, comm::Communicator& c, Args& a) {
    neighbours(check, c, a);
    not_in_place(check, sendbuf, "sendbuf");
    a.sendbuf = sendbuf;
    counts(check, sendcounts, nullptr, outdegree(a), a.sendcounts, nullptr, "sendcounts");
    byte_displacements(check, sdispls, outdegree(a), a.sdispls_bytes, "sdispls");
    types(check, sendtypes, outdegree(a), a.sendtypes, "sendtypes");
    not_in_place(check, recvbuf, "recvbuf");
    a.recvbuf = recvbuf;
    counts(check, recvcounts, nullptr, indegree(a), a.recvcounts, nullptr, "recvcounts");
    byte_displacements(check, rdispls, indegree(a), a.rdispls_bytes, "rdispls");
    types(check, recvtypes, indegree(a), a.recvtypes, "recvtypes");
  };
}

}  // namespace strata::api::coll_prepare
