#include "api/p2p.hpp"

#include <vector>

#include "datatype/pack.hpp"
#include "runtime/progress.hpp"

namespace strata::api {

static void prepare(ApiRequest& r, const Operation& op, Lifetime lifetime) {
  r.buf = op.buf;
  r.count = static_cast<std::size_t>(op.count);
  r.type = lifetime == Lifetime::kCall ? datatype::borrow(op.type) : datatype_ref(op.type_handle);
  r.context = op.comm->context;
  r.tag = op.tag;
  r.comm = op.handle;
  r.proc_null = op.rank == MPI_PROC_NULL;
  r.complete = true;
}

void prepare_send(ApiRequest& r, const Operation& op, transport::SendMode mode, Lifetime lifetime) {
  prepare(r, op, lifetime);
  r.kind = transport::RequestKind::Send;
  r.rank = op.comm->rank;
  r.peer = r.proc_null ? -1 : op.comm->peer_world_rank(op.rank);
  r.mode = mode;
}

void prepare_recv(ApiRequest& r, const Operation& op, Lifetime lifetime) {
  prepare(r, op, lifetime);
  r.kind = transport::RequestKind::Recv;
  r.rank = op.rank;
}

void start(ApiRequest& r) {
  r.active = true;
  if (r.proc_null) {
    r.status = {MPI_PROC_NULL, MPI_ANY_TAG, 0, 0, false};
    r.complete = true;
  } else if (r.kind == transport::RequestKind::Send) {
    transport::engine().start_send(&r);
  } else {
    transport::engine().start_recv(&r);
  }
}

void pack_ahead(Operation& op, std::vector<char>& packed) {
  const auto count = static_cast<std::size_t>(op.count);
  packed.resize(datatype::wire_bytes(*op.type, count));
  if (!packed.empty()) datatype::pack(op.buf, count, *op.type, packed.data());
  op.buf = packed.data();
  op.count = static_cast<MPI_Count>(packed.size());
  op.type_handle = MPI_BYTE;
  op.type = datatype_of(MPI_BYTE);
}

void wait(ApiRequest& r) {
  runtime::wait_until([&] { return r.complete; });
}

Check& check_send(Check& check, const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, Operation& op) {
  op = {const_cast<void*>(buf), count, nullptr, type, dest, tag, nullptr, comm};
  check.comm(comm, op.comm).count(count).type(type, op.type).committed(type, op.type).buffer(buf, count, op.type);
  if (check.ok()) check.dest(dest, *op.comm).send_tag(tag);
  return check;
}

Check& check_recv(Check& check, void* buf, MPI_Count count, MPI_Datatype type, int source, int tag,
                  MPI_Comm comm, Operation& op) {
  op = {buf, count, nullptr, type, source, tag, nullptr, comm};
  check.comm(comm, op.comm).count(count).type(type, op.type).committed(type, op.type).buffer(buf, count, op.type);
  if (check.ok()) check.source(source, *op.comm).recv_tag(tag);
  return check;
}

void write_status(const transport::RecvStatus& s, MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = s.source;
  status->MPI_TAG = s.tag;
  status->strata_cancelled = s.cancelled;
  status->strata_bytes = static_cast<MPI_Count>(s.bytes);
}

void write_status(const ApiRequest& r, MPI_Status* status) {
  if (r.collective) {  // MPI-4.0 6.12 leaves source and tag undefined: the empty status, as for a null request
    write_empty_status(status);
    return;
  }
  if (r.kind == transport::RequestKind::Send && !r.proc_null) {  // a send's status says only whether it was cancelled
    write_status(transport::RecvStatus{MPI_ANY_SOURCE, MPI_ANY_TAG, 0, 0, r.status.cancelled}, status);
    return;
  }
  write_status(r.status, status);
}

void write_empty_status(MPI_Status* status) {
  write_status(transport::RecvStatus{MPI_ANY_SOURCE, MPI_ANY_TAG, 0, 0, false}, status);
  // The empty status names its error too (MPI-4.0 3.7.3), where a completed request's leaves the field alone.
  if (status != MPI_STATUS_IGNORE) status->MPI_ERROR = MPI_SUCCESS;
}

void write_proc_null_status(MPI_Status* status) {
  write_status(transport::RecvStatus{MPI_PROC_NULL, MPI_ANY_TAG, 0, 0, false}, status);
}

int request_error(const char* call, const ApiRequest& r) {
  if (r.status.error == 0) return MPI_SUCCESS;
  if (r.added_code != 0) return invoke_errhandler(r.comm, r.added_code);
  std::string what = r.status.error == MPI_ERR_TRUNCATE
                         ? "message from rank " + std::to_string(r.status.source) + " with tag " +
                               std::to_string(r.status.tag) + " truncated to the receive buffer's " +
                               std::to_string(r.status.bytes) + " bytes"
                         : r.failure.empty() ? "request failed" : r.failure;
  return raise(call, r.comm, r.status.error, what);
}

MPI_Request add_request(ApiRequest* r) { return requests().add(r); }

}  // namespace strata::api
