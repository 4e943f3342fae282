// What the point-to-point entry points share: building, starting and finishing requests, and MPI_Status.
#pragma once
#include <vector>

#include "api/check.hpp"
#include "transport/engine.hpp"

namespace strata::api {

struct Operation {  // the validated arguments of one send or receive
  void* buf;
  MPI_Count count;  // the _c calls' (MPI-4.0 2.5.8); the int calls' widen to it
  const datatype::Datatype* type;  // the handle's: valid during the call
  MPI_Datatype type_handle;
  int rank;  // destination or source, in the communicator
  int tag;
  comm::Communicator* comm;
  MPI_Comm handle;
};

// Packs op's data into `packed` and makes op send that instead, as bytes: the *_replace calls pack before they
// receive, so the incoming message may overwrite the buffer.
void pack_ahead(Operation& op, std::vector<char>& packed);

// Whether a request ends with its call (blocking: it borrows op's type, datatype::borrow) or outlives it
// (nonblocking, persistent, the parts of MPI_Isendrecv: it holds a reference, since the user may free the type
// meanwhile, MPI-4.0 5.1.10).
enum class Lifetime : bool { kCall, kHandle };
void prepare_send(ApiRequest& r, const Operation& op, transport::SendMode mode, Lifetime lifetime);
void prepare_recv(ApiRequest& r, const Operation& op, Lifetime lifetime);
void start(ApiRequest& r);  // MPI_PROC_NULL completes at once
// A buffered send (bsend.cpp): the message packed into the attached buffer and sent from there; `r` completes at
// once. False if the buffer lacks room: `r` then stays inactive, with MPI_ERR_BUFFER and the reason in its status
// for the caller to raise (request_error), since the call itself reports it (see bsend.cpp).
bool start_buffered(ApiRequest& r);
void finish_buffered_sends();  // waits until every buffered message has gone (detach, MPI_Finalize)
void wait(ApiRequest& r);

// Validates a send's or a receive's arguments; `op` is filled when the check passes.
Check& check_send(Check& check, const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, Operation& op);
Check& check_recv(Check& check, void* buf, MPI_Count count, MPI_Datatype type, int source, int tag,
                  MPI_Comm comm, Operation& op);

// Status of a completed request, or the standard's empty status (MPI-4.0 section 3.7.3).
void write_status(const ApiRequest& r, MPI_Status* status);
void write_status(const transport::RecvStatus& s, MPI_Status* status);
void write_empty_status(MPI_Status* status);
void write_proc_null_status(MPI_Status* status);

// The error (if any) of a completed request, raised on its communicator.
int request_error(const char* call, const ApiRequest& r);

// Registers a heap request and returns its handle.
MPI_Request add_request(ApiRequest* r);

}  // namespace strata::api
