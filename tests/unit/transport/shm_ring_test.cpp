// The shared-memory ring in one process: the segment is created as the receiver and mapped again as the sender.
// Records of random sizes (wrapping around the ring's end many times) arrive complete and in order, and a full ring
// refuses a write instead of overwriting unread data; a record carries the payload its kind implies.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <deque>
#include <random>
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

}  // namespace

TEST_F(RingTest, RandomSizesArriveInOrderAcrossWraps) {
  std::mt19937 rng(7);
  std::deque<Received> got;
  uint64_t sent = 0, checked = 0;
  while (checked < 5000) {
    const std::size_t len = rng() % 3 == 0 ? rng() % (kRingEagerLimit + 1) : rng() % 200;
    std::vector<char> data = pattern(sent, len);
    while (!tx_.try_write(eager(sent, len), data.data(), len)) inbox_.poll(collect, &got);
    ++sent;
    if (rng() % 4 == 0) inbox_.poll(collect, &got);
    while (!got.empty()) {
      const Received& r = got.front();
      ASSERT_EQ(r.header.cookie, checked);
      ASSERT_EQ(r.payload, pattern(checked, r.header.bytes));
      got.pop_front();
      ++checked;
    }
  }
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
