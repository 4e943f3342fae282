// A point-to-point request. The api/ layer hands out handles to these; the engine completes them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "datatype/datatype.hpp"

namespace strata::transport {

enum class RequestKind : uint8_t { Send, Recv };
enum class SendMode : uint8_t { Standard, Synchronous, Ready };

struct RecvStatus {
  int source = 0;
  int tag = 0;
  int error = 0;  // an MPI error class (MPI_ERR_TRUNCATE); 0 when fine
  std::size_t bytes = 0;
  bool cancelled = false;
};

// Layers above may extend a request (api/ adds its handle data); the engine deletes a freed one when it completes.
struct Request {
  virtual ~Request() = default;
  RequestKind kind = RequestKind::Send;
  bool complete = false;    // operation finished; for a persistent request: inactive
  bool persistent = false;
  bool freed = false;       // the user freed it while active: release on completion
  RecvStatus status;
  void* owner = nullptr;    // the communicator (opaque here), for error handlers

  // Buffer: `count` elements of `type` at `buf` (recv: capacity).
  void* buf = nullptr;
  std::size_t count = 0;
  datatype::TypeRef type;  // held: the user may free the type while the request is pending

  // Envelope. Send: `peer` is the destination's world rank, `rank` our rank in the communicator.
  // Recv: `rank` is the source in the communicator (or kAnySource).
  uint32_t context = 0;
  int tag = 0;
  int rank = 0;
  int peer = 0;
  SendMode mode = SendMode::Standard;

  // In flight
  std::vector<char> staging;  // packed bytes when the type is not contiguous
  int pending_chunks = 0;     // rendezvous data pieces not yet completed
  bool cancel_asked = false;  // a send: Cancel went to the receiver, whose CancelReply is due
};

}  // namespace strata::transport
