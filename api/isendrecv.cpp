// MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.0 3.10): one request over a send and a receive, complete when both
// are, with the receive's status. The two parts are ordinary engine requests; complete_when completes the outer one.
// MPI_Isendrecv_c and MPI_Isendrecv_replace_c (MPI-4.0 2.5.8) share the code with MPI_Count counts.
#include <memory>

#include "api/derived_requests.hpp"

using namespace strata;
using namespace strata::api;

namespace {

// True once both parts are done, with the receive's status (or the send's error) in `r`.
bool pair_done(ApiRequest& r) {
  const SendRecvParts& p = *r.parts;
  if (!p.send.complete || !p.recv.complete) return false;
  r.status = p.recv.status;
  r.failure = p.recv.failure;
  if (r.status.error == 0 && p.send.status.error != 0) {
    r.status.error = p.send.status.error;
    r.failure = p.send.failure.empty() ? "the send failed" : p.send.failure;
  }
  return true;
}

int start_pair(const Operation& send_op, const Operation& recv_op, std::shared_ptr<SendRecvParts> parts,
               MPI_Request* request) {
  auto* r = new ApiRequest;
  r->kind = transport::RequestKind::Recv;
  r->comm = recv_op.handle;
  r->active = true;
  r->parts = std::move(parts);
  prepare_recv(r->parts->recv, recv_op, Lifetime::kHandle);
  prepare_send(r->parts->send, send_op, transport::SendMode::Standard, Lifetime::kHandle);
  start(r->parts->recv);  // posted first, so a send to ourselves finds it
  start(r->parts->send);
  complete_when(r, pair_done);
  *request = add_request(r);
  return MPI_SUCCESS;
}

}  // namespace

namespace strata::api {

void cancel_parts(ApiRequest& r) {
  for (ApiRequest* part : {&r.parts->recv, &r.parts->send})
    if (!part->complete) transport::engine().cancel(part);
}

}  // namespace strata::api

namespace {

int isendrecv(const char* call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
              int sendtag, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
              MPI_Comm comm, MPI_Request* request) {
  Operation send_op, recv_op;
  Check check(call, comm);
  check_send(check, sendbuf, sendcount, sendtype, dest, sendtag, comm, send_op);
  check_recv(check, recvbuf, recvcount, recvtype, source, recvtag, comm, recv_op).not_null(request, "request");
  if (!check.ok()) return check.raise();
  return start_pair(send_op, recv_op, std::make_shared<SendRecvParts>(), request);
}

int isendrecv_replace(const char* call, void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                      int source, int recvtag, MPI_Comm comm, MPI_Request* request) {
  Operation send_op, recv_op;
  Check check(call, comm);
  check_send(check, buf, count, datatype, dest, sendtag, comm, send_op);
  check_recv(check, buf, count, datatype, source, recvtag, comm, recv_op).not_null(request, "request");
  if (!check.ok()) return check.raise();
  auto parts = std::make_shared<SendRecvParts>();
  pack_ahead(send_op, parts->packed);
  return start_pair(send_op, recv_op, std::move(parts), request);
}

}  // namespace

STRATA_PMPI(Isendrecv)
extern "C" int PMPI_Isendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                              void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                              MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return isendrecv("MPI_Isendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                   source, recvtag, comm, request);
}

STRATA_PMPI(Isendrecv_c)
extern "C" int PMPI_Isendrecv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                                int sendtag, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source,
                                int recvtag, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return isendrecv("MPI_Isendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                   source, recvtag, comm, request);
}

STRATA_PMPI(Isendrecv_replace)
extern "C" int PMPI_Isendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                                      int recvtag, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return isendrecv_replace("MPI_Isendrecv_replace", buf, count, datatype, dest, sendtag, source, recvtag, comm,
                           request);
}

STRATA_PMPI(Isendrecv_replace_c)
extern "C" int PMPI_Isendrecv_replace_c(void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                                        int source, int recvtag, MPI_Comm comm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return isendrecv_replace("MPI_Isendrecv_replace_c", buf, count, datatype, dest, sendtag, source, recvtag, comm,
                           request);
}
