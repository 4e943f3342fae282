// The arguments of one collective call as the algorithms see them: ranks in the communicator, buffers with
// MPI_IN_PLACE already resolved into `in_place`, counts and displacements copied (a persistent collective keeps
// them; the caller's arrays may be freed after the call).
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "datatype/datatype.hpp"
#include "datatype/op.hpp"

namespace strata::coll {

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

  // The v and w variants, in elements of the (per-peer) type; displacements in elements (v) or bytes (w).
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls;
  std::vector<datatype::TypeRef> sendtypes, recvtypes;  // w only
  std::vector<int> sendtype_handles, recvtype_handles;  // w only, for user operators: unused

  const datatype::Op* op = nullptr;  // reductions
  std::shared_ptr<const datatype::Op> op_ref;  // keeps a user operator alive while the collective runs
  int type_handle = 0;               // the reduction datatype's MPI handle (user functions receive it)

  std::size_t segment_bytes = 0;  // pipelined algorithms: bytes per segment (0: the algorithm's default)
  int radix = 0;                  // k-nomial algorithms: k (0: the algorithm's default)

  // The same call: equal values, the same buffers, and the same type and operator objects (not equal ones).
  friend bool operator==(const Args&, const Args&) = default;
};

}  // namespace strata::coll
