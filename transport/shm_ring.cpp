#include "transport/shm_ring.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>

#include "runtime/copy_bytes.hpp"
#include "runtime/prefault.hpp"

namespace strata::transport {

struct RecordHead {
  std::atomic<uint32_t> bytes;  // whole record, padded; 0 = not written yet. Stored last (release).
  uint32_t flags;               // kWrap: skip to the ring's start
};
static_assert(std::atomic<uint32_t>::is_always_lock_free);

namespace {

constexpr uint32_t kWrap = 1;
// Past kRewindOffset, a record of kRewindBytes or more finds out whether the ring is drained, and if so starts at
// the front (.hpp). Smaller records do not ask: in a stream the read of `head` would cost more than their copy.
constexpr std::size_t kRewindOffset = 64 * 1024;
constexpr std::size_t kRewindBytes = 4096;

// Who clears a record's lines (.hpp): its reader below 4 KiB, otherwise its sender, where a later record ends before
// one of them (RingTx::stale_).
constexpr std::size_t kReaderClearsBelow = 4096;
constexpr bool reader_clears(std::size_t record_bytes) { return record_bytes < kReaderClearsBelow; }

constexpr std::size_t kSlotBytes = sizeof(RingControl) + kRingBytes;
constexpr std::size_t kLine = 64;
constexpr std::size_t pad64(std::size_t n) { return (n + kLine - 1) & ~(kLine - 1); }

RingControl* control_at(void* base, int slot) {
  return reinterpret_cast<RingControl*>(static_cast<char*>(base) + slot * kSlotBytes);
}
char* data_at(void* base, int slot) { return reinterpret_cast<char*>(control_at(base, slot) + 1); }

std::string sanitize(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return out;
}

}  // namespace

bool RingTx::try_write(const Header& h, const void* payload, std::size_t len) {
  if (tail_ == 0) runtime::prefault(control_, kSlotBytes, true);  // the first record to this peer (.hpp)
  const std::size_t need = pad64(sizeof(RecordHead) + sizeof(Header) + len);
  std::size_t offset = tail_ % kRingBytes;
  const std::size_t to_end = kRingBytes - offset;
  bool wrap = to_end < need;
  if (!wrap && len >= kRewindBytes && offset >= kRewindOffset && need + kLine <= offset) {
    cached_head_ = control_->head.load(std::memory_order_acquire);
    wrap = cached_head_ == tail_;  // drained: restart at the front, whose lines are still in cache
  }
  // Room for the record and for the line after it, which may need clearing before the record is published.
  const std::size_t total = need + (wrap ? to_end : 0);
  if (tail_ + total + kLine - cached_head_ > kRingBytes) {
    cached_head_ = control_->head.load(std::memory_order_acquire);
    if (tail_ + total + kLine - cached_head_ > kRingBytes) return false;
  }
  if (wrap) {  // records are never split, and a drained ring restarts at its front: a wrap record fills the rest
    clear_if_stale(0);  // published by the filler's release
    RecordHead* filler = head_at(offset);
    filler->flags = kWrap;
    stale_.assign(offset / kLine, 1, true);  // its reader does not clear a filler
    filler->bytes.store(static_cast<uint32_t>(to_end), std::memory_order_release);
    tail_ += to_end;
    offset = 0;
  }
  char* record = data_ + offset;
  RecordHead* rh = head_at(offset);
  rh->flags = 0;
  std::memcpy(record + sizeof(RecordHead), &h, sizeof(Header));
  if (len) payload_copy_.copy(record + sizeof(RecordHead) + sizeof(Header), payload, len);
  const bool leaves_stale = !reader_clears(need);
  if (leaves_stale || !stale_.empty()) {  // a stream of small records into a clean ring skips this
    stale_.assign(offset / kLine, need / kLine, leaves_stale);
    clear_if_stale((offset + need) % kRingBytes);
  }
  rh->bytes.store(static_cast<uint32_t>(need), std::memory_order_release);
  tail_ += need;
  return true;
}

void RingLines::assign(std::size_t first, std::size_t count, bool in) {
  for (std::size_t line = first, end = first + count; line < end;) {
    const std::size_t bit = line % 64, bits = std::min<std::size_t>(64 - bit, end - line);
    const uint64_t mask = (bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1) << bit;
    uint64_t& word = words_[line / 64];
    size_ -= static_cast<std::size_t>(std::popcount(word & mask));
    word = in ? word | mask : word & ~mask;
    size_ += static_cast<std::size_t>(std::popcount(word & mask));
    line += bits;
  }
}

void RingTx::clear_if_stale(std::size_t offset) {
  if (!stale_.contains(offset / kLine)) return;
  head_at(offset)->bytes.store(0, std::memory_order_relaxed);
  stale_.assign(offset / kLine, 1, false);
}

RecordHead* RingTx::head_at(std::size_t offset) const { return reinterpret_cast<RecordHead*>(data_ + offset); }

std::string shm_prefix(const std::string& job) { return "strata_" + sanitize(job) + "_"; }

std::string RingInbox::segment_name(const std::string& job, int rank) {
  return "/" + shm_prefix(job) + std::to_string(rank);
}

Status RingInbox::create(const std::string& job, int my_rank, int slots, int my_slot) {
  name_ = segment_name(job, my_rank);
  const std::size_t bytes = slots * kSlotBytes;
  int fd = shm_open(name_.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd < 0) return error(kErrOther, "shm_open " + name_ + ": " + std::strerror(errno));
  if (ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    int e = errno;
    close(fd);
    shm_unlink(name_.c_str());
    return error(kErrOther, "ftruncate " + name_ + ": " + std::strerror(e));
  }
  void* base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (base == MAP_FAILED) {
    shm_unlink(name_.c_str());
    return error(kErrOther, "mmap " + name_ + ": " + std::strerror(errno));
  }
  own_ = {base, bytes};
  for (int s = 0; s < slots; ++s) {
    new (control_at(base, s)) RingControl{};
    if (s == my_slot) continue;
    inbound_.push_back(control_at(base, s));
    inbound_data_.push_back(data_at(base, s));
    heads_.push_back(0);
  }
  return {};
}

Status RingInbox::attach_peer(const std::string& job, int peer_rank, int slots, int my_slot, RingTx& tx) {
  const std::string name = segment_name(job, peer_rank);
  const std::size_t bytes = slots * kSlotBytes;
  int fd = shm_open(name.c_str(), O_RDWR, 0600);
  if (fd < 0) return error(kErrOther, "shm_open " + name + ": " + std::strerror(errno));
  void* base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (base == MAP_FAILED) return error(kErrOther, "mmap " + name + ": " + std::strerror(errno));
  peers_.push_back({base, bytes});
  tx = RingTx(control_at(base, my_slot), data_at(base, my_slot));
  return {};
}

void RingInbox::unlink() {
  if (!name_.empty()) shm_unlink(name_.c_str());
  name_.clear();
}

void RingInbox::destroy() {
  unlink();
  for (Segment& s : peers_) munmap(s.base, s.bytes);
  if (own_.base) munmap(own_.base, own_.bytes);
  peers_.clear();
  own_ = {};
  inbound_.clear();
  inbound_data_.clear();
  heads_.clear();
}

bool RingInbox::poll(Handler handler, void* context) {
  bool any = false;
  for (std::size_t i = 0; i < inbound_.size(); ++i) {
    char* data = inbound_data_[i];
    uint64_t head = heads_[i];
    uint64_t published = head;  // what the sender has been told
    for (;;) {
      char* record = data + head % kRingBytes;
      auto* rh = reinterpret_cast<RecordHead*>(record);
      const uint32_t bytes = rh->bytes.load(std::memory_order_acquire);
      if (bytes == 0) break;
      if (head == 0) runtime::prefault(inbound_[i], kSlotBytes, true);  // the first record from this peer (.hpp)
      if (!(rh->flags & kWrap)) {
        Header h;
        std::memcpy(&h, record + sizeof(RecordHead), sizeof h);
        if (!handler(context, h, record + sizeof(RecordHead) + sizeof(Header), payload_bytes(h))) break;
      }
      const uint32_t cleared = !(rh->flags & kWrap) && reader_clears(bytes) ? bytes : 0;
      for (uint32_t line = 0; line < cleared; line += kLine)
        reinterpret_cast<RecordHead*>(record + line)->bytes.store(0, std::memory_order_relaxed);
      head += bytes;
      // A large record's space goes back at once: its sender may be waiting to write the next piece.
      if (!cleared) inbound_[i]->head.store(published = head, std::memory_order_release);
    }
    if (head != published) inbound_[i]->head.store(head, std::memory_order_release);
    if (head != heads_[i]) {
      heads_[i] = head;
      any = true;
    }
  }
  return any;
}

}  // namespace strata::transport
