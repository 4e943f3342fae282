// The per-communicator cache (coll/comm_cache.*): equal Args reuse the built collective, other Args or another
// forced algorithm build a new one; a call key repeats only the collective it was stored with, never kNoKey, and
// nothing after forget_keys(); the eight most recently used collectives of an operation stay.
#include <gtest/gtest.h>

#include <memory>

#include "coll/comm_cache.hpp"
#include "datatype/predefined.hpp"

using namespace strata;
using namespace strata::coll;

namespace {

comm::Communicator one_rank() {
  comm::Communicator c;
  c.size = 1;
  c.world_ranks = {0};
  return c;
}

Args bcast_of(int* buffer, std::size_t count) {
  Args a;
  a.recvbuf = buffer;
  a.recvcount = count;
  a.recvtype = datatype::predefined(datatype::kInt);
  return a;
}

constexpr CallKey kFirst{1, 2, 3};
constexpr CallKey kSecond{1, 2, 4};

TEST(CommCache, EqualArgumentsReuseTheBuiltCollective) {
  const comm::Communicator c = one_rank();
  CommCache cache;
  int buffer[4];
  std::shared_ptr<Collective> first, again, other, forced;
  ASSERT_TRUE(cache.get(Operation::kBcast, bcast_of(buffer, 4), c, "", kNoKey, first).ok());
  ASSERT_TRUE(cache.get(Operation::kBcast, bcast_of(buffer, 4), c, "", kNoKey, again).ok());
  EXPECT_EQ(first, again);
  ASSERT_TRUE(cache.get(Operation::kBcast, bcast_of(buffer, 3), c, "", kNoKey, other).ok());
  EXPECT_NE(first, other);
  ASSERT_TRUE(cache.get(Operation::kBcast, bcast_of(buffer, 3), c, "linear", kNoKey, forced).ok());
  EXPECT_NE(other, forced);
  EXPECT_STREQ(forced->algorithm().name, "linear");
}

TEST(CommCache, AKeyRepeatsOnlyItsOwnCollective) {
  const comm::Communicator c = one_rank();
  CommCache cache;
  int buffer[4];
  std::shared_ptr<Collective> made;
  EXPECT_EQ(cache.repeat(Operation::kBcast, kFirst), nullptr);  // nothing cached yet
  ASSERT_TRUE(cache.get(Operation::kBcast, bcast_of(buffer, 4), c, "", kFirst, made).ok());
  EXPECT_EQ(cache.repeat(Operation::kBcast, kFirst), made);
  EXPECT_EQ(cache.repeat(Operation::kBcast, kSecond), nullptr);
  EXPECT_EQ(cache.repeat(Operation::kBarrier, kFirst), nullptr);  // per operation
  cache.forget_keys();
  EXPECT_EQ(cache.repeat(Operation::kBcast, kFirst), nullptr);
}

TEST(CommCache, NoKeyNeverRepeats) {
  const comm::Communicator c = one_rank();
  CommCache cache;
  int buffer[4];
  std::shared_ptr<Collective> made;
  ASSERT_TRUE(cache.get(Operation::kBcast, bcast_of(buffer, 4), c, "", kNoKey, made).ok());
  EXPECT_EQ(cache.repeat(Operation::kBcast, kNoKey), nullptr);
}

TEST(CommCache, EachKeyKeepsItsCollectiveAmongTheRecentOnes) {
  const comm::Communicator c = one_rank();
  CommCache cache;
  int buffer[4];
  std::shared_ptr<Collective> first, second;
  ASSERT_TRUE(cache.get(Operation::kBcast, bcast_of(buffer, 4), c, "", kFirst, first).ok());
  ASSERT_TRUE(cache.get(Operation::kBcast, bcast_of(buffer, 2), c, "", kSecond, second).ok());
  EXPECT_NE(first, second);
  EXPECT_EQ(cache.repeat(Operation::kBcast, kFirst), first);  // a root going round: both stay
  EXPECT_EQ(cache.repeat(Operation::kBcast, kSecond), second);
  std::shared_ptr<Collective> again;
  ASSERT_TRUE(cache.get(Operation::kBcast, bcast_of(buffer, 4), c, "", kNoKey, again).ok());
  EXPECT_EQ(again, first);
}

// Eight distinct calls stay; a ninth pushes out the least recently used, which is then built anew.
TEST(CommCache, TheLeastRecentGoesPastEight) {
  const comm::Communicator c = one_rank();
  CommCache cache;
  int buffer[16];
  std::shared_ptr<Collective> made[9];
  const auto key_of = [](std::size_t n) { return CallKey{7, n}; };
  for (std::size_t n = 1; n <= 8; ++n)
    ASSERT_TRUE(cache.get(Operation::kBcast, bcast_of(buffer, n), c, "", key_of(n), made[n - 1]).ok());
  for (std::size_t n = 2; n <= 8; ++n) EXPECT_EQ(cache.repeat(Operation::kBcast, key_of(n)), made[n - 1]);
  EXPECT_EQ(cache.repeat(Operation::kBcast, key_of(1)), made[0]);  // now the most recent; 2 the least
  ASSERT_TRUE(cache.get(Operation::kBcast, bcast_of(buffer, 9), c, "", key_of(9), made[8]).ok());
  EXPECT_EQ(cache.repeat(Operation::kBcast, key_of(2)), nullptr);
  for (std::size_t n : {1, 3, 4, 5, 6, 7, 8, 9}) EXPECT_EQ(cache.repeat(Operation::kBcast, key_of(n)), made[n - 1]);
  std::shared_ptr<Collective> rebuilt;
  ASSERT_TRUE(cache.get(Operation::kBcast, bcast_of(buffer, 2), c, "", key_of(2), rebuilt).ok());
  EXPECT_NE(rebuilt, made[1]);
}

}  // namespace
