// Probe and matched probe (MPI-4.0 sections 3.8.1-3.8.3); MPI_Mrecv_c and MPI_Imrecv_c (MPI-4.0 2.5.8) share the
// matched receives' code with MPI_Count counts.
#include "api/p2p.hpp"
#include "runtime/progress.hpp"

using namespace strata;
using namespace strata::api;

namespace {

Check& check_probe(Check& check, int source, int tag, MPI_Comm comm, comm::Communicator*& c) {
  check.comm(comm, c);
  if (check.ok()) check.source(source, *c).recv_tag(tag);
  return check;
}

transport::Envelope envelope(const comm::Communicator& c, int source, int tag) { return {c.context, source, tag}; }

// Takes the earliest matching message into a message handle; false if none has arrived.
bool take(const comm::Communicator& c, int source, int tag, MPI_Message* message, MPI_Status* status) {
  transport::RecvStatus s;
  auto m = transport::engine().take_message(envelope(c, source, tag), s);
  if (!m) return false;
  *message = messages().add(new transport::Unexpected(std::move(*m)));
  write_status(s, status);
  return true;
}

}  // namespace

STRATA_PMPI(Iprobe)
extern "C" int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Iprobe", comm);
  check_probe(check, source, tag, comm, c).not_null(flag, "flag").status_out(status);
  if (!check.ok()) return check.raise();
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    write_proc_null_status(status);
    return MPI_SUCCESS;
  }
  const bool moved = runtime::test_pass();
  transport::RecvStatus s;
  *flag = transport::engine().probe(envelope(*c, source, tag), s);
  if (*flag) write_status(s, status);
  runtime::polled(moved || *flag);
  return MPI_SUCCESS;
}

STRATA_PMPI(Probe)
extern "C" int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Probe", comm);
  if (!check_probe(check, source, tag, comm, c).status_out(status).ok()) return check.raise();
  if (source == MPI_PROC_NULL) {
    write_proc_null_status(status);
    return MPI_SUCCESS;
  }
  transport::RecvStatus s;
  runtime::wait_until([&] { return transport::engine().probe(envelope(*c, source, tag), s); });
  write_status(s, status);
  return MPI_SUCCESS;
}

STRATA_PMPI(Improbe)
extern "C" int PMPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
                            MPI_Status* status) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Improbe", comm);
  check_probe(check, source, tag, comm, c).not_null(flag, "flag").not_null(message, "message").status_out(status);
  if (!check.ok()) return check.raise();
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    *message = MPI_MESSAGE_NO_PROC;
    write_proc_null_status(status);
    return MPI_SUCCESS;
  }
  const bool moved = runtime::test_pass();
  *flag = take(*c, source, tag, message, status);
  runtime::polled(moved || *flag);
  return MPI_SUCCESS;
}

STRATA_PMPI(Mprobe)
extern "C" int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Mprobe", comm);
  check_probe(check, source, tag, comm, c).not_null(message, "message").status_out(status);
  if (!check.ok()) return check.raise();
  if (source == MPI_PROC_NULL) {
    *message = MPI_MESSAGE_NO_PROC;
    write_proc_null_status(status);
    return MPI_SUCCESS;
  }
  runtime::wait_until([&] { return take(*c, source, tag, message, status); });
  return MPI_SUCCESS;
}

namespace {

// Starts receiving a matched message into `r`; the message handle is consumed (MPI_MESSAGE_NULL). `status`, where
// MPI_Mrecv will write one, is checked with the rest before anything happens.
int start_matched(const char* call, void* buf, MPI_Count count, MPI_Datatype type, MPI_Message* message,
                  ApiRequest& r, const MPI_Status* status = MPI_STATUS_IGNORE) {
  Check check(call);
  datatype::TypeRef t;
  check.not_null(message, "message").count(count).type(type, t).committed(type).buffer(buf, count, t.get());
  check.status_out(status);
  transport::Unexpected* m = nullptr;
  if (check.ok() && *message != MPI_MESSAGE_NO_PROC && (m = messages().get(*message)) == nullptr)
    check.fail(MPI_ERR_REQUEST, "invalid message handle " + std::to_string(*message));
  if (!check.ok()) return check.raise();
  r.buf = buf;
  r.count = static_cast<std::size_t>(count);
  r.type = t;
  r.kind = transport::RequestKind::Recv;
  r.comm = MPI_COMM_WORLD;
  r.active = true;
  if (m == nullptr) {  // MPI_MESSAGE_NO_PROC: a receive from MPI_PROC_NULL
    r.proc_null = true;
    r.status = {MPI_PROC_NULL, MPI_ANY_TAG, 0, 0, false};
    r.complete = true;
  } else {
    transport::engine().receive_message(&r, *m);
    messages().remove(*message);
    delete m;
  }
  *message = MPI_MESSAGE_NULL;
  return MPI_SUCCESS;
}

int matched_recv(const char* call, void* buf, MPI_Count count, MPI_Datatype type, MPI_Message* message,
                 MPI_Status* status) {
  ApiRequest r;
  if (int rc = start_matched(call, buf, count, type, message, r, status); rc != MPI_SUCCESS) return rc;
  wait(r);
  write_status(r, status);
  return request_error(call, r);
}

int matched_irecv(const char* call, void* buf, MPI_Count count, MPI_Datatype type, MPI_Message* message,
                  MPI_Request* request) {
  if (request == nullptr) return raise(call, MPI_COMM_SELF, MPI_ERR_ARG, "request is NULL");
  auto* r = new ApiRequest;
  if (int rc = start_matched(call, buf, count, type, message, *r); rc != MPI_SUCCESS) {
    delete r;
    return rc;
  }
  *request = add_request(r);
  return MPI_SUCCESS;
}

}  // namespace

STRATA_PMPI(Mrecv)
extern "C" int PMPI_Mrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status) {
  const runtime::CallScope call_scope;
  return matched_recv("MPI_Mrecv", buf, count, type, message, status);
}

STRATA_PMPI(Mrecv_c)
extern "C" int PMPI_Mrecv_c(void* buf, MPI_Count count, MPI_Datatype type, MPI_Message* message, MPI_Status* status) {
  const runtime::CallScope call_scope;
  return matched_recv("MPI_Mrecv_c", buf, count, type, message, status);
}

STRATA_PMPI(Imrecv)
extern "C" int PMPI_Imrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return matched_irecv("MPI_Imrecv", buf, count, type, message, request);
}

STRATA_PMPI(Imrecv_c)
extern "C" int PMPI_Imrecv_c(void* buf, MPI_Count count, MPI_Datatype type, MPI_Message* message,
                             MPI_Request* request) {
  const runtime::CallScope call_scope;
  return matched_irecv("MPI_Imrecv_c", buf, count, type, message, request);
}
