// topo/network.*: the --network description (parse_network), the nodes spread over its tree in block order
// (spread_nodes), and the PMIX_FABRIC_GROUPS syntax the launcher publishes it in (format_groups, parse_groups).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "topo/network.hpp"

using namespace strata::topo;

namespace {

std::vector<NetworkLevel> parsed(const std::string& text) {
  std::string why;
  auto levels = parse_network(text, why);
  EXPECT_TRUE(levels) << text << ": " << why;
  return levels ? *levels : std::vector<NetworkLevel>{};
}

std::string refusal(const std::string& text) {
  std::string why;
  EXPECT_FALSE(parse_network(text, why)) << text;
  return why;
}

std::string bad_fanout(const std::string& name, const std::string& word) {
  return "level '" + name + "' needs a positive integer fan-out (" + name +
         ":N, or node counts N,N,... on the lowest level), got '" + word + "'";
}

std::vector<std::string> names(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back("node" + std::to_string(i));
  return out;
}

}  // namespace

TEST(NetworkDescription, LevelsTopToBottomWithFanouts) {
  const auto both = parsed("rack:2 switch:3");
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].level, Level::Rack);
  EXPECT_EQ(both[0].fanout, 2);
  EXPECT_EQ(both[1].level, Level::Switch);
  EXPECT_EQ(both[1].fanout, 3);
  EXPECT_EQ(lowest_instances(both), 6);
  const auto spelled = parsed("  RACK:1\tStrata://Switch:4 ");
  ASSERT_EQ(spelled.size(), 2u);
  EXPECT_EQ(spelled[1].level, Level::Switch);
  EXPECT_EQ(lowest_instances(spelled), 4);
  const auto one = parsed("switch:5");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].level, Level::Switch);
}

TEST(NetworkDescription, BadInputSaysWhat) {
  EXPECT_EQ(refusal("pod:2"), "unknown network level 'pod' in 'pod:2' (levels, top to bottom: rack, switch)");
  EXPECT_EQ(refusal("node:2"), "unknown network level 'node' in 'node:2' (levels, top to bottom: rack, switch)");
  EXPECT_EQ(refusal("rack:0"), bad_fanout("rack", "rack:0"));
  EXPECT_EQ(refusal("rack:-1"), bad_fanout("rack", "rack:-1"));
  EXPECT_EQ(refusal("rack:two"), bad_fanout("rack", "rack:two"));
  EXPECT_EQ(refusal("rack"), bad_fanout("rack", "rack"));
  EXPECT_EQ(refusal("switch:2x"), bad_fanout("switch", "switch:2x"));
  EXPECT_EQ(refusal("rack:2 Rack:2"), "level rack appears twice");
  EXPECT_EQ(refusal("switch:2 rack:2"), "level rack must come before switch (levels, top to bottom: rack, switch)");
  EXPECT_EQ(refusal(""), "no levels given (e.g. \"rack:2 switch:4\"; levels, top to bottom: rack, switch)");
  EXPECT_EQ(refusal("   "), "no levels given (e.g. \"rack:2 switch:4\"; levels, top to bottom: rack, switch)");
}

TEST(NetworkSpread, BlockOrderWithJobWideIndexes) {
  std::string why;
  const auto net = spread_nodes(parsed("rack:2 switch:2"), 8, why);
  ASSERT_TRUE(net) << why;
  EXPECT_EQ(net->of_node[index(Level::Rack)], (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(net->of_node[index(Level::Switch)], (std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_TRUE(net->present(Level::Rack));
  EXPECT_FALSE(net->present(Level::Node));
  EXPECT_EQ(net->instance(Level::Switch, 5), 2);
  EXPECT_EQ(net->instance(Level::Switch, 8), kNotConfined);  // no such node
  Placement p;
  p.node = 6;
  net->place(p);
  EXPECT_EQ(p.at(Level::Rack), 1);
  EXPECT_EQ(p.at(Level::Switch), 3);
}

TEST(NetworkSpread, OneLevelLeavesTheOtherAbsent) {
  std::string why;
  const auto net = spread_nodes(parsed("switch:3"), 3, why);
  ASSERT_TRUE(net) << why;
  EXPECT_FALSE(net->present(Level::Rack));
  EXPECT_EQ(net->instance(Level::Rack, 0), kAbsent);
  EXPECT_EQ(net->of_node[index(Level::Switch)], (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(Network{}.empty());
  EXPECT_FALSE(net->empty());
}

TEST(NetworkSpread, NodeCountMustBeAMultipleOfTheLowestLevel) {
  std::string why;
  EXPECT_FALSE(spread_nodes(parsed("rack:2 switch:2"), 6, why));
  EXPECT_EQ(why, "6 nodes cannot be spread evenly over 4 switch instances (the node count must be a multiple of the "
                 "product of the fan-outs)");
  EXPECT_FALSE(spread_nodes(parsed("rack:3"), 2, why));
  EXPECT_EQ(why, "2 nodes cannot be spread evenly over 3 rack instances (the node count must be a multiple of the "
                 "product of the fan-outs)");
  EXPECT_TRUE(spread_nodes(parsed("rack:3"), 9, why));
}

TEST(NetworkGroups, FormatAndParseRoundTrip) {
  const std::vector<int> switches = {0, 0, 1, 1, 2, 2};
  const std::string text = format_groups(switches, names(6));
  EXPECT_EQ(text, "0:node0,node1;1:node2,node3;2:node4,node5");
  auto back = parse_groups(text, names(6));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, switches);
}

TEST(NetworkGroups, ParseMapsNamesToNodeIds) {
  // The PMIx standard's own example; our job has only some of those nodes, in another order.
  const std::string example = "0:node000,node002,node004,node006;1:node001,node003,node005,node007";
  auto groups = parse_groups(example, {"node003", "node000", "node009"});
  ASSERT_TRUE(groups);
  EXPECT_EQ(*groups, (std::vector<int>{1, 0, kNotConfined}));
}

TEST(NetworkGroups, ParseRefusesMalformedText) {
  for (const char* bad : {"", "node0", "0:", "x:node0", "-1:node0", "0:node0,,node1", "0:node0;1:node0",
                          "0:node0;", "0 node0"})
    EXPECT_FALSE(parse_groups(bad, names(2))) << "\"" << bad << "\"";
}

TEST(NetworkSpread, TheLowestLevelMayListItsNodeCounts) {
  // The hierarchical-model paper's NTW24E5: 24 nodes on switches of 12, 6, 4 and 2 nodes.
  std::string why;
  const auto levels = parsed("switch:12,6,4,2");
  ASSERT_EQ(levels.size(), 1u);
  EXPECT_EQ(levels[0].fanout, 4);
  EXPECT_EQ(levels[0].node_counts, (std::vector<int>{12, 6, 4, 2}));
  const auto net = spread_nodes(levels, 24, why);
  ASSERT_TRUE(net) << why;
  std::vector<int> want;
  for (int s : {0, 1, 2, 3})
    for (int k = 0; k < std::vector<int>{12, 6, 4, 2}[s]; ++k) want.push_back(s);
  EXPECT_EQ(net->of_node[index(Level::Switch)], want);
  EXPECT_FALSE(spread_nodes(levels, 23, why));
  EXPECT_EQ(why, "the switch node counts add up to 24, not 23 nodes");

  // Under racks, the switches go to the racks in equal blocks: 2 each.
  const auto racked = parsed("rack:2 switch:1,3,2,2");
  ASSERT_EQ(racked.size(), 2u);
  EXPECT_EQ(racked[1].fanout, 2);
  const auto tree = spread_nodes(racked, 8, why);
  ASSERT_TRUE(tree) << why;
  EXPECT_EQ(tree->of_node[index(Level::Switch)], (std::vector<int>{0, 1, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(tree->of_node[index(Level::Rack)], (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
}

TEST(NetworkDescription, NodeCountListsOnlyOnTheLowestLevelAndDividedEvenly) {
  EXPECT_EQ(refusal("rack:2,2 switch:2"), "only the lowest level may list node counts, not rack");
  EXPECT_EQ(refusal("rack:2 switch:1,2,3"), "3 switch node counts cannot be shared evenly by 2 rack instances");
  EXPECT_EQ(refusal("switch:2,0"), bad_fanout("switch", "switch:2,0"));
  EXPECT_EQ(refusal("switch:2,"), bad_fanout("switch", "switch:2,"));
}
