// MatchQueues against a model: random interleavings of posted receives (with wildcards) and arriving messages are
// checked against a direct reading of MPI-4.0 section 3.5 (the earliest posted receive that accepts a message;
// the earliest arrived message that a receive accepts). Messages leave the queues by both ways the engine takes them
// (moved out, or handed over in place and their node recycled), over several contexts: MPI_ANY_SOURCE looks only at
// its context's senders and skips a context with nothing queued, so the per-context count must stay exact.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <vector>

#include "transport/matching.hpp"

using namespace strata::transport;

namespace {

struct Model {
  std::vector<std::pair<Envelope, Request*>> posted;
  std::vector<Header> arrived;

  Request* on_arrival(const Header& h) {
    Envelope have{h.context, h.src_rank, h.tag};
    for (std::size_t i = 0; i < posted.size(); ++i)
      if (accepts(posted[i].first, have)) {
        Request* r = posted[i].second;
        posted.erase(posted.begin() + static_cast<long>(i));
        return r;
      }
    arrived.push_back(h);
    return nullptr;
  }
  std::optional<Header> on_post(const Envelope& want, Request* r) {
    for (std::size_t i = 0; i < arrived.size(); ++i)
      if (accepts(want, {arrived[i].context, arrived[i].src_rank, arrived[i].tag})) {
        Header h = arrived[i];
        arrived.erase(arrived.begin() + static_cast<long>(i));
        return h;
      }
    posted.push_back({want, r});
    return std::nullopt;
  }
};

Header message(uint32_t context, int src, int tag, uint64_t id) {
  Header h{};
  h.kind = MsgKind::Eager;
  h.context = context;
  h.src_rank = src;
  h.tag = tag;
  h.cookie = id;  // identifies the message in the test
  return h;
}

}  // namespace

TEST(Matching, WildcardsAccept) {
  EXPECT_TRUE(accepts({1, kAnySource, kAnyTag}, {1, 3, 7}));
  EXPECT_TRUE(accepts({1, 3, kAnyTag}, {1, 3, 7}));
  EXPECT_TRUE(accepts({1, kAnySource, 7}, {1, 3, 7}));
  EXPECT_FALSE(accepts({2, kAnySource, kAnyTag}, {1, 3, 7}));  // never across communicators
  EXPECT_FALSE(accepts({1, 4, kAnyTag}, {1, 3, 7}));
  EXPECT_FALSE(accepts({1, kAnySource, 8}, {1, 3, 7}));
}

TEST(Matching, NonOvertakingFromOneSender) {
  MatchQueues q;
  for (int i = 0; i < 5; ++i) q.add_unexpected(message(0, 1, 9, static_cast<uint64_t>(i)), nullptr, 0);
  for (int i = 0; i < 5; ++i) {
    auto u = q.take_unexpected({0, kAnySource, kAnyTag});
    ASSERT_TRUE(u.has_value());
    EXPECT_EQ(u->header.cookie, static_cast<uint64_t>(i));
  }
  EXPECT_FALSE(q.take_unexpected({0, kAnySource, kAnyTag}).has_value());
}

TEST(Matching, CancelRemovesOnlyThatReceive) {
  MatchQueues q;
  Request a, b;
  a.context = b.context = 0;
  a.rank = b.rank = kAnySource;
  a.tag = b.tag = kAnyTag;
  q.post(&a);
  q.post(&b);
  EXPECT_TRUE(q.remove_posted(&a));
  EXPECT_FALSE(q.remove_posted(&a));
  EXPECT_EQ(q.take_posted({0, 2, 3}), &b);
}

class MatchingModel : public ::testing::TestWithParam<unsigned> {};

TEST_P(MatchingModel, RandomInterleavingsAgreeWithTheStandard) {
  std::mt19937 rng(GetParam());
  MatchQueues q;
  Model model;
  std::vector<std::unique_ptr<Request>> requests;
  uint64_t next_id = 0;
  for (int step = 0; step < 2000; ++step) {
    const uint32_t context = rng() % 5;
    if (rng() % 2) {
      Header h = message(context, static_cast<int>(rng() % 4), static_cast<int>(rng() % 3), next_id++);
      Request* expected = model.on_arrival(h);
      Request* got = q.take_posted({h.context, h.src_rank, h.tag});
      ASSERT_EQ(got, expected) << "step " << step;
      if (!got) q.add_unexpected(h, nullptr, 0);
    } else {
      auto r = std::make_unique<Request>();
      r->context = context;
      r->rank = rng() % 3 == 0 ? kAnySource : static_cast<int>(rng() % 4);
      r->tag = rng() % 3 == 0 ? kAnyTag : static_cast<int>(rng() % 3);
      Envelope want{r->context, r->rank, r->tag};
      std::optional<Header> expected = model.on_post(want, r.get());
      std::optional<Unexpected> got;
      if (rng() % 2)
        got = q.take_unexpected(want);
      else
        q.consume_unexpected(want, [&](const Unexpected& u) { got = u; });
      ASSERT_EQ(got.has_value(), expected.has_value()) << "step " << step;
      if (got)
        EXPECT_EQ(got->header.cookie, expected->cookie) << "step " << step;
      else
        q.post(r.get());
      requests.push_back(std::move(r));
    }
  }
  EXPECT_EQ(q.posted_count(), model.posted.size());
  EXPECT_EQ(q.unexpected_count(), model.arrived.size());
}

INSTANTIATE_TEST_SUITE_P(Seeds, MatchingModel, ::testing::Range(1u, 9u));

// A window's channel takes its requests only when its context's Watcher tells it one arrived (rma/channel.cpp):
// a missed or misdirected notice leaves a request unapplied and its origin waiting forever.
TEST(Matching, WatcherHearsEachArrivalInItsContextOnly) {
  MatchQueues q;
  int heard[3] = {0, 0, 0};
  auto count = [](void* n) { ++*static_cast<int*>(n); };
  q.add_unexpected(message(2, 0, 1, 0), nullptr, 0);  // queued before anyone watches context 2
  q.watch(1, {count, &heard[1]});
  EXPECT_EQ(heard[1], 0);  // context 1 has nothing queued
  q.watch(2, {count, &heard[2]});
  EXPECT_EQ(heard[2], 1);  // told at once of the message already waiting

  q.add_unexpected(message(1, 3, 5, 1), nullptr, 0);
  q.add_unexpected(message(1, 4, 5, 2), nullptr, 0);
  q.add_unexpected(message(0, 3, 5, 3), nullptr, 0);  // nobody watches context 0
  EXPECT_EQ(heard[1], 2);
  EXPECT_EQ(heard[2], 1);

  Request r;  // a message that finds a posted receive is not queued: no notice
  r.context = 1;
  r.rank = 3;
  r.tag = 6;
  q.post(&r);
  EXPECT_EQ(q.take_posted({1, 3, 6}), &r);
  EXPECT_EQ(heard[1], 2);

  q.watch(1, {});  // stopped
  q.add_unexpected(message(1, 3, 5, 5), nullptr, 0);
  EXPECT_EQ(heard[1], 2);
}
