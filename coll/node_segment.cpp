#include "coll/node_segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iomanip>
#include <sstream>

#include "coll/collective.hpp"
#include "runtime/prefault.hpp"
#include "transport/shm_ring.hpp"

namespace strata::coll {
namespace {

constexpr std::size_t kHeaderBytes = 64;
constexpr std::size_t kPage = 4096;  // payloads start on a page of their own

// A writer's areas (or payloads) before those of `slot`, per member: the rotating slots', then the persistent ones'.
std::size_t before_slot(int slot, int per_rotating_slot) {
  const auto rotating = static_cast<std::size_t>(std::min(slot, NodeSegment::kRotatingSlots));
  const auto persistent = static_cast<std::size_t>(slot) - rotating;
  return rotating * per_rotating_slot + persistent * NodeSegment::kPersistentAreasPerWriter;
}

struct Header {
  std::atomic<uint32_t> attached;  // zero-filled by ftruncate
};

std::string name_for(const std::string& job, uint32_t context, const std::vector<int>& node_members) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a of the members
  for (int w : node_members) h = (h ^ static_cast<uint64_t>(w)) * 1099511628211ull;
  std::ostringstream name;
  name << '/' << transport::shm_prefix(job) << "coll" << node_members.front() << '_' << context << '_' << std::hex
       << std::setw(16) << std::setfill('0') << h;
  return name.str();
}

Status os_error(const char* what, const std::string& name, int e) {
  return error(kErrOther, std::string(what) + " " + name + " (a collective's node shared memory): " + std::strerror(e));
}

}  // namespace

std::shared_ptr<NodeSegment> NodeSegment::attach(const std::string& job, uint32_t context,
                                                 const std::vector<int>& node_members, Status& status) {
  status = Status::success();
  const int k = static_cast<int>(node_members.size());
  if (k < 2 || k > kMostRanks) return nullptr;
  const std::string name = name_for(job, context, node_members);
  const std::size_t areas = before_slot(kRotatingSlots + kPersistentSlots, kAreasPerWriter) * k;
  const std::size_t payloads =
      (before_slot(kRotatingSlots + kPersistentSlots, kPayloadsPerWriter) + kPoolPayloadsPerWriter) * k;
  const std::size_t marks_at = (kHeaderBytes + areas * sizeof(Area) + kPage - 1) / kPage * kPage;
  const std::size_t payloads_at = (marks_at + areas * k * sizeof(Mark) + kPage - 1) / kPage * kPage;
  const std::size_t bytes = payloads_at + payloads * kBlockBytes;
  // Whoever comes first creates it; the same size from everyone makes the others' ftruncate a no-op. The pages stay
  // unreserved: only the payloads runs touch take memory.
  const int fd = shm_open(name.c_str(), O_CREAT | O_RDWR, 0600);
  if (fd < 0) return status = os_error("shm_open", name, errno), nullptr;
  if (ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    status = os_error("ftruncate", name, errno);
    close(fd);
    return nullptr;
  }
  void* base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int e = errno;
  close(fd);
  if (base == MAP_FAILED) return status = os_error("mmap", name, e), nullptr;
  std::shared_ptr<NodeSegment> segment(new NodeSegment);
  segment->base_ = base;
  segment->bytes_ = bytes;
  segment->marks_at_ = marks_at;
  segment->areas_ = areas;
  segment->payloads_at_ = payloads_at;
  segment->members_ = k;
  segment->mapped_.assign(payloads, 0);
  segment->last_block_.assign(payloads, {});
  auto* header = static_cast<Header*>(base);
  if (header->attached.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<uint32_t>(k))
    shm_unlink(name.c_str());  // the last to attach: every member has it mapped
  return segment;
}

NodeSegment::~NodeSegment() {
  if (base_ != nullptr) munmap(base_, bytes_);
}

NodeSegment::Place NodeSegment::place(int slot, int writer, int tag, uint64_t run, int pooled_tags) {
  const int n = areas_per_writer(slot), payloads = payloads_per_writer(slot);
  // Which use of the slot this run is: blocking and nonblocking runs take the rotating slots in turn, so one comes
  // back to a rotating slot every kRotatingSlots runs.
  const uint64_t turn = slot < kRotatingSlots ? run / kRotatingSlots : run;
  const auto at = static_cast<int>((static_cast<uint64_t>(tag) + turn) % static_cast<uint64_t>(n));
  Area* mine = areas() + before_slot(slot, kAreasPerWriter) * members_ + static_cast<std::size_t>(writer) * n;
  Place p;
  p.area = &mine[at];
  std::size_t index = 0;
  if (pooled_tags > 0 && slot < kRotatingSlots) {  // the pool follows every slot's payloads
    index = before_slot(kRotatingSlots + kPersistentSlots, kPayloadsPerWriter) * members_ +
            static_cast<std::size_t>(writer) * kPoolPayloadsPerWriter +
            static_cast<std::size_t>(pool_payload(tag, run, pooled_tags));
  } else {
    index = before_slot(slot, kPayloadsPerWriter) * members_ + static_cast<std::size_t>(writer) * payloads +
            static_cast<std::size_t>(at % payloads);
  }
  p.payload_index = static_cast<uint32_t>(index);
  p.payload = payload(p.payload_index);
  return p;
}

char* NodeSegment::payload(uint32_t index) const {
  return static_cast<char*>(base_) + payloads_at_ + std::size_t{index} * kBlockBytes;
}

NodeSegment::Area* NodeSegment::areas() const {
  return reinterpret_cast<Area*>(static_cast<char*>(base_) + kHeaderBytes);
}

// Reader r's marks for all areas in a row, in the areas' order.
NodeSegment::Mark& NodeSegment::mark(int reader, const Area& a) const {
  const auto index = static_cast<std::size_t>(reader) * areas_ + static_cast<std::size_t>(&a - areas());
  return reinterpret_cast<Mark*>(static_cast<char*>(base_) + marks_at_)[index];
}

void NodeSegment::map(uint32_t index, std::size_t bytes, bool for_writing) {
  if (bytes <= Area::kInlineBytes) return;  // in the area's own line
  uint32_t& mapped = mapped_[index];
  if (mapped >= bytes) return;
  runtime::prefault(payload(index) + mapped, bytes - mapped, for_writing);
  mapped = static_cast<uint32_t>(bytes);
}

int node_slot(int tag_base) {
  const auto block = static_cast<uint32_t>(tag_base / kTagsPerCollective);
  if (block < kTagBlocksPerHalf) return static_cast<int>(block % NodeSegment::kRotatingSlots);
  const uint32_t index = block - kTagBlocksPerHalf;
  return persistent_has_slot(index) ? NodeSegment::kRotatingSlots + static_cast<int>(index) : -1;
}

}  // namespace strata::coll
