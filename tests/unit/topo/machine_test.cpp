// Machine: a node's hwloc topology reduced to each level's instances (index, PU set), with absent and redundant
// levels and boards. Expectations come from the papers' machines, worked out by hand:
//  - goglin2018 section 5: 2 NumaNodes, each one package of 4 cores with its own L3, an L2 per pair of cores
//    (and an L1 per core in the synthetic description);
//  - ma section IV-A: IG (2 boards x 4 sockets x 6 cores) and Zoot (4 sockets x 4 cores, no L3, one memory
//    controller);
//  - a hand-checked hwloc v2 XML file (data/two_packages_smt.xml): 2 packages, each with one NUMA node and one L3,
//    two L2 per package, 2 cores per L2, 2 PUs per core, no L1.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "topo/machine.hpp"
#include "topo_test_util.hpp"

using namespace strata;
using namespace strata::topo;
using namespace strata::topo::testing;

namespace {

// Instance i of a level with `per` PUs each covers PUs [i*per, (i+1)*per), and is named i.
void expect_regular(const Machine& m, Level l, int count, int per) {
  const auto& inst = m.instances(l);
  ASSERT_EQ(static_cast<int>(inst.size()), count) << short_name(l);
  for (int i = 0; i < count; ++i) {
    EXPECT_EQ(inst[i].index, i) << short_name(l) << " #" << i;
    EXPECT_EQ(inst[i].cpuset, pu_range(i * per, (i + 1) * per - 1))
        << short_name(l) << " #" << i << " has " << inst[i].cpuset.list();
  }
}

void expect_same_machine(const Machine& a, const Machine& b) {
  EXPECT_EQ(a.whole(), b.whole());
  for (Level l : kAllLevels) {
    ASSERT_EQ(a.instances(l).size(), b.instances(l).size()) << short_name(l);
    for (std::size_t i = 0; i < a.instances(l).size(); ++i) {
      EXPECT_EQ(a.instances(l)[i].index, b.instances(l)[i].index) << short_name(l) << " #" << i;
      EXPECT_EQ(a.instances(l)[i].cpuset, b.instances(l)[i].cpuset) << short_name(l) << " #" << i;
    }
    EXPECT_EQ(a.redundant(l), b.redundant(l)) << short_name(l);
  }
  ASSERT_EQ(a.boards().size(), b.boards().size());
  for (std::size_t i = 0; i < a.boards().size(); ++i) EXPECT_EQ(a.boards()[i], b.boards()[i]);
}

// ---- goglin2018's node ----------------------------------------------------------------------------------------

TEST(HierarchicalModelNode, InstancesPerLevel) {
  Machine m = synthetic(kHierarchicalNode);
  EXPECT_EQ(m.pu_count(), 8);
  EXPECT_EQ(m.whole(), pu_range(0, 7));
  EXPECT_TRUE(m.simulated());
  expect_regular(m, Level::Node, 1, 8);
  expect_regular(m, Level::Package, 2, 4);   // one package per NumaNode
  expect_regular(m, Level::NUMANode, 2, 4);  // NumaNode 0: cores 0-3, NumaNode 1: cores 4-7
  expect_regular(m, Level::L3Cache, 2, 4);   // dedicated L3 per package
  expect_regular(m, Level::L2Cache, 4, 2);   // "hence 4 L2 caches in total", one per pair of cores
  expect_regular(m, Level::L1Cache, 8, 1);
  expect_regular(m, Level::Core, 8, 1);
  expect_regular(m, Level::PU, 8, 1);
  for (Level l : kAllLevels) EXPECT_EQ(m.present(l), !network(l)) << short_name(l);  // no machine has racks
}

TEST(HierarchicalModelNode, RedundantLevels) {
  // The paper's "NumaNode/Package/L3" level: three names for the same PU sets. With Package above NUMANode and L3
  // in Strata's order, NUMANode and L3Cache repeat Package. L1 is per core, so Core repeats L1, and PU repeats both.
  Machine m = synthetic(kHierarchicalNode);
  EXPECT_FALSE(m.redundant(Level::Node));
  EXPECT_FALSE(m.redundant(Level::Package));
  EXPECT_TRUE(m.redundant(Level::NUMANode));
  EXPECT_TRUE(m.redundant(Level::L3Cache));
  EXPECT_FALSE(m.redundant(Level::L2Cache));
  EXPECT_FALSE(m.redundant(Level::L1Cache));
  EXPECT_TRUE(m.redundant(Level::Core));
  EXPECT_TRUE(m.redundant(Level::PU));
}

TEST(HierarchicalModelNode, OneBoard) {
  Machine m = synthetic(kHierarchicalNode);
  ASSERT_EQ(m.boards().size(), 1u);
  EXPECT_EQ(m.boards()[0], pu_range(0, 7));
}

// ---- ma's machines ----------------------------------------------------------------------------------------------

TEST(IGMachine, InstancesAndBoards) {
  Machine m = synthetic(kIG);
  EXPECT_EQ(m.pu_count(), 48);
  expect_regular(m, Level::Node, 1, 48);
  expect_regular(m, Level::Package, 8, 6);   // 8 sockets of 6 cores
  expect_regular(m, Level::NUMANode, 8, 6);  // one memory controller per socket
  expect_regular(m, Level::L3Cache, 8, 6);   // six cores share the socket's L3
  expect_regular(m, Level::L2Cache, 48, 1);  // L1 and L2 not shared with other cores
  expect_regular(m, Level::L1Cache, 48, 1);
  expect_regular(m, Level::Core, 48, 1);
  EXPECT_TRUE(m.redundant(Level::NUMANode));
  EXPECT_TRUE(m.redundant(Level::L3Cache));
  EXPECT_FALSE(m.redundant(Level::L2Cache));
  EXPECT_TRUE(m.redundant(Level::L1Cache));
  EXPECT_TRUE(m.redundant(Level::Core));
  // Two boards of 4 sockets each.
  ASSERT_EQ(m.boards().size(), 2u);
  EXPECT_EQ(m.boards()[0], pu_range(0, 23));
  EXPECT_EQ(m.boards()[1], pu_range(24, 47));
}

TEST(ZootMachine, NoL3AndOneMemoryController) {
  Machine m = synthetic(kZoot);
  EXPECT_EQ(m.pu_count(), 16);
  expect_regular(m, Level::Package, 4, 4);
  expect_regular(m, Level::L2Cache, 8, 2);  // L2 shared between pairs of cores
  expect_regular(m, Level::Core, 16, 1);
  // No L3 at all: absent, not merely redundant.
  EXPECT_FALSE(m.present(Level::L3Cache));
  EXPECT_TRUE(m.instances(Level::L3Cache).empty());
  EXPECT_FALSE(m.redundant(Level::L3Cache));
  // A single memory controller: one NUMA instance spanning the machine, hence redundant with Node.
  expect_regular(m, Level::NUMANode, 1, 16);
  EXPECT_TRUE(m.redundant(Level::NUMANode));
  ASSERT_EQ(m.boards().size(), 1u);
  EXPECT_EQ(m.boards()[0], pu_range(0, 15));
}

TEST(ZootMachine, InterleavedOsNumbering) {
  // ma section III: on Zoot "logical consecutive core IDs belong to different sockets", i.e. P#i is on socket i%4.
  Machine m = synthetic("pack:4 l2:2 l1:2 core:1 pu:1(indexes=0,4,8,12,1,5,9,13,2,6,10,14,3,7,11,15)");
  const auto& packages = m.instances(Level::Package);
  ASSERT_EQ(packages.size(), 4u);
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(packages[s].index, s);
    EXPECT_EQ(packages[s].cpuset, pus({s, s + 4, s + 8, s + 12})) << packages[s].cpuset.list();
  }
  const auto& l2 = m.instances(Level::L2Cache);
  ASSERT_EQ(l2.size(), 8u);
  EXPECT_EQ(l2[0].cpuset, pus({0, 4}));
  EXPECT_EQ(l2[1].cpuset, pus({8, 12}));
  EXPECT_EQ(l2[7].cpuset, pus({11, 15}));
}

TEST(Machine, TwoNumaNodesPerPackage) {
  // Each package has two L3, each with its own NUMA node: 4 NUMA instances, not redundant with Package; the L3 are
  // the NUMA nodes' PU sets again, hence redundant.
  Machine m = synthetic("pack:2 l3:2 [numa] core:2 pu:1");
  expect_regular(m, Level::Package, 2, 4);
  expect_regular(m, Level::NUMANode, 4, 2);
  expect_regular(m, Level::L3Cache, 4, 2);
  EXPECT_FALSE(m.redundant(Level::NUMANode));
  EXPECT_TRUE(m.redundant(Level::L3Cache));
  EXPECT_FALSE(m.present(Level::L2Cache));
  EXPECT_FALSE(m.present(Level::L1Cache));
}

TEST(Machine, ReloadingForgetsThePreviousMachine) {
  // Loading into a Machine that already holds a topology must give what a fresh Machine gets.
  Machine fresh = synthetic("pack:2 l3:2 [numa] core:2 pu:1");
  Machine reused = synthetic(kHierarchicalNode);  // NUMANode, L3Cache, Core, PU redundant here
  ASSERT_TRUE(Machine::from_synthetic("pack:2 l3:2 [numa] core:2 pu:1", reused).ok());
  expect_same_machine(fresh, reused);
  EXPECT_FALSE(reused.redundant(Level::NUMANode));
  EXPECT_FALSE(reused.redundant(Level::Core));  // no L1 here, and the L3 above have 2 cores each
}

// ---- XML ----------------------------------------------------------------------------------------------------------

const std::string kXmlFile = STRATA_TOPO_TEST_DATA "/two_packages_smt.xml";

TEST(MachineXml, LoadsCommittedFile) {
  Machine m;
  Status s = Machine::from_xml_file(kXmlFile, m);
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_TRUE(m.simulated());
  EXPECT_EQ(m.pu_count(), 16);
  expect_regular(m, Level::Node, 1, 16);
  expect_regular(m, Level::Package, 2, 8);
  expect_regular(m, Level::NUMANode, 2, 8);
  expect_regular(m, Level::L3Cache, 2, 8);
  expect_regular(m, Level::L2Cache, 4, 4);
  expect_regular(m, Level::Core, 8, 2);  // 2 hardware threads per core
  expect_regular(m, Level::PU, 16, 1);
  EXPECT_FALSE(m.present(Level::L1Cache));
  EXPECT_TRUE(m.redundant(Level::NUMANode));
  EXPECT_TRUE(m.redundant(Level::L3Cache));
  EXPECT_FALSE(m.redundant(Level::L2Cache));
  EXPECT_FALSE(m.redundant(Level::Core));
  EXPECT_FALSE(m.redundant(Level::PU));
  EXPECT_FALSE(m.redundant(Level::L1Cache));  // absent is not redundant
}

TEST(MachineXml, RoundTripThroughToXml) {
  for (const std::string& description : {kHierarchicalNode, kIG, kZoot, std::string("pack:2 l3:2 [numa] core:2 pu:2")}) {
    Machine original = synthetic(description);
    const std::string xml = original.to_xml();
    ASSERT_FALSE(xml.empty()) << description;
    Machine back;
    Status s = Machine::from_xml(xml, back);
    ASSERT_TRUE(s.ok()) << description << ": " << s.message;
    EXPECT_TRUE(back.simulated());
    SCOPED_TRACE(description);
    expect_same_machine(original, back);
  }
}

TEST(MachineXml, FileRoundTrip) {
  Machine from_file;
  ASSERT_TRUE(Machine::from_xml_file(kXmlFile, from_file).ok());
  Machine back;
  ASSERT_TRUE(Machine::from_xml(from_file.to_xml(), back).ok());
  expect_same_machine(from_file, back);
}

// ---- errors -------------------------------------------------------------------------------------------------------

TEST(MachineErrors, MalformedSyntheticDescription) {
  for (const std::string bad : {"pack:2 bogus:3 pu:1", "pack:two pu:1", "pack:2 core:2", "pack:0 pu:1"}) {
    Machine m;
    Status s = Machine::from_synthetic(bad, m);
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.error_class, 0) << bad;
    EXPECT_NE(s.message.find(bad), std::string::npos) << "message \"" << s.message << "\" should name " << bad;
  }
}

TEST(MachineErrors, MissingXmlFile) {
  const std::string path = STRATA_TOPO_TEST_DATA "/no_such_topology.xml";
  Machine m;
  Status s = Machine::from_xml_file(path, m);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find(path), std::string::npos) << s.message;
}

TEST(MachineErrors, CorruptXmlFile) {
  const std::string path = ::testing::TempDir() + "strata_topo_corrupt.xml";
  {
    std::ofstream out(path);
    out << "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n  <object type=\"Machine\" cpuset=\"0x0000000";
  }
  Machine m;
  Status s = Machine::from_xml_file(path, m);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find(path), std::string::npos) << s.message;
  std::remove(path.c_str());
}

TEST(MachineErrors, CorruptXmlBuffer) {
  Machine m;
  EXPECT_FALSE(Machine::from_xml("this is not XML", m).ok());
  EXPECT_FALSE(Machine::from_xml("", m).ok());
}

TEST(MachineErrors, FailedLoadKeepsThePreviousMachine) {
  Machine m = synthetic(kHierarchicalNode);
  EXPECT_FALSE(Machine::from_synthetic("pack:2 bogus:3 pu:1", m).ok());
  EXPECT_FALSE(Machine::from_xml_file(STRATA_TOPO_TEST_DATA "/no_such_topology.xml", m).ok());
  expect_same_machine(synthetic(kHierarchicalNode), m);
}

}  // namespace
