// The node segment's layout (coll/node_segment.hpp): every slot, writer and area is a line of its own and every
// payload a block of its own, runs and tags take a slot's areas in turn (persistent slots have more of them), two
// areas of a rotating slot share each payload, a pooled run's tags and runs take the writer's pool in turn whatever
// the slot, a block in a payload waits for that payload's last block only, and the name is gone once all members
// attached; a small block goes in its area's line, a larger one in the payload.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
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
        // Rotating: areas t and t + 4 of a run share a payload; persistent: none shares.
        EXPECT_EQ(p.payload, seg.place(slot, writer, tag, run + n * next).payload);
        if (rotating) {
          EXPECT_EQ(seg.place(slot, writer, tag + NodeSegment::kPayloadsPerWriter, run).payload, p.payload);
          if (tag < NodeSegment::kPayloadsPerWriter) payloads.push_back(p.payload);
        } else {
          EXPECT_EQ(seg.place(slot, writer, tag, run, 1).payload, p.payload) << "persistent slots have no pool";
          payloads.push_back(p.payload);
        }
      }
  }
  // The pool, whatever the slot: a pooled run k of a schedule with T tags puts tag t in payload (t + k T) % 16 of the
  // writer's own 16 when two runs fit (T <= 8), else in t % 16.
  for (int writer = 0; writer < 3; ++writer)
    for (int j = 0; j < NodeSegment::kPoolPayloadsPerWriter; ++j) {
      const char* pool = seg.place(0, writer, j, 0, 1).payload;
      payloads.push_back(pool);
      for (int slot = 0; slot < NodeSegment::kRotatingSlots; slot += 5)
        for (const uint64_t run : {uint64_t{3}, uint64_t{40}})
          for (const int tags : {1, 3, 8, 9, 40})
            for (int tag = 0; tag < tags; tag += 2) {
              const uint64_t first = tags <= 8 ? run * static_cast<uint64_t>(tags) : 0;
              const bool same = (first + static_cast<uint64_t>(tag)) % 16 == static_cast<uint64_t>(j);
              EXPECT_EQ(seg.place(slot, writer, tag, run, tags).payload == pool, same)
                  << "slot " << slot << " run " << run << " tag " << tag << " of " << tags << ", pool payload " << j;
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
  const NodeSegment::Place last = seg.place(0, 2, NodeSegment::kPoolPayloadsPerWriter - 1, 0, 1);
  last.payload[NodeSegment::kBlockBytes - 1] = 1;
  EXPECT_EQ(last.payload, payloads.back());
  // The last of the three to attach removed the name: attaching again makes a fresh, empty segment.
  Status s;
  std::shared_ptr<NodeSegment> again = NodeSegment::attach(job, 7, members, s);
  ASSERT_TRUE(s.ok()) << s.message;
  const NodeSegment::Place fresh = again->place(0, 2, NodeSegment::kPoolPayloadsPerWriter - 1, 0, 1);
  EXPECT_EQ(fresh.payload[NodeSegment::kBlockBytes - 1], 0);
  for (int i = 1; i < 3; ++i) NodeSegment::attach(job, 7, members, s);  // the others, so the name goes again
}

TEST(NodeSegment, SmallBlocksStayInTheAreasLine) {
  NodeSegment::Area area;
  char payload[64];
  const NodeSegment::Place p{&area, payload, 0};
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

// One process standing for the three members of a node: each attaches, so the name goes once the test has it.
std::shared_ptr<NodeSegment> attach_three(uint32_t context) {
  const std::string job = "unit" + std::to_string(getpid());
  std::shared_ptr<NodeSegment> seg;
  for (int i = 0; i < 3; ++i) {
    Status s;
    seg = NodeSegment::attach(job, context, {1, 4, 6}, s);
    EXPECT_TRUE(s.ok()) << s.message;
  }
  return seg;
}

// What a writer does to an area (coll/transport_port.cpp's publish_done) once free_for said yes.
void put(NodeSegment& seg, const NodeSegment::Place& p, uint64_t readers, std::size_t bytes) {
  NodeSegment::Area& a = *p.area;
  a.bytes = static_cast<uint32_t>(bytes);
  ++a.published;
  seg.put(p, bytes);
  a.mask.store(readers);
  a.use.fetch_add(1);
}
void put(NodeSegment& seg, NodeSegment::Area& a, uint64_t readers, std::size_t bytes) {
  put(seg, NodeSegment::Place{&a, nullptr, 0}, readers, std::min(bytes, NodeSegment::Area::kInlineBytes));
}

// A block in a payload waits for the payload's last block, wherever that went: the slot's other area (rotating
// payloads serve two) or another run's area (the pool); a small block in either leaves the payload alone.
TEST(NodeSegment, ABlockInThePayloadWaitsForThePayloadsLastBlock) {
  std::shared_ptr<NodeSegment> seg = attach_three(8);
  ASSERT_NE(seg, nullptr);
  const std::size_t small = NodeSegment::Area::kInlineBytes, large = small + 1;
  const int other_tag = NodeSegment::kPayloadsPerWriter;
  const int other_slot = 5;
  for (const bool pooled : {false, true}) {
    // The payload's previous user: area 4 of the slot, or in the pool tag 0 of run 5 (slot 5) before tag 3 of run 2.
    const NodeSegment::Place p = seg->place(0, 0, pooled ? 3 : 0, pooled ? 2 : 0, pooled ? 1 : 0);
    const NodeSegment::Place before = pooled ? seg->place(other_slot, 0, 0, 5, 1) : seg->place(0, 0, other_tag, 0);
    ASSERT_EQ(before.payload, p.payload);
    ASSERT_NE(before.area, p.area);
    EXPECT_TRUE(seg->free_for(p, large)) << "a segment's payloads start free";
    put(*seg, before, 0b110, large);  // the other block, in the payload, not taken yet by readers 1 and 2
    EXPECT_EQ(before.area->payload, before.payload_index);
    EXPECT_EQ(seg->block(*before.area), before.payload);
    seg->take(*before.area, 1);
    EXPECT_TRUE(seg->free_for(p, small));
    EXPECT_FALSE(seg->free_for(p, large));
    seg->take(*before.area, 2);
    EXPECT_TRUE(seg->free_for(p, large));
    put(*seg, before, 0b010, large);  // again, then a small block there: the payload is free once that came in
    EXPECT_FALSE(seg->free_for(p, large));
    seg->take(*before.area, 1);
    put(*seg, *before.area, 0b010, small);
    EXPECT_EQ(seg->block(*before.area), before.area->inline_block);
    EXPECT_TRUE(seg->free_for(p, large));
    put(*seg, p, 0b100, small);  // this area's own block not taken yet: nothing goes in
    EXPECT_FALSE(seg->free_for(p, small));
    EXPECT_FALSE(seg->free_for(p, large));
    seg->take(*p.area, 2);
    seg->take(*before.area, 1);
  }
  const NodeSegment::Place persistent = seg->place(NodeSegment::kRotatingSlots, 0, 0, 0);  // no other area
  put(*seg, persistent, 0, large);
  EXPECT_TRUE(seg->free_for(persistent, large));
}

// Only a run that begins while no other is under way in the process may use the pool.
TEST(NodeSegment, ThePoolIsForRunsThatDoNotOverlap) {
  std::shared_ptr<NodeSegment> seg = attach_three(10);
  ASSERT_NE(seg, nullptr);
  EXPECT_TRUE(seg->begin_run());
  EXPECT_FALSE(seg->begin_run());
  seg->end_run();
  EXPECT_FALSE(seg->begin_run()) << "the first run is still under way";
  seg->end_run();
  seg->end_run();
  EXPECT_TRUE(seg->begin_run());
  seg->end_run();
}

// A block's readers each mark their own line, away from the area all of them poll, and a mark names the block: a
// reader's mark for an earlier block in the area does not count for the next.
TEST(NodeSegment, ReadersMarkTheirOwnLines) {
  std::shared_ptr<NodeSegment> seg = attach_three(9);
  ASSERT_NE(seg, nullptr);
  for (const uint64_t readers : {uint64_t{0b110}, uint64_t{0b011}}) {
    const NodeSegment::Place p = seg->place(3, readers == 0b110 ? 0 : 2, 1, 0);
    const int first = __builtin_ctzll(readers), second = 63 - __builtin_clzll(readers);
    for (int block = 0; block < 3; ++block) {
      ASSERT_TRUE(seg->free_for(p, 8)) << "block " << block;
      put(*seg, *p.area, readers, 8);
      EXPECT_FALSE(seg->free_for(p, 8)) << "block " << block << ": the marks of the one before counted";
      char line[sizeof(NodeSegment::Area)];
      std::memcpy(line, static_cast<const void*>(p.area), sizeof line);
      seg->take(*p.area, first);
      EXPECT_EQ(std::memcmp(line, static_cast<const void*>(p.area), sizeof line), 0) << "a reader wrote the area";
      EXPECT_FALSE(seg->free_for(p, 8)) << "block " << block << ": taken by one of two readers";
      seg->take(*p.area, second);
    }
    EXPECT_TRUE(seg->free_for(p, 8));
  }
  // A block with one reader: its mark goes in the area's line, which that reader has anyway.
  const NodeSegment::Place p = seg->place(4, 1, 0, 0);
  put(*seg, *p.area, 0b001, 8);
  EXPECT_FALSE(seg->free_for(p, 8));
  seg->take(*p.area, 0);
  EXPECT_TRUE(seg->free_for(p, 8));
  EXPECT_EQ(p.area->taken.load(), p.area->published);
  // The marks lie between the areas and the payloads: the last reader's mark for the last area is not in a payload.
  const NodeSegment::Place last = seg->place(kSlots - 1, 2, NodeSegment::kPersistentAreasPerWriter - 1, 0);
  put(*seg, *last.area, 0b101, 8);
  seg->take(*last.area, 0);
  seg->take(*last.area, 2);
  EXPECT_TRUE(seg->free_for(last, 8));
  const char* first_payload = seg->place(0, 0, 0, 0).payload;
  EXPECT_TRUE(std::all_of(first_payload, first_payload + 64, [](char c) { return c == 0; }));
}

}  // namespace
}  // namespace strata::coll
