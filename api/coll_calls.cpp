// The blocking and nonblocking collectives (MPI-4.0 6.4 - 6.12). Each operation's arguments are checked and
// turned into coll::Args by its function in coll_prepare.hpp; coll/ chooses and runs the algorithm. Each call has
// its large-count twin (MPI_Bcast_c, ...; MPI-4.0 2.5.8: MPI_Count counts, MPI_Aint displacements), sharing all that.
#include <cstdint>

#include "api/coll_prepare.hpp"

using namespace strata;
using namespace strata::api;
using namespace strata::api::coll_prepare;
using coll::Operation;

namespace {

// The key of a call (coll::CallKey) from its raw arguments: up to two sides of buffer, count and type, an operator
// and a root. Equal keys mean equal arguments while no datatype or operator handle was freed (a freed handle may
// come back as another object, or be passed again by mistake and must then be reported).
// Counts take a word each (the large-count calls' are 64-bit); the two datatype handles share one.
coll::CallKey key(const void* buf1 = nullptr, MPI_Count count1 = 0, MPI_Datatype type1 = MPI_DATATYPE_NULL,
                  const void* buf2 = nullptr, MPI_Count count2 = 0,
                  MPI_Datatype type2 = MPI_DATATYPE_NULL, MPI_Op op = MPI_OP_NULL, int root = 0) {
  auto word = [](int v) { return static_cast<std::uintptr_t>(static_cast<unsigned>(v)); };
  return {1 + datatypes().removals() + ops().removals(),
          reinterpret_cast<std::uintptr_t>(buf1),
          reinterpret_cast<std::uintptr_t>(buf2),
          static_cast<std::uintptr_t>(count1),
          static_cast<std::uintptr_t>(count2),
          word(type1) << 32 | word(type2),
          word(op),
          word(root)};
}

// The two entry points of an operation: check the communicator; a call that repeats the previous one of its
// operation (same key) restarts its collective, since it would pass the same checks and build the same Args;
// otherwise prepare the arguments and launch.
template <class Prepare>
int run(const char* call, MPI_Comm comm, Operation op, MPI_Request* request, bool nonblocking,
        const coll::CallKey& key, Prepare&& prepare) {
  Check check(call, comm);
  comm::Communicator* c = nullptr;
  collective_comm(check, comm, op, c);
  if (nonblocking) check.not_null(request, "request");
  if (!check.ok()) return check.raise();
  if (c->collectives)
    if (const std::shared_ptr<coll::Collective>& again = c->collectives->repeat(op, key))
      return start(check, comm, *c, again, request);
  Args a;
  prepare(check, *c, a);
  if (!distinct_buffers(check, op, a).ok()) return check.raise();
  return launch(check, comm, *c, op, a, key, nonblocking ? request : nullptr);
}

}  // namespace

// ---- Barrier, Bcast ----------------------------------------------------------------------------------------------

STRATA_PMPI(Barrier)
extern "C" int PMPI_Barrier(MPI_Comm comm) {
  return run("MPI_Barrier", comm, Operation::kBarrier, nullptr, false,
             key(), [](Check&, comm::Communicator&, Args&) {});
}

STRATA_PMPI(Ibarrier)
extern "C" int PMPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  return run("MPI_Ibarrier", comm, Operation::kBarrier, request, true,
             key(), [](Check&, comm::Communicator&, Args&) {});
}

STRATA_PMPI(Bcast)
extern "C" int PMPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Bcast", comm, Operation::kBcast, nullptr, false,
             key(buffer, count, datatype, nullptr, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, root),
             bcast(buffer, count, datatype, root));
}

STRATA_PMPI(Bcast_c)
extern "C" int PMPI_Bcast_c(void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Bcast_c", comm, Operation::kBcast, nullptr, false,
             key(buffer, count, datatype, nullptr, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, root),
             bcast(buffer, count, datatype, root));
}

STRATA_PMPI(Ibcast)
extern "C" int PMPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                           MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ibcast", comm, Operation::kBcast, request, true,
             key(buffer, count, datatype, nullptr, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, root),
             bcast(buffer, count, datatype, root));
}

STRATA_PMPI(Ibcast_c)
extern "C" int PMPI_Ibcast_c(void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                             MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ibcast_c", comm, Operation::kBcast, request, true,
             key(buffer, count, datatype, nullptr, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, root),
             bcast(buffer, count, datatype, root));
}

// ---- Gather, Gatherv, Scatter, Scatterv --------------------------------------------------------------------------

STRATA_PMPI(Gather)
extern "C" int PMPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Gather", comm, Operation::kGather, nullptr, false,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, MPI_OP_NULL, root),
             gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, root, false));
}

STRATA_PMPI(Gather_c)
extern "C" int PMPI_Gather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                             MPI_Count recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Gather_c", comm, Operation::kGather, nullptr, false,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, MPI_OP_NULL, root),
             gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, root, false));
}

STRATA_PMPI(Igather)
extern "C" int PMPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Igather", comm, Operation::kGather, request, true,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, MPI_OP_NULL, root),
             gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, root, false));
}

STRATA_PMPI(Igather_c)
extern "C" int PMPI_Igather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                              MPI_Count recvcount,
                              MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Igather_c", comm, Operation::kGather, request, true,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, MPI_OP_NULL, root),
             gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, root, false));
}

STRATA_PMPI(Gatherv)
extern "C" int PMPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                            MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Gatherv", comm, Operation::kGatherv, nullptr, false, coll::kNoKey,
             gather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, root, true));
}

STRATA_PMPI(Gatherv_c)
extern "C" int PMPI_Gatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                              MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Gatherv_c", comm, Operation::kGatherv, nullptr, false, coll::kNoKey,
             gather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, root, true));
}

STRATA_PMPI(Igatherv)
extern "C" int PMPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                             MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Igatherv", comm, Operation::kGatherv, request, true, coll::kNoKey,
             gather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, root, true));
}

STRATA_PMPI(Igatherv_c)
extern "C" int PMPI_Igatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                               MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Igatherv_c", comm, Operation::kGatherv, request, true, coll::kNoKey,
             gather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, root, true));
}

STRATA_PMPI(Scatter)
extern "C" int PMPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Scatter", comm, Operation::kScatter, nullptr, false,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, MPI_OP_NULL, root),
             scatter(sendbuf, sendcount, sendtype, nullptr, nullptr, recvbuf, recvcount, recvtype, root, false));
}

STRATA_PMPI(Scatter_c)
extern "C" int PMPI_Scatter_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                              MPI_Count recvcount,
                              MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Scatter_c", comm, Operation::kScatter, nullptr, false,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, MPI_OP_NULL, root),
             scatter(sendbuf, sendcount, sendtype, nullptr, nullptr, recvbuf, recvcount, recvtype, root, false));
}

STRATA_PMPI(Iscatter)
extern "C" int PMPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Iscatter", comm, Operation::kScatter, request, true,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, MPI_OP_NULL, root),
             scatter(sendbuf, sendcount, sendtype, nullptr, nullptr, recvbuf, recvcount, recvtype, root, false));
}

STRATA_PMPI(Iscatter_c)
extern "C" int PMPI_Iscatter_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                               MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Iscatter_c", comm, Operation::kScatter, request, true,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, MPI_OP_NULL, root),
             scatter(sendbuf, sendcount, sendtype, nullptr, nullptr, recvbuf, recvcount, recvtype, root, false));
}

STRATA_PMPI(Scatterv)
extern "C" int PMPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Scatterv", comm, Operation::kScatterv, nullptr, false, coll::kNoKey,
             scatter(sendbuf, 0, sendtype, sendcounts, displs, recvbuf, recvcount, recvtype, root, true));
}

STRATA_PMPI(Scatterv_c)
extern "C" int PMPI_Scatterv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                               MPI_Datatype sendtype,
                               void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Scatterv_c", comm, Operation::kScatterv, nullptr, false, coll::kNoKey,
             scatter(sendbuf, 0, sendtype, sendcounts, displs, recvbuf, recvcount, recvtype, root, true));
}

STRATA_PMPI(Iscatterv)
extern "C" int PMPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                              MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                              MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Iscatterv", comm, Operation::kScatterv, request, true, coll::kNoKey,
             scatter(sendbuf, 0, sendtype, sendcounts, displs, recvbuf, recvcount, recvtype, root, true));
}

STRATA_PMPI(Iscatterv_c)
extern "C" int PMPI_Iscatterv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                                MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                int root,
                                MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Iscatterv_c", comm, Operation::kScatterv, request, true, coll::kNoKey,
             scatter(sendbuf, 0, sendtype, sendcounts, displs, recvbuf, recvcount, recvtype, root, true));
}

// ---- Allgather, Allgatherv ---------------------------------------------------------------------------------------

STRATA_PMPI(Allgather)
extern "C" int PMPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Allgather", comm, Operation::kAllgather, nullptr, false,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
             allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, false));
}

STRATA_PMPI(Allgather_c)
extern "C" int PMPI_Allgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Allgather_c", comm, Operation::kAllgather, nullptr, false,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
             allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, false));
}

STRATA_PMPI(Iallgather)
extern "C" int PMPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Iallgather", comm, Operation::kAllgather, request, true,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
             allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, false));
}

STRATA_PMPI(Iallgather_c)
extern "C" int PMPI_Iallgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Iallgather_c", comm, Operation::kAllgather, request, true,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
             allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, false));
}

STRATA_PMPI(Allgatherv)
extern "C" int PMPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Allgatherv", comm, Operation::kAllgatherv, nullptr, false, coll::kNoKey,
             allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, true));
}

STRATA_PMPI(Allgatherv_c)
extern "C" int PMPI_Allgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                 MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Allgatherv_c", comm, Operation::kAllgatherv, nullptr, false, coll::kNoKey,
             allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, true));
}

STRATA_PMPI(Iallgatherv)
extern "C" int PMPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Iallgatherv", comm, Operation::kAllgatherv, request, true, coll::kNoKey,
             allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, true));
}

STRATA_PMPI(Iallgatherv_c)
extern "C" int PMPI_Iallgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                  MPI_Comm comm,
                                  MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Iallgatherv_c", comm, Operation::kAllgatherv, request, true, coll::kNoKey,
             allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, true));
}

// ---- Alltoall, Alltoallv, Alltoallw ------------------------------------------------------------------------------

STRATA_PMPI(Alltoall)
extern "C" int PMPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Alltoall", comm, Operation::kAlltoall, nullptr, false,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
             alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
}

STRATA_PMPI(Alltoall_c)
extern "C" int PMPI_Alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                               MPI_Count recvcount,
                               MPI_Datatype recvtype, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Alltoall_c", comm, Operation::kAlltoall, nullptr, false,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
             alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
}

STRATA_PMPI(Ialltoall)
extern "C" int PMPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ialltoall", comm, Operation::kAlltoall, request, true,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
             alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
}

STRATA_PMPI(Ialltoall_c)
extern "C" int PMPI_Ialltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ialltoall_c", comm, Operation::kAlltoall, request, true,
             key(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
             alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
}

STRATA_PMPI(Alltoallv)
extern "C" int PMPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                              void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Alltoallv", comm, Operation::kAlltoallv, nullptr, false, coll::kNoKey,
             alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype));
}

STRATA_PMPI(Alltoallv_c)
extern "C" int PMPI_Alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                MPI_Datatype sendtype,
                                void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                MPI_Datatype recvtype,
                                MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Alltoallv_c", comm, Operation::kAlltoallv, nullptr, false, coll::kNoKey,
             alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype));
}

STRATA_PMPI(Ialltoallv)
extern "C" int PMPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                               MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ialltoallv", comm, Operation::kAlltoallv, request, true, coll::kNoKey,
             alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype));
}

STRATA_PMPI(Ialltoallv_c)
extern "C" int PMPI_Ialltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                 MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                                 const MPI_Aint rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ialltoallv_c", comm, Operation::kAlltoallv, request, true, coll::kNoKey,
             alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype));
}

STRATA_PMPI(Alltoallw)
extern "C" int PMPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                              const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                              const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Alltoallw", comm, Operation::kAlltoallw, nullptr, false, coll::kNoKey,
             alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes));
}

STRATA_PMPI(Alltoallw_c)
extern "C" int PMPI_Alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Alltoallw_c", comm, Operation::kAlltoallw, nullptr, false, coll::kNoKey,
             alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes));
}

STRATA_PMPI(Ialltoallw)
extern "C" int PMPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                               const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                               const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ialltoallw", comm, Operation::kAlltoallw, request, true, coll::kNoKey,
             alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes));
}

STRATA_PMPI(Ialltoallw_c)
extern "C" int PMPI_Ialltoallw_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                 const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                                 const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                 MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ialltoallw_c", comm, Operation::kAlltoallw, request, true, coll::kNoKey,
             alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes));
}

// ---- Reductions --------------------------------------------------------------------------------------------------

STRATA_PMPI(Reduce)
extern "C" int PMPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                           MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Reduce", comm, Operation::kReduce, nullptr, false,
             key(sendbuf, count, datatype, recvbuf, 0, MPI_DATATYPE_NULL, op, root),
             reduce(sendbuf, recvbuf, count, datatype, op, root));
}

STRATA_PMPI(Reduce_c)
extern "C" int PMPI_Reduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                             int root,
                             MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Reduce_c", comm, Operation::kReduce, nullptr, false,
             key(sendbuf, count, datatype, recvbuf, 0, MPI_DATATYPE_NULL, op, root),
             reduce(sendbuf, recvbuf, count, datatype, op, root));
}

STRATA_PMPI(Ireduce)
extern "C" int PMPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            int root, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ireduce", comm, Operation::kReduce, request, true,
             key(sendbuf, count, datatype, recvbuf, 0, MPI_DATATYPE_NULL, op, root),
             reduce(sendbuf, recvbuf, count, datatype, op, root));
}

STRATA_PMPI(Ireduce_c)
extern "C" int PMPI_Ireduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                              int root, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ireduce_c", comm, Operation::kReduce, request, true,
             key(sendbuf, count, datatype, recvbuf, 0, MPI_DATATYPE_NULL, op, root),
             reduce(sendbuf, recvbuf, count, datatype, op, root));
}

#define STRATA_EVERYONE_REDUCES(Name, IName, Operation_, Count)                                                  \
  STRATA_PMPI(Name)                                                                                                 \
  extern "C" int PMPI_##Name(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op,   \
                             MPI_Comm comm) {                                                                       \
    return run("MPI_" #Name, comm, Operation_, nullptr, false, key(sendbuf, count, datatype, recvbuf, 0, 0, op), \
               everyone_reduces(sendbuf, recvbuf, count, datatype, op));                                           \
  }                                                                                                                 \
  STRATA_PMPI(IName)                                                                                                \
  extern "C" int PMPI_##IName(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op,  \
                              MPI_Comm comm, MPI_Request* request) {                                               \
    return run("MPI_" #IName, comm, Operation_, request, true, key(sendbuf, count, datatype, recvbuf, 0, 0, op), \
               everyone_reduces(sendbuf, recvbuf, count, datatype, op));                                           \
  }

STRATA_EVERYONE_REDUCES(Allreduce, Iallreduce, Operation::kAllreduce, int)
STRATA_EVERYONE_REDUCES(Allreduce_c, Iallreduce_c, Operation::kAllreduce, MPI_Count)
STRATA_EVERYONE_REDUCES(Scan, Iscan, Operation::kScan, int)
STRATA_EVERYONE_REDUCES(Scan_c, Iscan_c, Operation::kScan, MPI_Count)
STRATA_EVERYONE_REDUCES(Exscan, Iexscan, Operation::kExscan, int)
STRATA_EVERYONE_REDUCES(Exscan_c, Iexscan_c, Operation::kExscan, MPI_Count)

STRATA_PMPI(Reduce_scatter_block)
extern "C" int PMPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                         MPI_Op op, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Reduce_scatter_block", comm, Operation::kReduceScatterBlock, nullptr, false,
             key(sendbuf, recvcount, datatype, recvbuf, 0, MPI_DATATYPE_NULL, op),
             reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op));
}

STRATA_PMPI(Reduce_scatter_block_c)
extern "C" int PMPI_Reduce_scatter_block_c(const void* sendbuf, void* recvbuf, MPI_Count recvcount,
                                           MPI_Datatype datatype,
                                           MPI_Op op, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Reduce_scatter_block_c", comm, Operation::kReduceScatterBlock, nullptr, false,
             key(sendbuf, recvcount, datatype, recvbuf, 0, MPI_DATATYPE_NULL, op),
             reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op));
}

STRATA_PMPI(Ireduce_scatter_block)
extern "C" int PMPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                          MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ireduce_scatter_block", comm, Operation::kReduceScatterBlock, request, true,
             key(sendbuf, recvcount, datatype, recvbuf, 0, MPI_DATATYPE_NULL, op),
             reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op));
}

STRATA_PMPI(Ireduce_scatter_block_c)
extern "C" int PMPI_Ireduce_scatter_block_c(const void* sendbuf, void* recvbuf, MPI_Count recvcount,
                                            MPI_Datatype datatype,
                                            MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ireduce_scatter_block_c", comm, Operation::kReduceScatterBlock, request, true,
             key(sendbuf, recvcount, datatype, recvbuf, 0, MPI_DATATYPE_NULL, op),
             reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op));
}

STRATA_PMPI(Reduce_scatter)
extern "C" int PMPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Reduce_scatter", comm, Operation::kReduceScatter, nullptr, false, coll::kNoKey,
             reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op));
}

STRATA_PMPI(Reduce_scatter_c)
extern "C" int PMPI_Reduce_scatter_c(const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[],
                                     MPI_Datatype datatype,
                                     MPI_Op op, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Reduce_scatter_c", comm, Operation::kReduceScatter, nullptr, false, coll::kNoKey,
             reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op));
}

STRATA_PMPI(Ireduce_scatter)
extern "C" int PMPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                    MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ireduce_scatter", comm, Operation::kReduceScatter, request, true, coll::kNoKey,
             reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op));
}

STRATA_PMPI(Ireduce_scatter_c)
extern "C" int PMPI_Ireduce_scatter_c(const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[],
                                      MPI_Datatype datatype,
                                      MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ireduce_scatter_c", comm, Operation::kReduceScatter, request, true, coll::kNoKey,
             reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op));
}

// ---- Neighbourhood collectives (MPI-4.0 8.6) ------------------------------------------------------------------

STRATA_PMPI(Neighbor_allgather)
extern "C" int PMPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Neighbor_allgather", comm, Operation::kNeighborAllgather, nullptr, false, coll::kNoKey,
             neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, false));
}

STRATA_PMPI(Neighbor_allgather_c)
extern "C" int PMPI_Neighbor_allgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                         MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Neighbor_allgather_c", comm, Operation::kNeighborAllgather, nullptr, false, coll::kNoKey,
             neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, false));
}

STRATA_PMPI(Ineighbor_allgather)
extern "C" int PMPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ineighbor_allgather", comm, Operation::kNeighborAllgather, request, true, coll::kNoKey,
             neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, false));
}

STRATA_PMPI(Ineighbor_allgather_c)
extern "C" int PMPI_Ineighbor_allgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                          void* recvbuf,
                                          MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                          MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ineighbor_allgather_c", comm, Operation::kNeighborAllgather, request, true, coll::kNoKey,
             neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, false));
}

STRATA_PMPI(Neighbor_allgatherv)
extern "C" int PMPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                        MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Neighbor_allgatherv", comm, Operation::kNeighborAllgatherv, nullptr, false, coll::kNoKey,
             neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, true));
}

STRATA_PMPI(Neighbor_allgatherv_c)
extern "C" int PMPI_Neighbor_allgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                          void* recvbuf,
                                          const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                          MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Neighbor_allgatherv_c", comm, Operation::kNeighborAllgatherv, nullptr, false, coll::kNoKey,
             neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, true));
}

STRATA_PMPI(Ineighbor_allgatherv)
extern "C" int PMPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                         MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ineighbor_allgatherv", comm, Operation::kNeighborAllgatherv, request, true, coll::kNoKey,
             neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, true));
}

STRATA_PMPI(Ineighbor_allgatherv_c)
extern "C" int PMPI_Ineighbor_allgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                           void* recvbuf,
                                           const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                           MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ineighbor_allgatherv_c", comm, Operation::kNeighborAllgatherv, request, true, coll::kNoKey,
             neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, true));
}

STRATA_PMPI(Neighbor_alltoall)
extern "C" int PMPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Neighbor_alltoall", comm, Operation::kNeighborAlltoall, nullptr, false, coll::kNoKey,
             neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
}

STRATA_PMPI(Neighbor_alltoall_c)
extern "C" int PMPI_Neighbor_alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                        MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Neighbor_alltoall_c", comm, Operation::kNeighborAlltoall, nullptr, false, coll::kNoKey,
             neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
}

STRATA_PMPI(Ineighbor_alltoall)
extern "C" int PMPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ineighbor_alltoall", comm, Operation::kNeighborAlltoall, request, true, coll::kNoKey,
             neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
}

STRATA_PMPI(Ineighbor_alltoall_c)
extern "C" int PMPI_Ineighbor_alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                         MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                         MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ineighbor_alltoall_c", comm, Operation::kNeighborAlltoall, request, true, coll::kNoKey,
             neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
}

STRATA_PMPI(Neighbor_alltoallv)
extern "C" int PMPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                       MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Neighbor_alltoallv", comm, Operation::kNeighborAlltoallv, nullptr, false, coll::kNoKey,
             neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype));
}

STRATA_PMPI(Neighbor_alltoallv_c)
extern "C" int PMPI_Neighbor_alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                         MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                                         const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Neighbor_alltoallv_c", comm, Operation::kNeighborAlltoallv, nullptr, false, coll::kNoKey,
             neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype));
}

STRATA_PMPI(Ineighbor_alltoallv)
extern "C" int PMPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                        MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                        MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ineighbor_alltoallv", comm, Operation::kNeighborAlltoallv, request, true, coll::kNoKey,
             neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype));
}

STRATA_PMPI(Ineighbor_alltoallv_c)
extern "C" int PMPI_Ineighbor_alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                          MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                                          const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                          MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ineighbor_alltoallv_c", comm, Operation::kNeighborAlltoallv, request, true, coll::kNoKey,
             neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype));
}

STRATA_PMPI(Neighbor_alltoallw)
extern "C" int PMPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                       const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                       const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Neighbor_alltoallw", comm, Operation::kNeighborAlltoallw, nullptr, false, coll::kNoKey,
             neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes));
}

STRATA_PMPI(Neighbor_alltoallw_c)
extern "C" int PMPI_Neighbor_alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                         const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                                         const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return run("MPI_Neighbor_alltoallw_c", comm, Operation::kNeighborAlltoallw, nullptr, false, coll::kNoKey,
             neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes));
}

STRATA_PMPI(Ineighbor_alltoallw)
extern "C" int PMPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                        const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                        MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ineighbor_alltoallw", comm, Operation::kNeighborAlltoallw, request, true, coll::kNoKey,
             neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes));
}

STRATA_PMPI(Ineighbor_alltoallw_c)
extern "C" int PMPI_Ineighbor_alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                          const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                                          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                          MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run("MPI_Ineighbor_alltoallw_c", comm, Operation::kNeighborAlltoallw, request, true, coll::kNoKey,
             neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes));
}
