// Window pieces that need no other process: the one-node rule (rma::check_single_node), a segment's life in
// /dev/shm (created, opened again, reserved, mapped, unlinked: gone while still mapped), and the lock words.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "rma/lock.hpp"
#include "rma/segment.hpp"
#include "rma/window.hpp"

using namespace strata::rma;

namespace {

bool in_dev_shm(const std::string& name) { return std::filesystem::exists("/dev/shm" + name); }
}  // namespace

TEST(SingleNode, OneNodeIsFine) {
  EXPECT_TRUE(check_single_node({0, 1, 2}, {0, 0, 0}).ok());
  EXPECT_TRUE(check_single_node({3, 1}, {0, 1, 0, 1}).ok());  // world ranks 1 and 3 share node 1
  EXPECT_TRUE(check_single_node({2}, {0, 1, 2}).ok());
}

TEST(SingleNode, SeveralNodesAreNamed) {
  const strata::Status s = check_single_node({0, 1, 2, 3}, {0, 1, 0, 1});
  EXPECT_EQ(s.error_class, strata::kErrRmaShared);
  EXPECT_NE(s.message.find("2 nodes"), std::string::npos) << s.message;
  EXPECT_NE(s.message.find("rank 0 on node 0"), std::string::npos) << s.message;
  EXPECT_NE(s.message.find("rank 1 on node 1"), std::string::npos) << s.message;
  // Ranks of the communicator, not of the world.
  const strata::Status t = check_single_node({3, 2}, {0, 0, 5, 7});
  EXPECT_NE(t.message.find("rank 0 on node 7"), std::string::npos) << t.message;
  EXPECT_NE(t.message.find("rank 1 on node 5"), std::string::npos) << t.message;
}

TEST(WindowSegment, MappedTwiceSharedAndUnlinkedEarly) {
  const std::string name = Segment::name_for("unit" + std::to_string(getpid()), 0, 9);
  EXPECT_NE(name.find("strata_unit"), std::string::npos);
  Segment creator, other;
  ASSERT_TRUE(creator.create(name, 8192).ok());
  EXPECT_FALSE(Segment().create(name, 8192).ok());  // never reuses a name that exists
  ASSERT_TRUE(other.open(name).ok());
  ASSERT_TRUE(creator.reserve(0, 4096).ok());
  ASSERT_TRUE(other.reserve(4096, 4096).ok());
  ASSERT_TRUE(creator.map(8192).ok());
  ASSERT_TRUE(other.map(8192).ok());
  EXPECT_TRUE(in_dev_shm(name));
  creator.unlink();
  EXPECT_FALSE(in_dev_shm(name));
  creator.base()[5000] = 42;  // still shared through the mappings
  EXPECT_EQ(other.base()[5000], 42);
  other.unlink();  // only the creator unlinks; harmless here
}

TEST(WindowSegment, UnmapUnlinksWhatTheCreatorDidNotYet) {
  const std::string name = Segment::name_for("unit" + std::to_string(getpid()), 1, 3);
  {
    Segment s;
    ASSERT_TRUE(s.create(name, 4096).ok());
    EXPECT_TRUE(in_dev_shm(name));
  }
  EXPECT_FALSE(in_dev_shm(name));
  EXPECT_FALSE(Segment().open(name).ok());
}

TEST(LockWord, SharedHoldersExcludeAWriter) {
  alignas(64) std::int64_t word = 0;
  LockWord a(&word), b(&word);
  EXPECT_TRUE(a.try_shared());
  EXPECT_TRUE(b.try_shared());
  EXPECT_FALSE(b.try_exclusive());
  a.release_shared();
  EXPECT_FALSE(b.try_exclusive());
  b.release_shared();
  EXPECT_TRUE(b.try_exclusive());
  EXPECT_FALSE(a.try_shared());
  EXPECT_FALSE(a.try_exclusive());
  b.release_exclusive();
  EXPECT_EQ(word, 0);
  a.acquire_exclusive();  // free: returns at once
  a.release_exclusive();
}
