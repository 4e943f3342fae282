// Level names (DESIGN.md, "Hardware levels and splits"): canonical hwloc:// names of MPI-5's advice, and the values
// parse_level accepts: those names, the bare names and the aliases Node, Machine, Socket, NUMA, L3, L2, L1, in any
// case. Everything else is rejected.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "topo/levels.hpp"

using namespace strata::topo;

namespace {

struct Named {
  Level level;
  const char* canonical;
  const char* bare;
};

// The Node level is hwloc's Machine object, hence "hwloc://Machine".
// The network levels have no hwloc object: Strata's own URIs in the same form.
const std::vector<Named> kExpected = {
    {Level::Rack, "strata://Rack", "Rack"},            {Level::Switch, "strata://Switch", "Switch"},
    {Level::Node, "hwloc://Machine", "Node"},          {Level::Package, "hwloc://Package", "Package"},
    {Level::NUMANode, "hwloc://NUMANode", "NUMANode"}, {Level::L3Cache, "hwloc://L3Cache", "L3Cache"},
    {Level::L2Cache, "hwloc://L2Cache", "L2Cache"},    {Level::L1Cache, "hwloc://L1Cache", "L1Cache"},
    {Level::Core, "hwloc://Core", "Core"},
};

TEST(Levels, OrderIsTopToBottom) {
  EXPECT_EQ(kAllLevels[0], Level::Rack);
  EXPECT_EQ(kAllLevels[1], Level::Switch);
  EXPECT_EQ(kAllLevels[2], Level::Node);
  EXPECT_EQ(kAllLevels[3], Level::Package);
  EXPECT_EQ(kAllLevels[4], Level::NUMANode);
  EXPECT_EQ(kAllLevels[5], Level::L3Cache);
  EXPECT_EQ(kAllLevels[6], Level::L2Cache);
  EXPECT_EQ(kAllLevels[7], Level::L1Cache);
  EXPECT_EQ(kAllLevels[8], Level::Core);
  EXPECT_EQ(kAllLevels[9], Level::PU);
  for (int i = 0; i < kLevelCount; ++i) EXPECT_EQ(index(kAllLevels[i]), i);
}

TEST(Levels, NetworkLevelsAreTheOnesAboveTheNode) {
  EXPECT_EQ(kNetworkLevels[0], Level::Rack);
  EXPECT_EQ(kNetworkLevels[1], Level::Switch);
  for (Level l : kAllLevels) EXPECT_EQ(network(l), l == Level::Rack || l == Level::Switch) << short_name(l);
}

TEST(Levels, NetworkNamesTakeTheirOwnPrefixOnly) {
  const std::vector<std::pair<std::string, Level>> good = {
      {"rack", Level::Rack},           {"RACK", Level::Rack},          {"strata://rack", Level::Rack},
      {"Strata://Rack", Level::Rack},  {"switch", Level::Switch},      {"SWITCH", Level::Switch},
      {"strata://SWITCH", Level::Switch}};
  for (const auto& [text, level] : good) {
    auto parsed = parse_level(text);
    ASSERT_TRUE(parsed.has_value()) << text;
    EXPECT_EQ(*parsed, level) << text;
  }
  // hwloc has no racks or switches, and strata:// names no hwloc object.
  for (const char* bad : {"hwloc://Rack", "hwloc://Switch", "strata://Package", "strata://Node", "strata://",
                          "racks", "switches", "strata:Rack"})
    EXPECT_FALSE(parse_level(bad).has_value()) << bad;
}

TEST(Levels, CanonicalNames) {
  for (const Named& n : kExpected) EXPECT_EQ(canonical_name(n.level), n.canonical);
  EXPECT_EQ(canonical_name(Level::PU), "hwloc://PU");
}

TEST(Levels, ShortNames) {
  for (const Named& n : kExpected) EXPECT_EQ(short_name(n.level), n.bare);
  EXPECT_EQ(short_name(Level::PU), "PU");
}

TEST(Levels, ParseCanonicalNames) {
  for (const Named& n : kExpected) {
    auto parsed = parse_level(n.canonical);
    ASSERT_TRUE(parsed.has_value()) << n.canonical;
    EXPECT_EQ(*parsed, n.level) << n.canonical;
  }
}

TEST(Levels, ParseBareNames) {
  for (const Named& n : kExpected) {
    auto parsed = parse_level(n.bare);
    ASSERT_TRUE(parsed.has_value()) << n.bare;
    EXPECT_EQ(*parsed, n.level) << n.bare;
  }
}

TEST(Levels, ParseAliases) {
  const std::vector<std::pair<std::string, Level>> aliases = {
      {"Node", Level::Node}, {"Machine", Level::Node}, {"Socket", Level::Package}, {"NUMA", Level::NUMANode},
      {"L3", Level::L3Cache}, {"L2", Level::L2Cache}, {"L1", Level::L1Cache},
      // with the prefix too
      {"hwloc://Node", Level::Node}, {"hwloc://Socket", Level::Package}, {"hwloc://NUMA", Level::NUMANode},
      {"hwloc://L3", Level::L3Cache}, {"hwloc://L2", Level::L2Cache}, {"hwloc://L1", Level::L1Cache}};
  for (const auto& [text, level] : aliases) {
    auto parsed = parse_level(text);
    ASSERT_TRUE(parsed.has_value()) << text;
    EXPECT_EQ(*parsed, level) << text;
  }
}

TEST(Levels, ParseIsCaseInsensitive) {
  const std::vector<std::pair<std::string, Level>> spellings = {
      {"HWLOC://MACHINE", Level::Node},    {"hwloc://package", Level::Package}, {"Hwloc://NumaNode", Level::NUMANode},
      {"hwloc://l3cache", Level::L3Cache}, {"HWLOC://L2CACHE", Level::L2Cache}, {"hwloc://l1CACHE", Level::L1Cache},
      {"hwloc://core", Level::Core},       {"node", Level::Node},              {"NODE", Level::Node},
      {"machine", Level::Node},            {"SOCKET", Level::Package},         {"socket", Level::Package},
      {"numa", Level::NUMANode},           {"Numa", Level::NUMANode},          {"l3", Level::L3Cache},
      {"l2", Level::L2Cache},              {"l1", Level::L1Cache},             {"CORE", Level::Core},
      {"package", Level::Package}};
  for (const auto& [text, level] : spellings) {
    auto parsed = parse_level(text);
    ASSERT_TRUE(parsed.has_value()) << text;
    EXPECT_EQ(*parsed, level) << text;
  }
}

TEST(Levels, ParseRejectsUnknownAndEmpty) {
  for (const char* bad : {"", "hwloc://", "hwloc:", "L4", "L4Cache", "Board", "Group", "Die", "Cores", "Sockets",
                          "hwloc:Package", "hwloc:/Package", "hwloc//Package", "hwloc://hwloc://Package", "://Package",
                          " Package", "Package ", "Pack age", "NUMANodes", "L", "hwloc://L", "mpi://Package",
                          "Package\n"}) {
    EXPECT_FALSE(parse_level(bad).has_value()) << "\"" << bad << "\"";
  }
}

}  // namespace
