#include "coll/call_check.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "datatype/predefined.hpp"
#include "datatype/signature_hash.hpp"

namespace strata::coll {
namespace {

// The tags of the record's allgather (Bruck: one per step, at most 31); the algorithm's come after them.
constexpr int kCheckTags = 32;

// What one rank sends to, or expects from, one other rank. All zero: nothing.
struct Side {
  uint64_t hash = 0, length = 0, bytes = 0, packed = 0;
};

struct Header {
  int32_t operation, root, op;  // root -1 for unrooted operations; op: its kind, -1 for none
};

// A record: the header, then per peer j what this rank sends j, then per peer i what it expects from i.
std::size_t record_bytes(int size) { return sizeof(Header) + 2 * sizeof(Side) * static_cast<std::size_t>(size); }

Side side(std::size_t count, const datatype::TypeRef& type) {
  if (!type || count == 0 || type->size == 0) return {};
  const datatype::SignatureHash h = datatype::signature_hash(*type, count);
  return {h.hash, h.length, count * type->size, h.packed ? 1u : 0u};
}

std::size_t count_at(const std::vector<int>& counts, int i) {
  return i < static_cast<int>(counts.size()) ? static_cast<std::size_t>(counts[i]) : 0;
}

// Fills sends[j] and recvs[i] from the standard's description of each operation (MPI-4.0 6.4 - 6.11). Pairs of a
// rank with itself stay empty: they never cross the network.
void describe(Operation op, const Args& a, std::vector<Side>& sends, std::vector<Side>& recvs) {
  const int me = a.rank, p = a.size;
  const bool at_root = me == a.root;
  auto each_peer = [&](auto&& f) {
    for (int j = 0; j < p; ++j)
      if (j != me) f(j);
  };
  const Side block_in = side(a.recvcount, a.recvtype);
  const Side block_out = a.in_place ? block_in : side(a.sendcount, a.sendtype);
  switch (op) {
    case Operation::kBarrier:
      break;
    case Operation::kBcast:
      if (at_root) each_peer([&](int j) { sends[j] = block_in; });
      else recvs[a.root] = block_in;
      break;
    case Operation::kGather: case Operation::kGatherv:
      if (!at_root) sends[a.root] = side(a.sendcount, a.sendtype);
      else each_peer([&](int i) {
        recvs[i] = side(op == Operation::kGather ? a.recvcount : count_at(a.recvcounts, i), a.recvtype);
      });
      break;
    case Operation::kScatter: case Operation::kScatterv:
      if (!at_root) recvs[a.root] = block_in;
      else each_peer([&](int j) {
        sends[j] = side(op == Operation::kScatter ? a.sendcount : count_at(a.sendcounts, j), a.sendtype);
      });
      break;
    case Operation::kAllgather: case Operation::kAlltoall:
      each_peer([&](int j) { sends[j] = block_out; recvs[j] = block_in; });
      break;
    case Operation::kAllgatherv: {
      const Side out = a.in_place ? side(count_at(a.recvcounts, me), a.recvtype) : side(a.sendcount, a.sendtype);
      each_peer([&](int j) { sends[j] = out; recvs[j] = side(count_at(a.recvcounts, j), a.recvtype); });
      break;
    }
    case Operation::kAlltoallv:
      each_peer([&](int j) {
        recvs[j] = side(count_at(a.recvcounts, j), a.recvtype);
        sends[j] = a.in_place ? recvs[j] : side(count_at(a.sendcounts, j), a.sendtype);
      });
      break;
    case Operation::kAlltoallw:
      each_peer([&](int j) {
        const bool from_recv = a.in_place || j >= static_cast<int>(a.sendtypes.size());
        sends[j] = from_recv ? side(count_at(a.recvcounts, j), a.recvtypes[j])
                             : side(count_at(a.sendcounts, j), a.sendtypes[j]);
        recvs[j] = side(count_at(a.recvcounts, j), a.recvtypes[j]);
      });
      break;
    case Operation::kReduce:
      if (!at_root) sends[a.root] = side(a.sendcount, a.sendtype);
      else each_peer([&](int i) { recvs[i] = side(a.recvcount, a.recvtype); });
      break;
    case Operation::kAllreduce: case Operation::kScan: case Operation::kExscan:
      each_peer([&](int j) { sends[j] = recvs[j] = side(a.recvcount, a.recvtype); });
      break;
    case Operation::kReduceScatterBlock:  // block j of everyone's input goes to j
      each_peer([&](int j) { sends[j] = recvs[j] = side(a.recvcount, a.recvtype); });
      break;
    case Operation::kReduceScatter:
      each_peer([&](int j) {
        sends[j] = side(count_at(a.recvcounts, j), a.recvtype);
        recvs[j] = side(count_at(a.recvcounts, me), a.recvtype);
      });
      break;
    default:  // the neighbourhood collectives are not checked (collective.cpp)
      break;
  }
}

std::string op_description(int kind) {
  if (kind < 0) return "no operator";
  const datatype::Op* op = datatype::predefined_op(kind);
  return op ? datatype::op_name(*op) : "a user-defined operator";
}

std::string rank_name(int r) { return "rank " + std::to_string(r); }

std::string amount(const Side& s) {
  return std::to_string(s.bytes) + " bytes (" + std::to_string(s.length) + " basic elements)";
}

}  // namespace

bool call_check_enabled() {
  static const bool enabled = [] {
    const char* value = std::getenv("STRATA_CHECK_COLL");
    return value != nullptr && *value != '\0' && std::strcmp(value, "0") != 0;
  }();
  return enabled;
}

CallCheck::CallCheck(Operation op, const Args& args)
    : rank_(args.rank), size_(args.size), mine_(record_bytes(args.size)),
      all_(record_bytes(args.size) * static_cast<std::size_t>(args.size)) {
  const Header h{static_cast<int32_t>(op), rooted(op) ? args.root : -1, args.op ? args.op->kind : -1};
  std::vector<Side> sends(static_cast<std::size_t>(size_)), recvs(static_cast<std::size_t>(size_));
  describe(op, args, sends, recvs);
  char* at = mine_.data();
  std::memcpy(at, &h, sizeof h);
  std::memcpy(at + sizeof h, sends.data(), sends.size() * sizeof(Side));
  std::memcpy(at + sizeof h + sends.size() * sizeof(Side), recvs.data(), recvs.size() * sizeof(Side));
}

VertexId CallCheck::build(Schedule& s) {
  Args gather;
  gather.rank = rank_;
  gather.size = size_;
  gather.sendbuf = mine_.data();
  gather.recvbuf = all_.data();
  gather.sendcount = gather.recvcount = mine_.size();
  gather.sendtype = gather.recvtype = datatype::predefined(datatype::kByte);
  Schedule exchange;
  find_algorithm(Operation::kAllgather, "bruck")->build(gather, exchange);
  const VertexId gathered = s.append(exchange, {}, 0);
  return s.callback([this] { return verify(); }, {gathered});
}

int CallCheck::tag_count() { return kCheckTags; }

Status CallCheck::verify() const {
  const std::size_t bytes = record_bytes(size_);
  auto header = [&](int r) {
    Header h;
    std::memcpy(&h, all_.data() + bytes * static_cast<std::size_t>(r), sizeof h);
    return h;
  };
  auto side_of = [&](int r, bool send, int peer) {
    Side s;
    const std::size_t slot = static_cast<std::size_t>(send ? peer : size_ + peer);
    const std::size_t at = bytes * static_cast<std::size_t>(r) + sizeof(Header) + sizeof(Side) * slot;
    std::memcpy(&s, all_.data() + at, sizeof s);
    return s;
  };
  const std::string prefix = "collective calls do not match (STRATA_CHECK_COLL): ";
  const Header first = header(0);
  for (int r = 1; r < size_; ++r) {
    const Header h = header(r);
    if (h.operation != first.operation)
      return error(kErrOther, prefix + rank_name(r) + " called " + operation_name(Operation{h.operation}) +
                                  " where rank 0 called " + operation_name(Operation{first.operation}));
    if (h.root != first.root)
      return error(kErrRoot, prefix + rank_name(r) + " gave root " + std::to_string(h.root) +
                                 " where rank 0 gave root " + std::to_string(first.root));
    if (h.op != first.op)
      return error(kErrOp, prefix + rank_name(r) + " gave " + op_description(h.op) + " where rank 0 gave " +
                               op_description(first.op));
  }
  for (int i = 0; i < size_; ++i) {
    for (int j = 0; j < size_; ++j) {
      const Side sent = side_of(i, true, j), expected = side_of(j, false, i);
      const bool same = sent.packed || expected.packed ? sent.bytes == expected.bytes
                                                       : sent.hash == expected.hash && sent.length == expected.length;
      if (same) continue;
      const std::string pair = rank_name(i) + " sends " + rank_name(j) + " ";
      if (sent.bytes != expected.bytes)
        return error(kErrCount, prefix + pair + amount(sent) + ", but " + rank_name(j) + " expects " +
                                    amount(expected) + " from it (counts or datatypes differ)");
      return error(kErrType, prefix + pair + amount(sent) + " whose type signature differs from the one " +
                                 rank_name(j) + " expects (datatypes differ)");
    }
  }
  return Status::success();
}

}  // namespace strata::coll
