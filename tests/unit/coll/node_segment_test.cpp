// The node segment's layout (coll/node_segment.hpp): every slot, writer and area is a line of its own and every
// payload a block of its own, runs and tags take a slot's areas in turn (persistent slots have more of them), two
// areas of a rotating slot share each payload and wait for each other only for blocks that need it, and the name is
// gone once all members attached; a small block goes in its area's line, a larger one in the payload.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "coll/node_segment.hpp"

namespace strata::coll {
namespace {

constexpr int kSlots = NodeSegment::kRotatingSlots + NodeSegment::kPersistentSlots;

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
  std::vector<const char*> areas, payloads;
  for (int slot = 0; slot < kSlots; ++slot) {
    const bool rotating = slot < NodeSegment::kRotatingSlots;
    const int n = NodeSegment::areas_per_writer(slot);
    EXPECT_EQ(n, rotating ? NodeSegment::kAreasPerWriter : NodeSegment::kPersistentAreasPerWriter);
    // The runs that come back to this slot: every run to a persistent slot, every kRotatingSlots-th to a rotating one.
    const uint64_t run = rotating ? static_cast<uint64_t>(slot) : 0;
    const uint64_t next = rotating ? NodeSegment::kRotatingSlots : 1;
    auto area = [&](int writer, int tag, uint64_t r) { return seg.place(slot, writer, tag, r).area; };
    for (int writer = 0; writer < 3; ++writer)
      for (int tag = 0; tag < n; ++tag) {
        const NodeSegment::Place p = seg.place(slot, writer, tag, run);
        areas.push_back(reinterpret_cast<const char*>(p.area));
        // The slot's next run with tag t - 1 takes the area of this run with tag t; its next with the same tag
        // another, and so on until all n areas served that tag.
        if (tag > 0) {
          EXPECT_EQ(area(writer, tag - 1, run + next), p.area);
        }
        for (int later = 1; later < n; ++later) EXPECT_NE(area(writer, tag, run + later * next), p.area);
        EXPECT_EQ(area(writer, tag, run + n * next), p.area);
        EXPECT_EQ(area(writer, tag + n, run), p.area);
        // Rotating: areas t and t + 4 of a run share a payload and wait for each other; persistent: none shares.
        if (rotating) {
          const NodeSegment::Place other = seg.place(slot, writer, tag + NodeSegment::kPayloadsPerWriter, run);
          EXPECT_EQ(other.payload, p.payload);
          EXPECT_EQ(p.sharing, other.area);
          EXPECT_EQ(other.sharing, p.area);
          if (tag < NodeSegment::kPayloadsPerWriter) payloads.push_back(p.payload);
        } else {
          EXPECT_EQ(p.sharing, nullptr);
          payloads.push_back(p.payload);
        }
      }
  }
  std::sort(areas.begin(), areas.end());
  for (std::size_t i = 1; i < areas.size(); ++i)
    ASSERT_GE(static_cast<std::size_t>(areas[i] - areas[i - 1]), sizeof(NodeSegment::Area)) << "areas overlap";
  std::sort(payloads.begin(), payloads.end());
  for (std::size_t i = 1; i < payloads.size(); ++i)
    ASSERT_GE(static_cast<std::size_t>(payloads[i] - payloads[i - 1]), NodeSegment::kBlockBytes) << "payloads overlap";
  ASSERT_GE(payloads.front(), areas.back() + sizeof(NodeSegment::Area)) << "payloads overlap the areas";
  // Every payload is inside the same mapping: writing the last one's last byte must not fault.
  const NodeSegment::Place last = seg.place(kSlots - 1, 2, NodeSegment::kPersistentAreasPerWriter - 1, 0);
  last.payload[NodeSegment::kBlockBytes - 1] = 1;
  EXPECT_EQ(last.payload, payloads.back());
  // The last of the three to attach removed the name: attaching again makes a fresh, empty segment.
  Status s;
  std::shared_ptr<NodeSegment> again = NodeSegment::attach(job, 7, members, s);
  ASSERT_TRUE(s.ok()) << s.message;
  const NodeSegment::Place fresh = again->place(kSlots - 1, 2, NodeSegment::kPersistentAreasPerWriter - 1, 0);
  EXPECT_EQ(fresh.payload[NodeSegment::kBlockBytes - 1], 0);
  for (int i = 1; i < 3; ++i) NodeSegment::attach(job, 7, members, s);  // the others, so the name goes again
}

TEST(NodeSegment, SmallBlocksStayInTheAreasLine) {
  NodeSegment::Area area, other;
  char payload[64];
  const NodeSegment::Place p{&area, payload, &other, 0};
  const char* line = reinterpret_cast<const char*>(&area);
  const char* past_fields = reinterpret_cast<const char*>(&area.bytes) + sizeof area.bytes;
  for (std::size_t bytes : {std::size_t{0}, std::size_t{8}, NodeSegment::Area::kInlineBytes}) {
    const char* at = p.block(bytes);
    EXPECT_GE(at, past_fields) << bytes << " bytes overlap the description";
    EXPECT_LE(at + bytes, line + 64) << bytes << " bytes leave the description's line";
  }
  EXPECT_EQ(p.block(NodeSegment::Area::kInlineBytes + 1), payload);
  EXPECT_EQ(p.block(NodeSegment::kBlockBytes), payload);
}

TEST(NodeSegment, ABlockInThePayloadWaitsForItsOtherArea) {
  NodeSegment::Area area, other;
  const NodeSegment::Place p{&area, nullptr, &other, 0};
  const std::size_t small = NodeSegment::Area::kInlineBytes, large = small + 1;
  other.bytes = large;  // the other area's block, in the payload, not taken yet by its 2 readers
  other.readers = 2;
  other.acks = 1;
  EXPECT_TRUE(p.free_for(small));
  EXPECT_FALSE(p.free_for(large));
  other.acks = 2;
  EXPECT_TRUE(p.free_for(large));
  other.acks = 0;
  other.bytes = small;  // a small block there leaves the payload alone
  EXPECT_TRUE(p.free_for(large));
  area.readers = 1;  // this area's own block not taken yet: nothing goes in
  EXPECT_FALSE(p.free_for(small));
  EXPECT_FALSE(p.free_for(large));
  const NodeSegment::Place persistent{&other, nullptr, nullptr, 0};  // no other area: its own block only
  other.bytes = large;
  other.readers = 0;
  EXPECT_TRUE(persistent.free_for(large));
}

}  // namespace
}  // namespace strata::coll
