// The persistent collectives (MPI-4.0 6.13): the same arguments and checks as the blocking and nonblocking calls
// (coll_prepare.hpp), plus an info argument whose strata_coll_<operation> key names an algorithm. The init call
// builds the collective once; MPI_Start (requests.cpp) only re-arms it (coll_query_calls.cpp tells what it runs).
// Each call has its large-count twin (MPI_Bcast_init_c, ...; MPI-4.0 2.5.8), sharing its prepare step.
#include "api/coll_prepare.hpp"
#include "coll/collective.hpp"

using namespace strata;
using namespace strata::api;
using namespace strata::api::coll_prepare;
using coll::Operation;

namespace {

template <class Prepare>
int run_init(const char* call, MPI_Comm comm, Operation op, MPI_Info info, MPI_Request* request, Prepare&& prepare) {
  Check check(call, comm);
  comm::Communicator* c = nullptr;
  runtime::Info* hints = nullptr;
  collective_comm(check, comm, op, c).info(info, hints, true).not_null(request, "request");
  if (!check.ok()) return check.raise();
  Args a;
  prepare(check, *c, a);
  if (!distinct_buffers(check, op, a).ok()) return check.raise();
  return init_persistent(check, comm, *c, op, a, hints, request);
}

}  // namespace

STRATA_PMPI(Barrier_init)
extern "C" int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return run_init("MPI_Barrier_init", comm, Operation::kBarrier, info, request,
                  [](Check&, comm::Communicator&, Args&) {});
}

STRATA_PMPI(Bcast_init)
extern "C" int PMPI_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                               MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Bcast_init", comm, Operation::kBcast, info, request, bcast(buffer, count, datatype, root));
}

STRATA_PMPI(Bcast_init_c)
extern "C" int PMPI_Bcast_init_c(void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                                 MPI_Info info,
                                 MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Bcast_init_c", comm, Operation::kBcast, info, request, bcast(buffer, count, datatype, root));
}

STRATA_PMPI(Gather_init)
extern "C" int PMPI_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Gather_init", comm, Operation::kGather, info, request,
                  gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, root, false));
}

STRATA_PMPI(Gather_init_c)
extern "C" int PMPI_Gather_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Gather_init_c", comm, Operation::kGather, info, request,
                  gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, root, false));
}

STRATA_PMPI(Gatherv_init)
extern "C" int PMPI_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                                 MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Gatherv_init", comm, Operation::kGatherv, info, request,
                  gather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, root, true));
}

STRATA_PMPI(Gatherv_init_c)
extern "C" int PMPI_Gatherv_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                   int root,
                                   MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Gatherv_init_c", comm, Operation::kGatherv, info, request,
                  gather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, root, true));
}

STRATA_PMPI(Scatter_init)
extern "C" int PMPI_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                 MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Scatter_init", comm, Operation::kScatter, info, request,
                  scatter(sendbuf, sendcount, sendtype, nullptr, nullptr, recvbuf, recvcount, recvtype, root, false));
}

STRATA_PMPI(Scatter_init_c)
extern "C" int PMPI_Scatter_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                   MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Scatter_init_c", comm, Operation::kScatter, info, request,
                  scatter(sendbuf, sendcount, sendtype, nullptr, nullptr, recvbuf, recvcount, recvtype, root, false));
}

STRATA_PMPI(Scatterv_init)
extern "C" int PMPI_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[],
                                  MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                  MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Scatterv_init", comm, Operation::kScatterv, info, request,
                  scatter(sendbuf, 0, sendtype, sendcounts, displs, recvbuf, recvcount, recvtype, root, true));
}

STRATA_PMPI(Scatterv_init_c)
extern "C" int PMPI_Scatterv_init_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                                    MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                    int root,
                                    MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Scatterv_init_c", comm, Operation::kScatterv, info, request,
                  scatter(sendbuf, 0, sendtype, sendcounts, displs, recvbuf, recvcount, recvtype, root, true));
}

STRATA_PMPI(Allgather_init)
extern "C" int PMPI_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Allgather_init", comm, Operation::kAllgather, info, request,
                  allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, false));
}

STRATA_PMPI(Allgather_init_c)
extern "C" int PMPI_Allgather_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                     MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Allgather_init_c", comm, Operation::kAllgather, info, request,
                  allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr, false));
}

STRATA_PMPI(Allgatherv_init)
extern "C" int PMPI_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Allgatherv_init", comm, Operation::kAllgatherv, info, request,
                  allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, true));
}

STRATA_PMPI(Allgatherv_init_c)
extern "C" int PMPI_Allgatherv_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                      const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                      MPI_Comm comm,
                                      MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Allgatherv_init_c", comm, Operation::kAllgatherv, info, request,
                  allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, true));
}

STRATA_PMPI(Alltoall_init)
extern "C" int PMPI_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Alltoall_init", comm, Operation::kAlltoall, info, request,
                  alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
}

STRATA_PMPI(Alltoall_init_c)
extern "C" int PMPI_Alltoall_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                    MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Alltoall_init_c", comm, Operation::kAlltoall, info, request,
                  alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
}

STRATA_PMPI(Alltoallv_init)
extern "C" int PMPI_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                   MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Alltoallv_init", comm, Operation::kAlltoallv, info, request,
                  alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype));
}

STRATA_PMPI(Alltoallv_init_c)
extern "C" int PMPI_Alltoallv_init_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                     MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                                     const MPI_Aint rdispls[],
                                     MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Alltoallv_init_c", comm, Operation::kAlltoallv, info, request,
                  alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype));
}

STRATA_PMPI(Alltoallw_init)
extern "C" int PMPI_Alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                   const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                   MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Alltoallw_init", comm, Operation::kAlltoallw, info, request,
                  alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes));
}

STRATA_PMPI(Alltoallw_init_c)
extern "C" int PMPI_Alltoallw_init_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                     const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                     MPI_Info info,
                                     MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Alltoallw_init_c", comm, Operation::kAlltoallw, info, request,
                  alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes));
}

STRATA_PMPI(Reduce_init)
extern "C" int PMPI_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Reduce_init", comm, Operation::kReduce, info, request,
                  reduce(sendbuf, recvbuf, count, datatype, op, root));
}

STRATA_PMPI(Reduce_init_c)
extern "C" int PMPI_Reduce_init_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                                  int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Reduce_init_c", comm, Operation::kReduce, info, request,
                  reduce(sendbuf, recvbuf, count, datatype, op, root));
}

#define STRATA_EVERYONE_REDUCES_INIT(Name, Operation_, Count)                                                       \
  STRATA_PMPI(Name)                                                                                                 \
  extern "C" int PMPI_##Name(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op,   \
                             MPI_Comm comm, MPI_Info info, MPI_Request* request) {                                  \
    return run_init("MPI_" #Name, comm, Operation_, info, request,                                                 \
                    everyone_reduces(sendbuf, recvbuf, count, datatype, op));                                      \
  }

STRATA_EVERYONE_REDUCES_INIT(Allreduce_init, Operation::kAllreduce, int)
STRATA_EVERYONE_REDUCES_INIT(Allreduce_init_c, Operation::kAllreduce, MPI_Count)
STRATA_EVERYONE_REDUCES_INIT(Scan_init, Operation::kScan, int)
STRATA_EVERYONE_REDUCES_INIT(Scan_init_c, Operation::kScan, MPI_Count)
STRATA_EVERYONE_REDUCES_INIT(Exscan_init, Operation::kExscan, int)
STRATA_EVERYONE_REDUCES_INIT(Exscan_init_c, Operation::kExscan, MPI_Count)

STRATA_PMPI(Reduce_scatter_block_init)
extern "C" int PMPI_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount,
                                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                              MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Reduce_scatter_block_init", comm, Operation::kReduceScatterBlock, info, request,
                  reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op));
}

STRATA_PMPI(Reduce_scatter_block_init_c)
extern "C" int PMPI_Reduce_scatter_block_init_c(const void* sendbuf, void* recvbuf, MPI_Count recvcount,
                                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                                MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Reduce_scatter_block_init_c", comm, Operation::kReduceScatterBlock, info, request,
                  reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op));
}

STRATA_PMPI(Reduce_scatter_init)
extern "C" int PMPI_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[],
                                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                        MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Reduce_scatter_init", comm, Operation::kReduceScatter, info, request,
                  reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op));
}

STRATA_PMPI(Reduce_scatter_init_c)
extern "C" int PMPI_Reduce_scatter_init_c(const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[],
                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                          MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Reduce_scatter_init_c", comm, Operation::kReduceScatter, info, request,
                  reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op));
}

// ---- Neighbourhood collectives ----------------------------------------------------------------------------------

STRATA_PMPI(Neighbor_allgather_init)
extern "C" int PMPI_Neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                            int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                            MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Neighbor_allgather_init", comm, Operation::kNeighborAllgather, info, request,
                  neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr,
                                     false));
}

STRATA_PMPI(Neighbor_allgather_init_c)
extern "C" int PMPI_Neighbor_allgather_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                              void* recvbuf,
                                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                              MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Neighbor_allgather_init_c", comm, Operation::kNeighborAllgather, info, request,
                  neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, nullptr, nullptr,
                                     false));
}

STRATA_PMPI(Neighbor_allgatherv_init)
extern "C" int PMPI_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                             const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                             MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Neighbor_allgatherv_init", comm, Operation::kNeighborAllgatherv, info, request,
                  neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, true));
}

STRATA_PMPI(Neighbor_allgatherv_init_c)
extern "C" int PMPI_Neighbor_allgatherv_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                               void* recvbuf,
                                               const MPI_Count recvcounts[], const MPI_Aint displs[],
                                               MPI_Datatype recvtype,
                                               MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Neighbor_allgatherv_init_c", comm, Operation::kNeighborAllgatherv, info, request,
                  neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs, true));
}

STRATA_PMPI(Neighbor_alltoall_init)
extern "C" int PMPI_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                           MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Neighbor_alltoall_init", comm, Operation::kNeighborAlltoall, info, request,
                  neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
}

STRATA_PMPI(Neighbor_alltoall_init_c)
extern "C" int PMPI_Neighbor_alltoall_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                             void* recvbuf,
                                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                             MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Neighbor_alltoall_init_c", comm, Operation::kNeighborAlltoall, info, request,
                  neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
}

STRATA_PMPI(Neighbor_alltoallv_init)
extern "C" int PMPI_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                            MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                            MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Neighbor_alltoallv_init", comm, Operation::kNeighborAlltoallv, info, request,
                  neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype));
}

STRATA_PMPI(Neighbor_alltoallv_init_c)
extern "C" int PMPI_Neighbor_alltoallv_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                                              const MPI_Aint sdispls[],
                                              MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                                              const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                              MPI_Info info,
                                              MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Neighbor_alltoallv_init_c", comm, Operation::kNeighborAlltoallv, info, request,
                  neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype));
}

STRATA_PMPI(Neighbor_alltoallw_init)
extern "C" int PMPI_Neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                            const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                            MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Neighbor_alltoallw_init", comm, Operation::kNeighborAlltoallw, info, request,
                  neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes));
}

STRATA_PMPI(Neighbor_alltoallw_init_c)
extern "C" int PMPI_Neighbor_alltoallw_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                                              const MPI_Aint sdispls[],
                                              const MPI_Datatype sendtypes[], void* recvbuf,
                                              const MPI_Count recvcounts[],
                                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                              MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return run_init("MPI_Neighbor_alltoallw_init_c", comm, Operation::kNeighborAlltoallw, info, request,
                  neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes));
}
