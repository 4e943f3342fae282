// The node segment's layout (coll/node_segment.hpp): every slot, writer and area is a block of its own, runs and tags
// take a slot's areas in turn (persistent slots have more of them), and the name is gone once all members attached;
// a small block shares the line of its area's description, a larger one follows it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "coll/node_segment.hpp"

namespace strata::coll {
namespace {

constexpr int kSlots = NodeSegment::kRotatingSlots + NodeSegment::kPersistentSlots;
constexpr std::size_t kStride = sizeof(NodeSegment::Area) + NodeSegment::kAreaBytes;

TEST(NodeSegment, AreasAreDisjointAndTakenInTurn) {
  const std::string job = "unit" + std::to_string(getpid());
  const std::vector<int> members{2, 5, 9};
  std::vector<std::shared_ptr<NodeSegment>> attached;
  for (std::size_t i = 0; i < members.size(); ++i) {  // one process standing for the three members
    Status s;
    attached.push_back(NodeSegment::attach(job, 7, members, s));
    ASSERT_TRUE(s.ok()) << s.message;
    ASSERT_NE(attached.back(), nullptr);
  }
  NodeSegment& seg = *attached.front();
  std::vector<const char*> at;
  for (int slot = 0; slot < kSlots; ++slot) {
    const int n = NodeSegment::areas_per_writer(slot);
    EXPECT_EQ(n, slot < NodeSegment::kRotatingSlots ? NodeSegment::kAreasPerWriter
                                                    : NodeSegment::kPersistentAreasPerWriter);
    // The runs that come back to this slot: every run to a persistent slot, every kRotatingSlots-th to a rotating one.
    const uint64_t run = slot < NodeSegment::kRotatingSlots ? static_cast<uint64_t>(slot) : 0;
    const uint64_t next = slot < NodeSegment::kRotatingSlots ? NodeSegment::kRotatingSlots : 1;
    for (int writer = 0; writer < 3; ++writer)
      for (int tag = 0; tag < n; ++tag) {
        at.push_back(reinterpret_cast<const char*>(&seg.area(slot, writer, tag, run)));
        // The slot's next run with tag t - 1 takes the area of this run with tag t; its next with the same tag another,
        // and so on until all n areas served that tag.
        if (tag > 0) {
          EXPECT_EQ(&seg.area(slot, writer, tag - 1, run + next), &seg.area(slot, writer, tag, run));
        }
        for (int later = 1; later < n; ++later)
          EXPECT_NE(&seg.area(slot, writer, tag, run + later * next), &seg.area(slot, writer, tag, run));
        EXPECT_EQ(&seg.area(slot, writer, tag, run + n * next), &seg.area(slot, writer, tag, run));
        EXPECT_EQ(&seg.area(slot, writer, tag + n, run), &seg.area(slot, writer, tag, run));
      }
  }
  std::sort(at.begin(), at.end());
  for (std::size_t i = 1; i < at.size(); ++i)
    ASSERT_GE(static_cast<std::size_t>(at[i] - at[i - 1]), kStride) << "areas " << i - 1 << " and " << i << " overlap";
  // Every area is inside the same mapping: writing the last one's payload must not fault.
  NodeSegment::Area& last = seg.area(kSlots - 1, 2, NodeSegment::kPersistentAreasPerWriter - 1, 0);
  last.payload(NodeSegment::kAreaBytes)[NodeSegment::kAreaBytes - 1] = 1;
  EXPECT_EQ(reinterpret_cast<const char*>(&last), at.back());
  // The last of the three to attach removed the name: attaching again makes a fresh, empty segment.
  Status s;
  std::shared_ptr<NodeSegment> again = NodeSegment::attach(job, 7, members, s);
  ASSERT_TRUE(s.ok()) << s.message;
  NodeSegment::Area& fresh = again->area(kSlots - 1, 2, NodeSegment::kPersistentAreasPerWriter - 1, 0);
  EXPECT_EQ(fresh.payload(NodeSegment::kAreaBytes)[NodeSegment::kAreaBytes - 1], 0);
  for (int i = 1; i < 3; ++i) NodeSegment::attach(job, 7, members, s);  // the others, so the name goes again
}

TEST(NodeSegment, SmallBlocksShareTheDescriptionsLine) {
  NodeSegment::Area area;
  const char* line = reinterpret_cast<const char*>(&area);
  const char* past_fields = reinterpret_cast<const char*>(&area.bytes) + sizeof area.bytes;
  for (std::size_t bytes : {std::size_t{0}, std::size_t{8}, NodeSegment::Area::kInlineBytes}) {
    const char* at = area.payload(bytes);
    EXPECT_GE(at, past_fields) << bytes << " bytes overlap the description";
    EXPECT_LE(at + bytes, line + 64) << bytes << " bytes leave the description's line";
  }
  EXPECT_EQ(area.payload(NodeSegment::Area::kInlineBytes + 1), line + sizeof area);
  EXPECT_EQ(area.payload(NodeSegment::kAreaBytes), line + sizeof area);
}

}  // namespace
}  // namespace strata::coll
