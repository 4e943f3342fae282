// One libfabric RDM endpoint: `tcp;ofi_rxm` between nodes, `shm` between ranks of a node without rings (override with
// STRATA_SHM_PROVIDER / STRATA_NET_PROVIDER). Two uses:
//  - messages (FI_MSG): a header and an eager payload, copied into a bounce buffer and landing in one of the
//    receive buffers we keep posted. The provider must keep send-after-send order (FI_ORDER_SAS); the engine also
//    numbers them per peer, so order holds whatever the provider does.
//  - rendezvous data (FI_TAGGED): each transfer gets a tag of its own that the receiver chose, so no wildcard
//    matching is ever asked of the provider; MPI matching stays in the engine.
#pragma once
#include <rdma/fabric.h>
#include <rdma/fi_domain.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/status.hpp"
#include "transport/request.hpp"
#include "transport/wire.hpp"

namespace strata::transport {

// One message: header + payload stay within ofi_rxm's 16 KiB eager buffer (with room for its own header), so rxm
// never starts a rendezvous of its own under ours.
constexpr std::size_t kFabricMessagePayload = 16 * 1024 - 256;
// An eager send between fabric peers: up to this many bytes go as consecutive messages (wire.hpp: More).
constexpr std::size_t kFabricEagerLimit = 64 * 1024;
// Flow control: how many messages a rank may have sent a fabric peer beyond those the peer has taken from its
// provider (engine.hpp). ofi_rxm keeps each message that finds none of our receive buffers posted in a 16 KiB buffer
// of its own, from a pool that grows by 16 MiB at a time and never shrinks: a sender faster than its receiver made
// the receiver's memory grow by 16 KiB per 8-byte message, and its page faults slow it down further.
constexpr uint32_t kFabricCredits = 64;

// What the endpoint reports back to the engine.
class FabricSink {
 public:
  virtual void on_message(const Header& h, const char* payload, std::size_t len) = 0;
  virtual void on_data_done(Request* r) = 0;  // one rendezvous chunk of r finished
  virtual ~FabricSink() = default;
};

class FabricEndpoint {
 public:
  // `local_name`: for the shm provider, the /dev/shm name of our region (job-unique; by default libfabric uses
  // the pid, which a stale region of a killed process from an earlier job may still hold).
  Status open(const std::string& provider, const std::string& local_name = {});
  void close();
  bool is_open() const { return ep_ != nullptr; }
  const std::string& provider() const { return provider_; }

  std::vector<char> address() const;
  fi_addr_t insert(const std::vector<char>& address);

  // false: no resources right now, try again after progress.
  bool send_message(fi_addr_t dest, const Header& h, const void* payload, std::size_t len);
  bool send_data(fi_addr_t dest, const void* buf, std::size_t len, uint64_t tag, Request* r);
  bool recv_data(void* buf, std::size_t len, uint64_t tag, Request* r);

  bool poll(FabricSink& sink);
  std::size_t in_flight() const { return in_flight_; }
  std::size_t max_chunk() const { return max_msg_size_; }

 private:
  struct Op;
  Status post_receive_buffer(Op* op);
  Op* bounce();
  void report_cq_error(const char* where);

  std::string provider_;
  fi_info* info_ = nullptr;
  fid_fabric* fabric_ = nullptr;
  fid_domain* domain_ = nullptr;
  fid_av* av_ = nullptr;
  fid_cq* cq_ = nullptr;
  fid_ep* ep_ = nullptr;
  std::size_t inject_size_ = 0;
  std::size_t max_msg_size_ = 0;
  std::size_t in_flight_ = 0;  // sends and data operations not yet completed
  std::vector<Op*> receive_buffers_;
  std::vector<Op*> free_bounces_;
  std::vector<Op*> all_bounces_;
};

}  // namespace strata::transport
