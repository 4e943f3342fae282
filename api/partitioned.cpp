// Partitioned communication (MPI-4.0 chapter 4): MPI_Psend_init, MPI_Precv_init, MPI_Pready(_range, _list) and
// MPI_Parrived. MPI_Start, the waits and tests and MPI_Request_free take these requests like other persistent ones
// (requests.cpp).
//
// The protocol runs on the communicator's partitioned context (comm/communicator.hpp), where no user message goes:
// - Matching. MPI_Psend_init sends a hello tagged with the user's tag: the sender's partition count, bytes per
//   partition and first data tag. MPI_Precv_init posts the receive for it. Both stay local, and the transport's
//   non-overtaking order pairs the k-th send init with the k-th receive init of one source, tag and communicator:
//   the order MPI-4.0 4.2.2 demands, whatever order the requests are started in later.
// - Data. Each partition marked ready goes as a message of its own, with one of the sender's data tags: negative
//   (user tags are not), from a counter on the communicator, so two partitioned sends of one process never share
//   one. The receiver posts one receive per send partition at MPI_Start (or once the hello is in): straight into the
//   user's buffer when its type is contiguous, else into a staging buffer each partition is unpacked from as it
//   lands. The sides may cut the message differently: a receive partition has arrived once every send partition
//   overlapping its bytes has.
// A hello still travelling when its request is freed (one never started) goes on alone; the transport deletes it.
#include "api/partitioned.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <span>

#include "api/check.hpp"
#include "api/derived_requests.hpp"
#include "datatype/pack.hpp"
#include "runtime/progress.hpp"

using namespace strata;
using namespace strata::api;
using transport::RequestKind;

namespace strata::api {

struct Hello {  // the sender's cut of the message
  uint64_t partition_bytes;
  int32_t partitions;
  uint32_t first_tag;
};

struct HelloMessage : transport::Request {
  Hello hello{};
};

struct Partitioned {
  bool send = false;
  char* buf = nullptr;
  int partitions = 0;     // this side's cut
  std::size_t count = 0;  // elements per partition
  datatype::TypeRef type;
  int tag = 0;
  int peer = 0;  // the other side's rank in the communicator
  int peer_world = 0;
  int rank = 0;  // ours
  uint32_t context = 0;
  HelloMessage* hello = nullptr;  // while it travels; handed to the transport if the request goes first
  Hello cut{};                    // the sender's cut (a receive knows it once the hello is in)
  bool laid_out = false;          // `data` is built
  // One transport request per send partition, built once: the transport holds their addresses while they travel.
  std::vector<transport::Request> data;
  std::vector<char> done;      // per send partition: marked ready (send) or landed (receive) this round
  std::vector<int> in_flight;  // partitions posted and not yet seen complete
  int marked = 0;              // send: partitions marked ready this round
  bool posted = false;         // receive: this round's receives are posted
  std::vector<char> staging;   // receive: the packed message, when the type is not contiguous or it overflows
  std::size_t capacity = 0;    // receive: packed bytes the buffer holds

  std::size_t partition_bytes() const { return count * type->size; }
  std::size_t message_bytes() const { return cut.partition_bytes * static_cast<std::size_t>(cut.partitions); }
  Partitioned() = default;
  Partitioned(const Partitioned&) = delete;  // owns `hello`
  Partitioned& operator=(const Partitioned&) = delete;
  ~Partitioned();
};

Partitioned::~Partitioned() {
  if (hello == nullptr) return;
  if (hello->complete)
    delete hello;
  else
    hello->freed = true;
}

}  // namespace strata::api

namespace {

constexpr uint32_t kDataTags = 0x7ffffffeu;  // tags -2 .. INT_MIN + 1: neither a user tag nor MPI_ANY_TAG (-1)
int data_tag(uint32_t first, int partition) {
  return -2 - static_cast<int>((first + static_cast<uint32_t>(partition)) % kDataTags);
}

void envelope(transport::Request& m, RequestKind kind, const Partitioned& p, void* buf, std::size_t count,
              datatype::TypeRef type, int tag) {
  m.kind = kind;
  m.buf = buf;
  m.count = count;
  m.type = std::move(type);
  m.context = p.context;
  m.tag = tag;
  m.rank = kind == RequestKind::Send ? p.rank : p.peer;
  m.peer = p.peer_world;
}

// The receive side learns the sender's cut and builds a receive per send partition.
bool lay_out_receives(Partitioned& p) {
  if (p.laid_out) return true;
  if (!p.hello->complete) return false;
  p.cut = p.hello->hello;
  delete p.hello;
  p.hello = nullptr;
  p.capacity = p.partition_bytes() * static_cast<std::size_t>(p.partitions);
  const bool direct = datatype::contiguous(*p.type, p.count * p.partitions) && p.message_bytes() <= p.capacity;
  char* base = direct ? p.buf + p.type->true_lb : nullptr;
  if (!direct) {
    p.staging.resize(p.message_bytes());
    base = p.staging.data();
  }
  p.data.resize(p.cut.partitions);
  p.done.assign(p.data.size(), 0);
  for (int k = 0; k < p.cut.partitions; ++k)
    envelope(p.data[k], RequestKind::Recv, p, base + k * p.cut.partition_bytes, p.cut.partition_bytes,
             datatype_ref(MPI_BYTE), data_tag(p.cut.first_tag, k));
  p.laid_out = true;
  return true;
}

// A landed send partition of a staged receive goes to the user's buffer, as far as it holds it.
void unpack_landed(Partitioned& p, int k) {
  const std::size_t from = k * p.cut.partition_bytes;
  if (p.staging.empty() || from >= p.capacity) return;
  const std::size_t len = std::min<std::size_t>(p.cut.partition_bytes, p.capacity - from);
  datatype::unpack_range(p.staging.data() + from, p.count * p.partitions, *p.type, from, len, p.buf);
}

void collect_landed(Partitioned& p) {
  std::erase_if(p.in_flight, [&](int k) {
    if (!p.data[k].complete) return false;
    if (!p.send) {
      p.done[k] = 1;
      unpack_landed(p, k);
    }
    return true;
  });
}

bool finish_send(ApiRequest& r) {
  Partitioned& p = *r.partitioned;
  collect_landed(p);
  if (p.hello != nullptr && p.hello->complete) {
    delete p.hello;
    p.hello = nullptr;
  }
  return p.marked == p.partitions && p.in_flight.empty() && p.hello == nullptr;
}

bool finish_recv(ApiRequest& r) {
  Partitioned& p = *r.partitioned;
  if (!lay_out_receives(p)) return false;
  if (!p.posted) {
    for (int k = 0; k < p.cut.partitions; ++k) {
      transport::engine().start_recv(&p.data[k]);
      p.in_flight.push_back(k);
    }
    p.posted = true;
  }
  collect_landed(p);
  if (!p.in_flight.empty()) return false;
  const bool truncated = p.message_bytes() > p.capacity;
  r.status = {p.peer, p.tag, truncated ? MPI_ERR_TRUNCATE : 0, std::min(p.message_bytes(), p.capacity), false};
  return true;
}

int partitioned_init(const char* call, bool send, const void* buf, int partitions, MPI_Count count,
                     MPI_Datatype type, int rank, int tag, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  Check check(call, comm);
  comm::Communicator* c = nullptr;
  const datatype::Datatype* t = nullptr;
  runtime::Info* hints = nullptr;
  check.comm(comm, c).count(count).type(type, t).committed(type, t);
  if (check.ok() && partitions < 0) check.fail(MPI_ERR_ARG, "negative partitions " + std::to_string(partitions));
  if (check.ok() && partitions > 0 && count > std::numeric_limits<MPI_Count>::max() / partitions)
    check.fail(MPI_ERR_COUNT, std::to_string(partitions) + " partitions of " + std::to_string(count) +
                                  " elements exceed MPI_Count");
  if (check.ok()) check.buffer(buf, count * partitions, t);
  if (check.ok() && send) check.dest(rank, *c).send_tag(tag);
  if (check.ok() && !send) check.source(rank, *c).recv_tag(tag);
  if (check.ok() && rank == MPI_ANY_SOURCE)
    check.fail(MPI_ERR_RANK, "source MPI_ANY_SOURCE: a partitioned receive names its source");
  if (check.ok() && tag == MPI_ANY_TAG) check.fail(MPI_ERR_TAG, "tag MPI_ANY_TAG: a partitioned receive names its tag");
  check.info(info, hints, true).not_null(request, "request");
  if (!check.ok()) return check.raise();

  auto* r = new ApiRequest;
  r->kind = send ? RequestKind::Send : RequestKind::Recv;
  r->persistent = true;
  r->complete = true;
  r->comm = comm;
  r->proc_null = rank == MPI_PROC_NULL;
  auto p = std::make_shared<Partitioned>();
  p->send = send;
  p->buf = static_cast<char*>(const_cast<void*>(buf));
  p->partitions = partitions;
  p->count = static_cast<std::size_t>(count);
  p->type = datatype_ref(type);
  p->tag = tag;
  p->peer = rank;
  p->rank = c->rank;
  p->context = c->partitioned_context();
  if (send) p->done.assign(partitions, 0);
  if (!r->proc_null) {
    p->peer_world = c->peer_world_rank(rank);
    p->hello = new HelloMessage;
    envelope(*p->hello, r->kind, *p, &p->hello->hello, sizeof(Hello), datatype_ref(MPI_BYTE), tag);
    if (send) {
      p->cut = {p->partition_bytes(), partitions, c->partitioned_tags};
      c->partitioned_tags += static_cast<uint32_t>(partitions);
      p->hello->hello = p->cut;
      p->data.resize(partitions);
      const std::ptrdiff_t stride = static_cast<std::ptrdiff_t>(p->count) * t->extent();
      for (int k = 0; k < partitions; ++k)
        envelope(p->data[k], RequestKind::Send, *p, p->buf + k * stride, p->count, p->type,
                 data_tag(p->cut.first_tag, k));
      p->laid_out = true;
      transport::engine().start_send(p->hello);
    } else {
      transport::engine().start_recv(p->hello);
    }
  }
  r->partitioned = std::move(p);
  *request = add_request(r);
  return MPI_SUCCESS;
}

// The partitioned request behind `handle` (a send one or a receive one, as `send` says); nullptr with the check
// failed otherwise.
ApiRequest* partitioned_request(Check& check, MPI_Request handle, bool send) {
  ApiRequest* r = nullptr;
  if (check.request(handle, r).ok() && (!r->partitioned || r->partitioned->send != send))
    check.fail(MPI_ERR_REQUEST, std::string("request is not a partitioned ") + (send ? "send" : "receive"));
  return check.ok() ? r : nullptr;
}

Check& partition_in_range(Check& check, int k, int partitions) {
  if (check.ok() && (k < 0 || k >= partitions))
    check.fail(MPI_ERR_ARG, "partition " + std::to_string(k) + " is not in [0, " + std::to_string(partitions) + ")");
  return check;
}

// MPI_Pready and its range and list forms: every partition is checked before any goes.
int mark_ready(const char* call, MPI_Request handle, std::span<const int> partitions) {
  Check check(call);
  ApiRequest* r = partitioned_request(check, handle, true);
  if (r != nullptr && !r->active) check.fail(MPI_ERR_REQUEST, "request is not active: MPI_Start it first");
  if (!check.ok()) return check.raise();
  Partitioned& p = *r->partitioned;
  std::size_t newly = 0;  // marked by this call so far, undone if a later one is refused
  for (int k : partitions) {
    if (!partition_in_range(check, k, p.partitions).ok()) break;
    if (p.done[k]) {
      check.fail(MPI_ERR_ARG, "partition " + std::to_string(k) + " is already marked ready");
      break;
    }
    p.done[k] = 1;
    ++newly;
  }
  if (!check.ok()) {
    for (std::size_t i = 0; i < newly; ++i) p.done[partitions[i]] = 0;
    return check.raise();
  }
  p.marked += static_cast<int>(partitions.size());
  if (r->proc_null) return MPI_SUCCESS;
  for (int k : partitions) {
    transport::engine().start_send(&p.data[k]);
    p.in_flight.push_back(k);
  }
  return MPI_SUCCESS;
}

// Whether receive partition j has landed: every send partition holding some of its bytes has.
bool arrived(const ApiRequest& r, int j) {
  const Partitioned& p = *r.partitioned;
  if (r.proc_null || r.complete) return true;
  if (!p.laid_out) return false;
  const std::size_t bytes = p.partition_bytes(), from = j * bytes, to = std::min(from + bytes, p.message_bytes());
  if (bytes == 0) return true;
  if (from >= to) return false;  // beyond a short message: known only once it is all in
  const std::size_t step = p.cut.partition_bytes;
  for (std::size_t k = from / step; k * step < to; ++k)
    if (!p.done[k]) return false;
  return true;
}

}  // namespace

namespace strata::api {

void start_partitioned(ApiRequest& r) {
  r.active = true;
  r.complete = false;
  r.status = {};
  Partitioned& p = *r.partitioned;
  std::fill(p.done.begin(), p.done.end(), 0);
  p.marked = 0;
  p.posted = false;
  if (r.proc_null) {
    r.status = {MPI_PROC_NULL, MPI_ANY_TAG, 0, 0, false};
    r.complete = true;
    return;
  }
  complete_when(&r, p.send ? finish_send : finish_recv);
}

}  // namespace strata::api

STRATA_PMPI(Psend_init)
extern "C" int PMPI_Psend_init(const void* buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest,
                               int tag, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return partitioned_init("MPI_Psend_init", true, buf, partitions, count, datatype, dest, tag, comm, info, request);
}

STRATA_PMPI(Precv_init)
extern "C" int PMPI_Precv_init(void* buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source,
                               int tag, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return partitioned_init("MPI_Precv_init", false, buf, partitions, count, datatype, source, tag, comm, info,
                          request);
}

STRATA_PMPI(Pready)
extern "C" int PMPI_Pready(int partition, MPI_Request request) {
  const runtime::CallScope call_scope;
  return mark_ready("MPI_Pready", request, std::span<const int>(&partition, 1));
}

STRATA_PMPI(Pready_range)
extern "C" int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request) {
  Check check("MPI_Pready_range");
  if (partition_low > partition_high)
    return check
        .fail(MPI_ERR_ARG, "partition_low " + std::to_string(partition_low) + " is above partition_high " +
                               std::to_string(partition_high))
        .raise();
  std::vector<int> partitions(static_cast<std::size_t>(partition_high) - partition_low + 1);
  std::iota(partitions.begin(), partitions.end(), partition_low);
  return mark_ready("MPI_Pready_range", request, partitions);
}

STRATA_PMPI(Pready_list)
extern "C" int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request) {
  Check check("MPI_Pready_list");
  if (length < 0) check.fail(MPI_ERR_ARG, "negative length " + std::to_string(length));
  if (length > 0) check.not_null(array_of_partitions, "array_of_partitions");
  if (!check.ok()) return check.raise();
  return mark_ready("MPI_Pready_list", request, std::span<const int>(array_of_partitions, length));
}

STRATA_PMPI(Parrived)
extern "C" int PMPI_Parrived(MPI_Request request, int partition, int* flag) {
  Check check("MPI_Parrived");
  check.not_null(flag, "flag");
  if (!check.ok()) return check.raise();
  const ApiRequest* known = request == MPI_REQUEST_NULL ? nullptr : requests().get(request);
  if (request == MPI_REQUEST_NULL || (known != nullptr && !known->active)) {
    *flag = 1;  // a null or inactive request (MPI-4.1 4.2.3)
    return MPI_SUCCESS;
  }
  ApiRequest* r = partitioned_request(check, request, false);
  if (r != nullptr) partition_in_range(check, partition, r->partitioned->partitions);
  if (!check.ok()) return check.raise();
  *flag = runtime::test_once([&] { return arrived(*r, partition); });
  return MPI_SUCCESS;
}
