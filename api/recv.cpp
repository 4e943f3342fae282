// Receives, and the combined send-receive calls (MPI-4.0 sections 3.2.4, 3.7, 3.9, 3.10), each with its large-count
// twin (MPI_Recv_c, ...; MPI-4.0 2.5.8): both share one implementation taking an MPI_Count.
#include <vector>

#include "api/p2p.hpp"

using namespace strata;
using namespace strata::api;

namespace {

int blocking_recv(const char* call, void* buf, MPI_Count count, MPI_Datatype type, int source, int tag,
                  MPI_Comm comm, MPI_Status* status) {
  Operation op;
  Check check(call, comm);
  if (!check_recv(check, buf, count, type, source, tag, comm, op).status_out(status).ok()) return check.raise();
  ApiRequest r;
  prepare_recv(r, op, Lifetime::kCall);
  start(r);
  wait(r);
  write_status(r, status);
  return request_error(call, r);
}

int make_recv(const char* call, void* buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request* request, bool persistent) {
  Operation op;
  Check check(call, comm);
  check_recv(check, buf, count, type, source, tag, comm, op).not_null(request, "request");
  if (!check.ok()) return check.raise();
  auto* r = new ApiRequest;
  prepare_recv(*r, op, Lifetime::kHandle);
  r->persistent = persistent;
  if (!persistent) start(*r);
  *request = add_request(r);
  return MPI_SUCCESS;
}

int send_and_receive(const char* call, const Operation& send_op, const Operation& recv_op, MPI_Status* status) {
  ApiRequest recv, send;
  prepare_recv(recv, recv_op, Lifetime::kCall);
  prepare_send(send, send_op, transport::SendMode::Standard, Lifetime::kCall);
  start(recv);  // posted first, so a send to ourselves finds it
  start(send);
  wait(send);
  wait(recv);
  write_status(recv, status);
  return request_error(call, recv);
}

int sendrecv(const char* call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
             void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
             MPI_Status* status) {
  Operation send_op, recv_op;
  Check check(call, comm);
  check_send(check, sendbuf, sendcount, sendtype, dest, sendtag, comm, send_op);
  check_recv(check, recvbuf, recvcount, recvtype, source, recvtag, comm, recv_op).status_out(status);
  if (!check.ok()) return check.raise();
  return send_and_receive(call, send_op, recv_op, status);
}

int sendrecv_replace(const char* call, void* buf, MPI_Count count, MPI_Datatype type, int dest, int sendtag,
                     int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  Operation send_op, recv_op;
  Check check(call, comm);
  check_send(check, buf, count, type, dest, sendtag, comm, send_op);
  check_recv(check, buf, count, type, source, recvtag, comm, recv_op).status_out(status);
  if (!check.ok()) return check.raise();
  std::vector<char> outgoing;
  pack_ahead(send_op, outgoing);
  return send_and_receive(call, send_op, recv_op, status);
}

}  // namespace

STRATA_PMPI(Recv)
extern "C" int PMPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                         MPI_Status* status) {
  const runtime::CallScope call_scope;
  return blocking_recv("MPI_Recv", buf, count, type, source, tag, comm, status);
}

STRATA_PMPI(Recv_c)
extern "C" int PMPI_Recv_c(void* buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                           MPI_Status* status) {
  const runtime::CallScope call_scope;
  return blocking_recv("MPI_Recv_c", buf, count, type, source, tag, comm, status);
}

STRATA_PMPI(Irecv)
extern "C" int PMPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                          MPI_Request* request) {
  const runtime::CallScope call_scope;
  return make_recv("MPI_Irecv", buf, count, type, source, tag, comm, request, false);
}

STRATA_PMPI(Irecv_c)
extern "C" int PMPI_Irecv_c(void* buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                            MPI_Request* request) {
  const runtime::CallScope call_scope;
  return make_recv("MPI_Irecv_c", buf, count, type, source, tag, comm, request, false);
}

STRATA_PMPI(Recv_init)
extern "C" int PMPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                              MPI_Request* request) {
  const runtime::CallScope call_scope;
  return make_recv("MPI_Recv_init", buf, count, type, source, tag, comm, request, true);
}

STRATA_PMPI(Recv_init_c)
extern "C" int PMPI_Recv_init_c(void* buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                                MPI_Request* request) {
  const runtime::CallScope call_scope;
  return make_recv("MPI_Recv_init_c", buf, count, type, source, tag, comm, request, true);
}

STRATA_PMPI(Sendrecv)
extern "C" int PMPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                             MPI_Comm comm, MPI_Status* status) {
  const runtime::CallScope call_scope;
  return sendrecv("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                  recvtag, comm, status);
}

STRATA_PMPI(Sendrecv_c)
extern "C" int PMPI_Sendrecv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                               int sendtag, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source,
                               int recvtag, MPI_Comm comm, MPI_Status* status) {
  const runtime::CallScope call_scope;
  return sendrecv("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                  recvtag, comm, status);
}

STRATA_PMPI(Sendrecv_replace)
extern "C" int PMPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source,
                                     int recvtag, MPI_Comm comm, MPI_Status* status) {
  const runtime::CallScope call_scope;
  return sendrecv_replace("MPI_Sendrecv_replace", buf, count, type, dest, sendtag, source, recvtag, comm, status);
}

STRATA_PMPI(Sendrecv_replace_c)
extern "C" int PMPI_Sendrecv_replace_c(void* buf, MPI_Count count, MPI_Datatype type, int dest, int sendtag,
                                       int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  const runtime::CallScope call_scope;
  return sendrecv_replace("MPI_Sendrecv_replace_c", buf, count, type, dest, sendtag, source, recvtag, comm, status);
}
