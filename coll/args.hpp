// The arguments of one collective call as the algorithms see them: ranks in the communicator, buffers with
// MPI_IN_PLACE already resolved into `in_place`, counts and displacements copied (a persistent collective keeps
// them; the caller's arrays may be freed after the call).
//
// An algorithm may also run inside another (a level of a hierarchical one): its buffers may then be the enclosing
// schedule's scratch, and it may get fewer tags than a whole collective.
#pragma once
#include <cstddef>
#include <memory>
#include <tuple>
#include <vector>

#include "coll/buf.hpp"
#include "datatype/datatype.hpp"
#include "datatype/op.hpp"

namespace strata::coll {

struct Hierarchy;

struct Args {
  int rank = 0;
  int size = 1;
  int root = 0;

  const void* sendbuf = nullptr;
  std::size_t sendcount = 0;
  datatype::TypeRef sendtype;
  void* recvbuf = nullptr;
  std::size_t recvcount = 0;
  datatype::TypeRef recvtype;
  bool in_place = false;  // MPI_IN_PLACE was given (where the standard allows it); sendbuf is then unused
  Buf::Area send_area = Buf::Area::kUser;  // kScratch: sendbuf is an offset into the schedule's scratch
  Buf::Area recv_area = Buf::Area::kUser;

  // The v and w variants, in elements of the (per-peer) type; displacements in elements (v) or bytes (w).
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls;
  std::vector<datatype::TypeRef> sendtypes, recvtypes;  // w only

  const datatype::Op* op = nullptr;  // reductions
  std::shared_ptr<const datatype::Op> op_ref;  // keeps a user operator alive while the collective runs
  int type_handle = 0;               // the reduction datatype's MPI handle (user functions receive it)

  std::size_t segment_bytes = 0;  // pipelined algorithms: bytes per segment (0: the algorithm's default)
  int radix = 0;                  // k-nomial algorithms: k (0: the algorithm's default)
  int groups = 0;                 // grouped algorithms: G (0: the cost model's choice)
  int tag_limit = 0;              // the tags the schedule may use (0: kTagsPerCollective)

  // Node shared memory (schedule.hpp's publish and read): the communicator's members on this node share a segment
  // this call may use, and, for `shared_memory`, all of the call's ranks are on this node (as they must be for the
  // algorithms that use it; a hierarchical algorithm sets it for the levels inside the node).
  bool node_memory = false;
  bool shared_memory = false;
  // Some node of the job runs more ranks than it has processors (job_ranks_share_processors: the same on every
  // rank), so two ranks of a node may not run at once.
  bool shared_processors = false;

  // An intercommunicator's collective (algorithms/intercomm.cpp): both groups as one space of ranks, the group
  // holding the lowest world rank first so that both sides number it alike. `rank` and `size` are in that space,
  // my group is [local_base, local_base + local_size), and `root` is the root's place in it, or -1 for the root's
  // group but the root (MPI_PROC_NULL).
  bool inter = false;
  int local_base = 0, local_size = 0, remote_base = 0, remote_size = 0;

  // A neighbourhood collective (algorithms/neighbourhood.cpp; comm::Neighbours): the ranks received from and sent
  // to in buffer order (MPI_PROC_NULL: skipped), the tag of each message, and the alltoallw displacements (bytes).
  std::vector<int> sources, destinations, source_tags, destination_tags;
  std::vector<std::ptrdiff_t> sdispls_bytes, rdispls_bytes;

  // The communicator's hardware hierarchy as seen by this rank (hierarchy.hpp), for the topology-aware algorithms;
  // null when the caller did not look it up. The same for every call on one communicator.
  std::shared_ptr<const Hierarchy> hierarchy;

  Buf send_buf() const { return {send_area, reinterpret_cast<std::uintptr_t>(sendbuf)}; }
  Buf recv_buf() const { return {recv_area, reinterpret_cast<std::uintptr_t>(recvbuf)}; }

  // The same call: equal values, the same buffers, and the same type and operator objects (not equal ones).
  // Scalars first, so that a call with other buffers or counts is told apart before any vector is compared.
  friend bool operator==(const Args& x, const Args& y) {
    auto scalars = [](const Args& a) {
      return std::tie(a.rank, a.size, a.root, a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype,
                      a.in_place, a.send_area, a.recv_area, a.op, a.op_ref, a.type_handle, a.segment_bytes, a.radix,
                      a.groups, a.tag_limit, a.node_memory, a.shared_memory, a.shared_processors, a.hierarchy, a.inter,
                      a.local_base, a.local_size, a.remote_base, a.remote_size);
    };
    return scalars(x) == scalars(y) && x.sendcounts == y.sendcounts && x.sdispls == y.sdispls &&
           x.recvcounts == y.recvcounts && x.rdispls == y.rdispls && x.sendtypes == y.sendtypes &&
           x.recvtypes == y.recvtypes && x.sources == y.sources && x.destinations == y.destinations &&
           x.source_tags == y.source_tags && x.destination_tags == y.destination_tags &&
           x.sdispls_bytes == y.sdispls_bytes && x.rdispls_bytes == y.rdispls_bytes;
  }
};

}  // namespace strata::coll
