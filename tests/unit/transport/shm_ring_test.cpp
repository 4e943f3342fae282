// The shared-memory ring in one process: the segment is created as the receiver and mapped again as the sender.
// Records of random sizes (wrapping around the ring's end many times) arrive complete and in order, and a full ring
// refuses a write instead of overwriting unread data; a sender goes back to the ring's front when it finds the ring
// drained; a record carries the payload its kind implies; the receiver of a large record only reads it, and gives its
// space back before its poll ends; the first record maps the whole ring on both sides; the sender's set of lines to
// clear (RingLines) keeps its size.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include "transport/shm_ring.hpp"

using namespace strata::transport;

namespace {

struct Received {
  Header header;
  std::vector<char> payload;
};

bool collect(void* context, const Header& h, const char* payload, std::size_t len) {
  static_cast<std::deque<Received>*>(context)->push_back({h, std::vector<char>(payload, payload + len)});
  return true;
}

bool refuse(void*, const Header&, const char*, std::size_t) { return false; }

std::vector<char> pattern(uint64_t id, std::size_t len) {
  std::vector<char> v(len);
  for (std::size_t i = 0; i < len; ++i) v[i] = static_cast<char>((id * 131 + i * 7) & 0xff);
  return v;
}

class RingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    job_ = "unit" + std::to_string(getpid()) + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_TRUE(inbox_.create(job_, 0, 2, 0).ok());
    ASSERT_TRUE(inbox_.attach_peer(job_, 0, 2, 1, tx_).ok());  // we also play rank 1, writing to rank 0
  }
  void TearDown() override { inbox_.destroy(); }

  std::string job_;
  RingInbox inbox_;
  RingTx tx_;
};

Header eager(uint64_t id, std::size_t len) {
  Header h{};
  h.kind = MsgKind::Eager;
  h.cookie = id;
  h.bytes = len;
  return h;
}

// Writes records, of the lengths `length(rng)` draws, until `count` have arrived, polling after one write in
// `poll_odds` and whenever the ring is full; each must arrive whole and in order.
template <class Length>
void stream_in_order(RingTx& tx, RingInbox& inbox, uint32_t seed, uint32_t poll_odds, uint64_t count, Length length) {
  std::mt19937 rng(seed);
  std::deque<Received> got;
  for (uint64_t sent = 0, checked = 0; checked < count;) {
    const std::size_t len = length(rng);
    const std::vector<char> data = pattern(sent, len);
    for (int polls = 0; !tx.try_write(eager(sent, len), data.data(), len); ++polls) {
      ASSERT_LT(polls, 100) << "record " << sent << " never finds room";
      inbox.poll(collect, &got);
    }
    ++sent;
    if (rng() % poll_odds == 0) inbox.poll(collect, &got);
    for (; !got.empty(); got.pop_front(), ++checked) {
      ASSERT_EQ(got.front().header.cookie, checked);
      ASSERT_EQ(got.front().payload, pattern(checked, got.front().header.bytes));
    }
  }
}

}  // namespace

TEST_F(RingTest, RandomSizesArriveInOrderAcrossWraps) {
  ASSERT_NO_FATAL_FAILURE(stream_in_order(tx_, inbox_, 7, 4, 5000, [](std::mt19937& rng) -> std::size_t {
    return rng() % 3 == 0 ? rng() % (kRingEagerLimit + 1) : rng() % 200;
  }));
}

// Records of one size land on the same offsets again after each return to the front (below), where earlier wrap
// records began: those must read as empty.
TEST_F(RingTest, RecordsOfOneSizeArriveInOrderAcrossReturnsToTheFront) {
  ASSERT_NO_FATAL_FAILURE(
      stream_in_order(tx_, inbox_, 11, 2, 2000, [](std::mt19937&) -> std::size_t { return 20 << 10; }));
}

TEST_F(RingTest, FullRingRefusesAndRecovers) {
  std::vector<char> data(kRingEagerLimit, 'x');
  int written = 0;
  while (tx_.try_write(eager(written, data.size()), data.data(), data.size())) ++written;
  EXPECT_GT(written, 0);
  EXPECT_LE(static_cast<std::size_t>(written) * kRingEagerLimit, kRingBytes);
  std::deque<Received> got;
  EXPECT_TRUE(inbox_.poll(collect, &got));
  EXPECT_EQ(got.size(), static_cast<std::size_t>(written));
  EXPECT_TRUE(tx_.try_write(eager(99, 3), "abc", 3));
  got.clear();
  inbox_.poll(collect, &got);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(std::string(got[0].payload.begin(), got[0].payload.end()), "abc");
}

TEST_F(RingTest, RecordNotTakenStaysAtTheHead) {
  ASSERT_TRUE(tx_.try_write(eager(1, 3), "one", 3));
  ASSERT_TRUE(tx_.try_write(eager(2, 3), "two", 3));
  EXPECT_FALSE(inbox_.poll(refuse, nullptr));  // nothing taken, nothing consumed
  std::deque<Received> got;
  EXPECT_TRUE(inbox_.poll(collect, &got));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].header.cookie, 1u);
  EXPECT_EQ(got[1].header.cookie, 2u);
  // The space of records not taken stays in use: a full ring refused stays full.
  std::vector<char> data(kRingEagerLimit, 'x');
  int written = 0;
  while (tx_.try_write(eager(written, data.size()), data.data(), data.size())) ++written;
  inbox_.poll(refuse, nullptr);
  EXPECT_FALSE(tx_.try_write(eager(99, data.size()), data.data(), data.size()));
}

TEST_F(RingTest, SegmentNameIsGoneAfterUnlink) {
  inbox_.unlink();
  RingTx again;
  EXPECT_FALSE(inbox_.attach_peer(job_, 0, 2, 1, again).ok());
}

// A record's payload is as long as its header says for eager messages and rendezvous pieces (Data: `bytes` is the
// piece), and empty for control records, whose `bytes` names a whole message that travels another way.
TEST_F(RingTest, PayloadLengthFollowsTheRecordKind) {
  Header rts = eager(1, 0);
  rts.kind = MsgKind::Rts;
  rts.bytes = 1 << 20;
  Header data = eager(2, 100);
  data.kind = MsgKind::Data;
  data.data_tag = 65536;  // the piece's offset
  const std::vector<char> piece = pattern(2, 100);
  ASSERT_TRUE(tx_.try_write(rts, nullptr, 0));
  ASSERT_TRUE(tx_.try_write(data, piece.data(), piece.size()));
  std::deque<Received> got;
  inbox_.poll(collect, &got);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].header.kind, MsgKind::Rts);
  EXPECT_TRUE(got[0].payload.empty());
  EXPECT_EQ(got[1].header.kind, MsgKind::Data);
  EXPECT_EQ(got[1].header.data_tag, 65536u);
  EXPECT_EQ(got[1].payload, piece);
}

// A record of 4 KiB or more written into a drained ring past its first 64 KiB starts again at the ring's front, so
// that a stream of large messages keeps reusing the same (cached) lines; nearer the front, behind an unread record,
// or smaller, it follows on.
TEST_F(RingTest, LargeRecordIntoADrainedRingStartsAgainAtTheFront) {
  struct Seen {
    std::vector<const char*> where;
    std::deque<Received> got;
  } seen;
  auto at = [](void* context, const Header& h, const char* payload, std::size_t len) {
    static_cast<Seen*>(context)->where.push_back(payload);
    return collect(&static_cast<Seen*>(context)->got, h, payload, len);
  };
  const std::vector<char> large = pattern(1, 40 << 10);
  const std::vector<char> small = pattern(2, 100);
  auto write = [&](uint64_t id, const std::vector<char>& data) {
    return tx_.try_write(eager(id, data.size()), data.data(), data.size());
  };
  ASSERT_TRUE(write(1, large));
  ASSERT_TRUE(inbox_.poll(at, &seen));
  ASSERT_TRUE(write(2, large));  // drained, but 40 KiB in: follows on
  ASSERT_TRUE(write(3, large));  // 80 KiB in, behind an unread record: follows on
  ASSERT_TRUE(inbox_.poll(at, &seen));
  ASSERT_TRUE(write(4, small));  // drained and 120 KiB in, but small: follows on
  ASSERT_TRUE(inbox_.poll(at, &seen));
  ASSERT_TRUE(write(5, large));  // drained and 120 KiB in: at the front, where record 1 was
  ASSERT_TRUE(write(6, small));  // follows it
  ASSERT_TRUE(inbox_.poll(at, &seen));
  ASSERT_EQ(seen.where.size(), 6u);
  for (int i : {1, 2, 3, 5}) EXPECT_LT(seen.where[i - 1], seen.where[i]) << "record " << i + 1;
  EXPECT_EQ(seen.where[4], seen.where[0]);
  const std::vector<char>* sent[] = {&large, &large, &large, &small, &large, &small};
  for (uint64_t id = 1; id <= 6; ++id) {
    EXPECT_EQ(seen.got[id - 1].header.cookie, id);
    EXPECT_EQ(seen.got[id - 1].payload, *sent[id - 1]) << "record " << id;
  }
}

// The receiver of records of 4 KiB or more only reads their lines: their sender clears the line where the next record
// will start, where needed, before it publishes one. A ring whose receiver cleared every line it consumed moved each
// line of a large message to the receiver's core and back. (Smaller records, mixed with these, are in the first test.)
TEST_F(RingTest, PollingLargeRecordsLeavesTheirLinesAsWritten) {
  const int fd = shm_open(("/" + shm_prefix(job_) + "0").c_str(), O_RDONLY, 0);
  ASSERT_GE(fd, 0);
  const std::size_t slot = sizeof(RingControl) + kRingBytes;
  void* base = mmap(nullptr, 2 * slot, PROT_READ, MAP_SHARED, fd, 0);
  close(fd);
  ASSERT_NE(base, MAP_FAILED);
  const char* ring = static_cast<const char*>(base) + slot + sizeof(RingControl);  // slot 1: ours as the sender
  std::mt19937 rng(3);
  std::deque<Received> got;
  for (uint64_t id = 0; id < 200; ++id) {
    const std::vector<char> data = pattern(id, 4096 + rng() % (kRingEagerLimit - 4096 + 1));
    if (!tx_.try_write(eager(id, data.size()), data.data(), data.size())) {
      const std::vector<char> before(ring, ring + kRingBytes);
      ASSERT_TRUE(inbox_.poll(collect, &got));
      ASSERT_TRUE(std::equal(before.begin(), before.end(), ring)) << "the poll before record " << id << " wrote";
      ASSERT_TRUE(tx_.try_write(eager(id, data.size()), data.data(), data.size()));
    }
  }
  inbox_.poll(collect, &got);
  ASSERT_EQ(got.size(), 200u);
  for (uint64_t id = 0; id < 200; ++id) EXPECT_EQ(got[id].header.cookie, id);
  munmap(base, 2 * slot);
}

// A large record's space goes back to the sender as soon as it is consumed, not at the end of the poll: a sender of a
// message in pieces can write the next while the receiver copies this one.
TEST_F(RingTest, ALargeRecordsSpaceIsBackBeforeThePollEnds) {
  const std::vector<char> piece(kRingEagerLimit, 'p');
  int written = 0;
  while (tx_.try_write(eager(written, piece.size()), piece.data(), piece.size())) ++written;
  ASSERT_GE(written, 3);
  struct Context {
    RingTx* tx;
    const std::vector<char>* piece;
    int seen = 0;
    bool wrote = false;
  } context{&tx_, &piece};
  auto on_record = [](void* c, const Header&, const char*, std::size_t) {
    auto& ctx = *static_cast<Context*>(c);
    if (++ctx.seen == 3)
      ctx.wrote = ctx.tx->try_write(eager(99, ctx.piece->size()), ctx.piece->data(), ctx.piece->size());
    return true;
  };
  ASSERT_TRUE(inbox_.poll(on_record, &context));
  EXPECT_TRUE(context.wrote) << "the space of the first two records was not back while the third was read";
}

namespace {

// The resident kilobytes of each of this process's mappings of `file`, in address order (/proc/self/smaps).
std::vector<long> resident_kib(const std::string& file) {
  std::ifstream smaps("/proc/self/smaps");
  std::vector<long> out;
  bool in_file = false;
  for (std::string line; std::getline(smaps, line);) {
    std::istringstream fields(line);
    std::string first;
    fields >> first;
    if (first.find('-') != std::string::npos && first.back() != ':') {  // a mapping's header: range perms ... path
      in_file = line.size() >= file.size() && line.compare(line.size() - file.size(), file.size(), file) == 0;
    } else if (in_file && first == "Rss:") {
      long kib = 0;
      fields >> kib;
      out.push_back(kib);
    }
  }
  return out;
}

bool kernel_populates() {  // MADV_POPULATE_WRITE came with Linux 5.14
  void* page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  const bool ok = page != MAP_FAILED && madvise(page, 4096, MADV_POPULATE_WRITE) == 0;
  if (page != MAP_FAILED) munmap(page, 4096);
  return ok;
}

}  // namespace

// Before its first record the sender maps its whole ring, and the receiver does when that record arrives: a stream of
// small records would otherwise take a page fault every 64 records on each side.
TEST_F(RingTest, TheFirstRecordMapsTheWholeRingOnBothSides) {
  const std::string file = "/dev/shm/" + shm_prefix(job_) + "0";
  const long ring_kib = static_cast<long>(kRingBytes / 1024);
  std::vector<long> before = resident_kib(file);
  ASSERT_EQ(before.size(), 2u);  // the receiver's own mapping, and the one it writes through as rank 1
  for (long kib : before) EXPECT_LT(kib, ring_kib);
  const char byte = 'x';
  ASSERT_TRUE(tx_.try_write(eager(0, 1), &byte, 1));
  std::deque<Received> got;
  ASSERT_TRUE(inbox_.poll(collect, &got));
  ASSERT_EQ(got.size(), 1u);
  const std::vector<long> after = resident_kib(file);
  ASSERT_EQ(after.size(), 2u);
  for (long kib : after) {
    if (kernel_populates())
      EXPECT_GE(kib, ring_kib);
    else
      EXPECT_LT(kib, ring_kib);  // the pages fault in as records reach them
  }
}

// The sender's set of stale lines: ranges across word boundaries, set and cleared in parts, with the size kept.
TEST(RingLines, AssignsRangesAcrossWordsAndKeepsItsSize) {
  RingLines lines;
  std::vector<bool> expected(kRingBytes / 64);
  auto assign = [&](std::size_t first, std::size_t count, bool in) {
    lines.assign(first, count, in);
    std::fill_n(expected.begin() + static_cast<std::ptrdiff_t>(first), count, in);
  };
  assign(60, 1025, true);   // a 64 KiB record's lines, from inside the first word
  assign(64, 64, false);    // one whole word
  assign(1000, 3, false);   // inside a word
  assign(4095, 1, true);    // the ring's last line
  assign(0, 61, false);     // ends on a line already in
  for (std::size_t line = 0; line < expected.size(); ++line) ASSERT_EQ(lines.contains(line), expected[line]) << line;
  EXPECT_FALSE(lines.empty());
  assign(0, expected.size(), false);
  EXPECT_TRUE(lines.empty());
  EXPECT_FALSE(lines.contains(4095));
}
