#include "transport/fabric.hpp"

#include <rdma/fi_cm.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/copy_bytes.hpp"
#include "transport/fabric_library.hpp"

namespace strata::transport {
namespace {

constexpr int kReceiveBuffers = 64;
constexpr std::size_t kBufferBytes = sizeof(Header) + kFabricMessagePayload;
constexpr std::size_t kInjectStaging = 4096;

// libfabric's real symbols. Every use comes after open() has loaded the library.
const FabricLibrary& lib() { return *fabric_library(nullptr); }

Status fi_error(const std::string& what, int rc) {
  return error(kErrOther, what + " failed: " + lib().strerror(-rc));
}

}  // namespace

// Every operation's context. fi_context2 comes first: providers may use it as scratch.
struct FabricEndpoint::Op {
  enum class Type { ReceiveBuffer, Bounce, Data };
  fi_context2 context;
  Type type;
  Request* request = nullptr;
  std::vector<char> buffer;
};

Status FabricEndpoint::open(const std::string& provider, const std::string& local_name) {
  provider_ = provider;
  // Left unset, ofi_rxm sizes its connections' receive queues so that fi_endpoint allocates and writes through four
  // 17 MB buffer pools per process, not two: a 2-rank job's peak memory 84 MB a rank instead of 33, and 60 ms of
  // each rank's start (a quarter of a 12-rank, 4-node job's CPU time). 32 gave the same ping-pong and 8-rank
  // collective times over tcp here (bench/pingpong.c, bench/coll.c). A user's value wins.
  if (provider == "tcp;ofi_rxm") setenv("FI_OFI_RXM_MSG_RX_SIZE", "32", /*overwrite=*/0);
  std::string why;
  if (fabric_library(&why) == nullptr) return error(kErrOther, "provider " + provider + ": " + why);
  fi_info* hints = lib().dupinfo(nullptr);
  if (provider == "shm" && !local_name.empty()) {
    const std::string address = "fi_shm://" + local_name;
    hints->addr_format = FI_ADDR_STR;
    hints->src_addr = strdup(address.c_str());
    hints->src_addrlen = address.size() + 1;
  }
  hints->caps = FI_MSG | FI_TAGGED;
  hints->mode = FI_CONTEXT | FI_CONTEXT2;
  hints->ep_attr->type = FI_EP_RDM;
  hints->tx_attr->msg_order = FI_ORDER_SAS;
  hints->rx_attr->msg_order = FI_ORDER_SAS;
  hints->domain_attr->threading = FI_THREAD_DOMAIN;
  hints->domain_attr->mr_mode = FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY;
  hints->fabric_attr->prov_name = strdup(provider.c_str());
  int rc = lib().getinfo(FI_VERSION(1, 17), nullptr, nullptr, 0, hints, &info_);
  lib().freeinfo(hints);
  if (rc != 0) return fi_error("fi_getinfo(" + provider + ")", rc);
  inject_size_ = info_->tx_attr->inject_size;
  max_msg_size_ = std::min<std::size_t>(info_->ep_attr->max_msg_size, std::size_t{1} << 30);

  fi_cq_attr cq_attr{};
  cq_attr.format = FI_CQ_FORMAT_TAGGED;
  cq_attr.size = 4096;
  fi_av_attr av_attr{};
  av_attr.type = FI_AV_TABLE;
  if ((rc = lib().fabric(info_->fabric_attr, &fabric_, nullptr))) return fi_error("fi_fabric", rc);
  if ((rc = fi_domain(fabric_, info_, &domain_, nullptr))) return fi_error("fi_domain", rc);
  if ((rc = fi_av_open(domain_, &av_attr, &av_, nullptr))) return fi_error("fi_av_open", rc);
  if ((rc = fi_cq_open(domain_, &cq_attr, &cq_, nullptr))) return fi_error("fi_cq_open", rc);
  if ((rc = fi_endpoint(domain_, info_, &ep_, nullptr))) return fi_error("fi_endpoint", rc);
  if ((rc = fi_ep_bind(ep_, &av_->fid, 0))) return fi_error("fi_ep_bind(av)", rc);
  if ((rc = fi_ep_bind(ep_, &cq_->fid, FI_TRANSMIT | FI_RECV))) return fi_error("fi_ep_bind(cq)", rc);
  if ((rc = fi_enable(ep_))) return fi_error("fi_enable", rc);
  for (int i = 0; i < kReceiveBuffers; ++i) {
    Op* op = new Op{{}, Op::Type::ReceiveBuffer, nullptr, std::vector<char>(kBufferBytes)};
    receive_buffers_.push_back(op);
    if (Status s = post_receive_buffer(op); !s.ok()) return s;
  }
  return {};
}

void FabricEndpoint::close() {
  if (ep_) fi_close(&ep_->fid);
  if (cq_) fi_close(&cq_->fid);
  if (av_) fi_close(&av_->fid);
  if (domain_) fi_close(&domain_->fid);
  if (fabric_) fi_close(&fabric_->fid);
  if (info_) lib().freeinfo(info_);
  ep_ = nullptr, cq_ = nullptr, av_ = nullptr, domain_ = nullptr, fabric_ = nullptr, info_ = nullptr;
  for (Op* op : receive_buffers_) delete op;
  for (Op* op : all_bounces_) delete op;
  receive_buffers_.clear();
  all_bounces_.clear();
  free_bounces_.clear();
}

std::vector<char> FabricEndpoint::address() const {
  std::vector<char> name(256);
  size_t len = name.size();
  if (fi_getname(&ep_->fid, name.data(), &len) == -FI_ETOOSMALL) {
    name.resize(len);
    fi_getname(&ep_->fid, name.data(), &len);
  }
  name.resize(len);
  return name;
}

fi_addr_t FabricEndpoint::insert(const std::vector<char>& address) {
  fi_addr_t addr = FI_ADDR_NOTAVAIL;
  if (fi_av_insert(av_, address.data(), 1, &addr, 0, nullptr) != 1) return FI_ADDR_NOTAVAIL;
  return addr;
}

Status FabricEndpoint::post_receive_buffer(Op* op) {
  ssize_t rc;
  do {
    rc = fi_recv(ep_, op->buffer.data(), op->buffer.size(), nullptr, FI_ADDR_UNSPEC, &op->context);
    if (rc == -FI_EAGAIN) fi_cq_read(cq_, nullptr, 0);  // drive the provider, then retry
  } while (rc == -FI_EAGAIN);
  return rc == 0 ? Status{} : fi_error("fi_recv", static_cast<int>(rc));
}

FabricEndpoint::Op* FabricEndpoint::bounce() {
  if (free_bounces_.empty()) {
    all_bounces_.push_back(new Op{{}, Op::Type::Bounce, nullptr, std::vector<char>(kBufferBytes)});
    return all_bounces_.back();
  }
  Op* op = free_bounces_.back();
  free_bounces_.pop_back();
  return op;
}

bool FabricEndpoint::send_message(fi_addr_t dest, const Header& h, const void* payload, std::size_t len) {
  const std::size_t total = sizeof(Header) + len;
  if (total <= inject_size_ && total <= kInjectStaging) {  // copied by the provider: no completion to wait for
    char staged[kInjectStaging];
    std::memcpy(staged, &h, sizeof h);
    if (len) runtime::copy_bytes(staged + sizeof h, payload, len);
    return fi_inject(ep_, staged, total, dest) == 0;
  }
  Op* op = bounce();
  std::memcpy(op->buffer.data(), &h, sizeof h);
  if (len) runtime::copy_bytes(op->buffer.data() + sizeof h, payload, len);
  if (fi_send(ep_, op->buffer.data(), total, nullptr, dest, &op->context) != 0) {
    free_bounces_.push_back(op);
    return false;
  }
  ++in_flight_;
  return true;
}

bool FabricEndpoint::send_data(fi_addr_t dest, const void* buf, std::size_t len, uint64_t tag, Request* r) {
  Op* op = new Op{{}, Op::Type::Data, r, {}};
  if (fi_tsend(ep_, buf, len, nullptr, dest, tag, &op->context) != 0) {
    delete op;
    return false;
  }
  ++in_flight_;
  return true;
}

bool FabricEndpoint::recv_data(void* buf, std::size_t len, uint64_t tag, Request* r) {
  Op* op = new Op{{}, Op::Type::Data, r, {}};
  if (fi_trecv(ep_, buf, len, nullptr, FI_ADDR_UNSPEC, tag, 0, &op->context) != 0) {
    delete op;
    return false;
  }
  ++in_flight_;
  return true;
}

void FabricEndpoint::report_cq_error(const char* where) {
  fi_cq_err_entry err{};
  fi_cq_readerr(cq_, &err, 0);
  std::fprintf(stderr, "strata: %s: libfabric %s completion error: %s\n", where, provider_.c_str(),
               lib().strerror(err.err));
  std::abort();  // a lost message cannot be recovered; fail loudly rather than hang
}

bool FabricEndpoint::poll(FabricSink& sink) {
  fi_cq_tagged_entry entries[16];
  ssize_t n = fi_cq_read(cq_, entries, 16);
  if (n == -FI_EAGAIN) return false;
  if (n < 0) report_cq_error("poll");
  for (ssize_t i = 0; i < n; ++i) {
    Op* op = reinterpret_cast<Op*>(entries[i].op_context);
    switch (op->type) {
      case Op::Type::ReceiveBuffer: {
        Header h;
        std::memcpy(&h, op->buffer.data(), sizeof h);
        sink.on_message(h, op->buffer.data() + sizeof h, entries[i].len - sizeof h);
        post_receive_buffer(op);
        break;
      }
      case Op::Type::Bounce:
        --in_flight_;
        free_bounces_.push_back(op);
        break;
      case Op::Type::Data:
        --in_flight_;
        sink.on_data_done(op->request);
        delete op;
        break;
    }
  }
  return n > 0;
}

}  // namespace strata::transport
