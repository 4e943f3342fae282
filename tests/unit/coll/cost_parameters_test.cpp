// The cost file (coll/cost_parameters.hpp): what format writes, read gives back; every way a file can be wrong is
// refused with the file, line and token named; STRATA_COST_FILE's value picks the file or, with a warning, the
// defaults.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "coll/cost_parameters.hpp"

using namespace strata;
using namespace strata::coll;

namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "strata_costs_" + name;
  std::ofstream(path) << text;
  return path;
}

const char* const kValid =
    "# measured somewhere\n"
    "same_cache 0.5 0.08   # trailing comment\n"
    "\n"
    "  same_package\t0.75 0.1\n"
    "same_node 1 0.125\n"
    "other_node 12.5 0.25 40 0.2\n"
    "gamma 0.03\n";

void expect_same(const CostParameters& a, const CostParameters& b) {
  for (std::size_t c = 0; c < a.links.size(); ++c) {
    EXPECT_NEAR(a.links[c].alpha, b.links[c].alpha, 1e-6 * a.links[c].alpha) << c;
    EXPECT_NEAR(a.links[c].beta, b.links[c].beta, 1e-6 * a.links[c].beta) << c;
    EXPECT_EQ(a.links[c].eager_limit, b.links[c].eager_limit) << c;
    EXPECT_NEAR(a.links[c].rendezvous_alpha, b.links[c].rendezvous_alpha, 1e-6 * a.links[c].rendezvous_alpha) << c;
    EXPECT_NEAR(a.links[c].rendezvous_beta, b.links[c].rendezvous_beta, 1e-6 * a.links[c].rendezvous_beta) << c;
  }
  EXPECT_NEAR(a.gamma, b.gamma, 1e-6 * a.gamma);
  EXPECT_NEAR(a.node_memory.alpha, b.node_memory.alpha, 1e-6 * a.node_memory.alpha);
  EXPECT_NEAR(a.node_memory.beta, b.node_memory.beta, 1e-6 * a.node_memory.beta);
  EXPECT_EQ(a.cores_per_node, b.cores_per_node);
  EXPECT_EQ(a.nodes_per_host, b.nodes_per_host);
  EXPECT_NEAR(a.handoff, b.handoff, 1e-6 * a.handoff);
}

// cores_per_node came later too: without it a file says 0 (one processor per rank, unless the launcher says).
TEST(CostParameters, CoresPerNodeIsOptional) {
  const std::string rest = "same_cache 1 1\nsame_package 1 1\nsame_node 1 1\nother_node 1 1\ngamma 1\n";
  CostParameters p;
  ASSERT_TRUE(read_cost_parameters(write_file("no_cores", rest), p).ok());
  EXPECT_EQ(p.cores_per_node, 0);
  ASSERT_TRUE(read_cost_parameters(write_file("cores", "cores_per_node 3 # shared\n" + rest), p).ok());
  EXPECT_EQ(p.cores_per_node, 3);
  ASSERT_TRUE(read_cost_parameters(write_file("half_core", rest + "cores_per_node 0.5\n"), p).ok());
  EXPECT_EQ(p.cores_per_node, 0.5);  // simulated nodes sharing a host
}

// So did nodes_per_host: without it a file says 0 (the launcher's, else one node per host).
TEST(CostParameters, NodesPerHostIsOptional) {
  const std::string rest = "same_cache 1 1\nsame_package 1 1\nsame_node 1 1\nother_node 1 1\ngamma 1\n";
  CostParameters p;
  ASSERT_TRUE(read_cost_parameters(write_file("no_hosts", rest), p).ok());
  EXPECT_EQ(p.nodes_per_host, 0);
  ASSERT_TRUE(read_cost_parameters(write_file("hosts", rest + "nodes_per_host 4\n"), p).ok());
  EXPECT_EQ(p.nodes_per_host, 4);
}

// node_memory came after files were written: without it a file takes the built-in figures, with it its own.
TEST(CostParameters, NodeMemoryIsOptional) {
  const std::string rest = "same_cache 1 1\nsame_package 1 1\nsame_node 1 1\nother_node 1 1\ngamma 1\n";
  CostParameters p;
  ASSERT_TRUE(read_cost_parameters(write_file("no_node_memory", rest), p).ok());
  EXPECT_EQ(p.node_memory.alpha, default_cost_parameters().node_memory.alpha);
  EXPECT_EQ(p.node_memory.beta, default_cost_parameters().node_memory.beta);
  ASSERT_TRUE(read_cost_parameters(write_file("node_memory", rest + "node_memory 3 0.5\n"), p).ok());
  EXPECT_NEAR(p.node_memory.alpha, 3e-6, 1e-15);
  EXPECT_NEAR(p.node_memory.beta, 0.5e-9, 1e-18);
}

// And handoff: without it a file takes the built-in figure, with it its own (microseconds per rank).
TEST(CostParameters, HandoffIsOptional) {
  const std::string rest = "same_cache 1 1\nsame_package 1 1\nsame_node 1 1\nother_node 1 1\ngamma 1\n";
  CostParameters p;
  ASSERT_TRUE(read_cost_parameters(write_file("no_handoff", rest), p).ok());
  EXPECT_EQ(p.handoff, default_cost_parameters().handoff);
  EXPECT_GT(p.handoff, 0);
  ASSERT_TRUE(read_cost_parameters(write_file("handoff", rest + "handoff 2.5\n"), p).ok());
  EXPECT_NEAR(p.handoff, 2.5e-6, 1e-15);
  ASSERT_TRUE(read_cost_parameters(write_file("handoff_zero", "handoff 0\n" + rest), p).ok());
  EXPECT_EQ(p.handoff, 0);
}

TEST(CostParameters, ReadsEveryEntryInItsUnits) {
  CostParameters p;
  const Status s = read_cost_parameters(write_file("valid", kValid), p);
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_DOUBLE_EQ(p.link(LinkClass::kSameCache).alpha, 0.5e-6);
  EXPECT_DOUBLE_EQ(p.link(LinkClass::kSameCache).beta, 0.08e-9);
  EXPECT_DOUBLE_EQ(p.link(LinkClass::kSamePackage).alpha, 0.75e-6);
  EXPECT_DOUBLE_EQ(p.link(LinkClass::kSameNode).beta, 0.125e-9);
  EXPECT_DOUBLE_EQ(p.link(LinkClass::kOtherNode).alpha, 12.5e-6);
  EXPECT_DOUBLE_EQ(p.link(LinkClass::kOtherNode).beta, 0.25e-9);
  EXPECT_DOUBLE_EQ(p.gamma, 0.03e-9);
  // Two values: one line for every size; four: the rendezvous line above the transport's limit between nodes.
  EXPECT_EQ(p.link(LinkClass::kSameCache).eager_limit, 0u);
  EXPECT_DOUBLE_EQ(p.link(LinkClass::kSameCache).time(1 << 20), 0.5e-6 + (1 << 20) * 0.08e-9);
  const Link& network = p.link(LinkClass::kOtherNode);
  EXPECT_EQ(network.eager_limit, 16 * 1024 - 256u);
  EXPECT_DOUBLE_EQ(network.time(16 * 1024 - 256), 12.5e-6 + (16 * 1024 - 256) * 0.25e-9);
  EXPECT_DOUBLE_EQ(network.time(16 * 1024), 40e-6 + 16 * 1024 * 0.2e-9);
  // Up to the transport's eager limit between nodes the messages go eagerly in pieces: no answer to wait for.
  EXPECT_FALSE(network.waits_for_answer(64 * 1024));
  EXPECT_TRUE(network.waits_for_answer(64 * 1024 + 1));
}

TEST(CostParameters, RoundTrip) {
  CostParameters p;
  p.links = {Link{0.4321e-6, 0.0677e-9}, Link{1.5e-6, 0.122e-9}, Link{2e-6, 1e-10}, Link{3.5e-6, 0.15e-9},
             Link{5.25e-6, 0.2e-9},     Link{7.219e-6, 0.2393e-9}};
  p.links[2] = with_rendezvous(p.links[2], {20.5e-6, 0.0789e-9}, LinkClass::kSameNode);
  p.links[5] = with_rendezvous(p.links[5], {31.25e-6, 0.2258e-9}, LinkClass::kOtherNode);
  p.gamma = 0.024e-9;
  p.node_memory = {4.5e-6, 0.05e-9};
  p.cores_per_node = 1.5;
  p.nodes_per_host = 3;
  p.handoff = 6.25e-6;
  const std::string text = format_cost_parameters(p);
  CostParameters back;
  const Status s = read_cost_parameters(write_file("round_trip", text), back);
  ASSERT_TRUE(s.ok()) << s.message << "\n" << text;
  expect_same(p, back);
  EXPECT_EQ(format_cost_parameters(back), text);  // the text is a fixed point

  CostParameters defaults;
  ASSERT_TRUE(read_cost_parameters(write_file("defaults", format_cost_parameters(default_cost_parameters())),
                                   defaults).ok());
  expect_same(default_cost_parameters(), defaults);
}

// Every link costs something, and a rendezvous more than an eager message of the same size (its round trip).
TEST(CostParameters, TheDefaultsAreMeasuredFigures) {
  const CostParameters& p = default_cost_parameters();
  for (std::size_t c = 0; c < p.links.size(); ++c) {
    const Link& l = p.links[c];
    EXPECT_GT(l.alpha, 0) << c;
    EXPECT_GT(l.rendezvous_beta, 0) << c;
    EXPECT_EQ(l.eager_limit, eager_limit(static_cast<LinkClass>(c))) << c;
    EXPECT_GT(l.time(l.eager_limit + 1), l.alpha + static_cast<double>(l.eager_limit + 1) * l.beta) << c;
  }
  EXPECT_GT(p.gamma, 0);
}

const std::string kLinkUnits = "alpha_us beta_ns_per_byte [rendezvous_alpha_us rendezvous_beta_ns_per_byte]";

struct Bad {
  const char* name;
  std::string text;
  int error_class;
  std::string message;  // after "<path>"
};

TEST(CostParameters, RefusesWhatItCannotUse) {
  const std::string rest = "same_package 1 1\nsame_node 1 1\nother_node 1 1\ngamma 1\n";
  const Bad cases[] = {
      {"unknown", "same_cache 1 1\nsame_pod 2 2\n" + rest, kErrArg,
       ":2: unknown entry \"same_pod\" (expected same_cache, same_package, same_node, same_switch, same_rack, "
       "other_node, gamma, node_memory, cores_per_node, nodes_per_host or handoff)"},
      {"hosts_fraction", "same_cache 1 1\nnodes_per_host 1.5\n" + rest, kErrArg,
       ":2: \"1.5\" is not a whole number of nodes"},
      {"hosts_many", "same_cache 1 1\nnodes_per_host 1e12\n" + rest, kErrArg,
       ":2: \"1e12\" is not a whole number of nodes"},
      {"hosts_negative", "same_cache 1 1\nnodes_per_host -1\n" + rest, kErrArg, ":2: \"-1\" is negative"},
      {"hosts_two", "same_cache 1 1\nnodes_per_host 2 3\n" + rest, kErrArg,
       ":2: unexpected \"3\" after nodes_per_host's nodes"},
      {"cores_negative", "same_cache 1 1\ncores_per_node -2\n" + rest, kErrArg, ":2: \"-2\" is negative"},
      {"cores_few", "same_cache 1 1\ncores_per_node\n" + rest, kErrArg,
       ":2: cores_per_node needs 1 value(s) (processors), got 0"},
      {"handoff_negative", "same_cache 1 1\nhandoff -7\n" + rest, kErrArg, ":2: \"-7\" is negative"},
      {"handoff_two", "same_cache 1 1\nhandoff 7 us\n" + rest, kErrArg,
       ":2: unexpected \"us\" after handoff's us_per_rank"},
      {"switch_few", "same_cache 1 1\nsame_switch 2\n" + rest, kErrArg,
       ":2: same_switch needs 2 or 4 value(s) (alpha_us beta_ns_per_byte [rendezvous_alpha_us "
       "rendezvous_beta_ns_per_byte]), got 1"},
      {"rack_twice", "same_rack 1 1\nsame_cache 1 1\n" + rest + "same_rack 2 2\n", kErrArg,
       ":7: same_rack given again (first on line 1)"},
      {"rack_negative", "same_cache 1 1\nsame_rack -1 1\n" + rest, kErrArg, ":2: \"-1\" is negative"},
      {"few", "same_cache 1\n" + rest, kErrArg, ":1: same_cache needs 2 or 4 value(s) (" + kLinkUnits + "), got 1"},
      {"none", rest + "same_cache\n", kErrArg, ":5: same_cache needs 2 or 4 value(s) (" + kLinkUnits + "), got 0"},
      {"three", "same_cache 1 1 1\n" + rest, kErrArg, ":1: same_cache needs 2 or 4 value(s) (" + kLinkUnits +
       "), got 3"},
      {"five", "same_cache 1 1 1 1 1\n" + rest, kErrArg, ":1: unexpected \"1\" after same_cache's " + kLinkUnits},
      {"rendezvous_negative", "same_cache 1 1 2 -1\n" + rest, kErrArg, ":1: \"-1\" is negative"},
      {"node_memory_four", "same_cache 1 1\nnode_memory 1 1 1 1\n" + rest, kErrArg,
       ":2: unexpected \"1\" after node_memory's alpha_us beta_ns_per_byte"},
      {"gamma_few", "same_cache 1 1\nsame_package 1 1\nsame_node 1 1\nother_node 1 1\ngamma # none\n", kErrArg,
       ":5: gamma needs 1 value(s) (ns_per_byte), got 0"},
      {"many", "same_cache 1 1 us 1\n" + rest, kErrArg, ":1: \"us\" is not a number"},
      {"gamma_many", "same_cache 1 1\nsame_package 1 1\nsame_node 1 1\nother_node 1 1\ngamma 1 2\n", kErrArg,
       ":5: unexpected \"2\" after gamma's ns_per_byte"},
      {"word", "same_cache fast 1\n" + rest, kErrArg, ":1: \"fast\" is not a number"},
      {"suffix", "same_cache 1us 1\n" + rest, kErrArg, ":1: \"1us\" is not a number"},
      {"plus", "same_cache 1 +1\n" + rest, kErrArg, ":1: \"+1\" is not a number"},
      {"negative", "same_cache 1 -0.5\n" + rest, kErrArg, ":1: \"-0.5\" is negative"},
      {"infinite", "same_cache inf 1\n" + rest, kErrArg, ":1: \"inf\" is not finite"},
      {"nan", "same_cache 1 nan\n" + rest, kErrArg, ":1: \"nan\" is not finite"},
      {"twice", "same_cache 1 1\n" + rest + "# again\nsame_cache 2 2\n", kErrArg,
       ":7: same_cache given again (first on line 1)"},
      {"missing", rest, kErrArg, ": no line for same_cache"},
      {"missing_gamma", "same_cache 1 1\nsame_package 1 1\nsame_node 1 1\nother_node 1 1\n", kErrArg,
       ": no line for gamma"},
      {"empty", "", kErrArg, ": no line for same_cache"},
  };
  for (const Bad& c : cases) {
    const std::string path = write_file(c.name, c.text);
    CostParameters p = CostParameters::uniform({1, 2}, 3);
    const Status s = read_cost_parameters(path, p);
    EXPECT_EQ(s.error_class, c.error_class) << c.name;
    EXPECT_EQ(s.message, path + c.message) << c.name;
    EXPECT_EQ(p.link(LinkClass::kSameCache).alpha, 1) << c.name << ": the output changed on an error";
  }
}

// The network levels' lines came after files without them: those still read, the missing classes costing what
// other_node costs; a file with them keeps its own figures.
TEST(CostParameters, NetworkLinesAreOptionalAndDefaultToOtherNode) {
  CostParameters old_file;
  const Status s = read_cost_parameters(write_file("no_network", kValid), old_file);
  ASSERT_TRUE(s.ok()) << s.message;
  for (LinkClass c : {LinkClass::kSameSwitch, LinkClass::kSameRack}) {
    EXPECT_DOUBLE_EQ(old_file.link(c).alpha, 12.5e-6) << link_class_name(c);
    EXPECT_DOUBLE_EQ(old_file.link(c).beta, 0.25e-9) << link_class_name(c);
  }
  CostParameters with;
  const std::string text = std::string(kValid) + "same_switch 3 0.125\nsame_rack 6.5 0.1875\n";
  ASSERT_TRUE(read_cost_parameters(write_file("network", text), with).ok());
  EXPECT_DOUBLE_EQ(with.link(LinkClass::kSameSwitch).alpha, 3e-6);
  EXPECT_DOUBLE_EQ(with.link(LinkClass::kSameSwitch).beta, 0.125e-9);
  EXPECT_DOUBLE_EQ(with.link(LinkClass::kSameRack).alpha, 6.5e-6);
  EXPECT_DOUBLE_EQ(with.link(LinkClass::kSameRack).beta, 0.1875e-9);
  EXPECT_DOUBLE_EQ(with.link(LinkClass::kOtherNode).alpha, 12.5e-6);
  CostParameters only_rack;  // one of the two given: the other still defaults
  ASSERT_TRUE(read_cost_parameters(write_file("rack_only", std::string(kValid) + "same_rack 6 0.5\n"), only_rack).ok());
  EXPECT_DOUBLE_EQ(only_rack.link(LinkClass::kSameRack).alpha, 6e-6);
  EXPECT_DOUBLE_EQ(only_rack.link(LinkClass::kSameSwitch).alpha, 12.5e-6);
  EXPECT_EQ(std::string(link_class_name(LinkClass::kSameSwitch)), "same_switch");
  EXPECT_EQ(std::string(link_class_name(LinkClass::kSameRack)), "same_rack");
}

TEST(CostParameters, AFileThatCannotBeRead) {
  CostParameters p;
  const std::string missing = ::testing::TempDir() + "strata_costs_does_not_exist";
  Status s = read_cost_parameters(missing, p);
  EXPECT_EQ(s.error_class, kErrOther);
  EXPECT_EQ(s.message, "cannot open cost file " + missing);
  s = read_cost_parameters(::testing::TempDir(), p);  // a directory opens but does not read
  EXPECT_EQ(s.error_class, kErrOther) << s.message;
}

TEST(CostParameters, TheEnvironmentPicksTheFile) {
  std::ostringstream warnings;
  const CostParameters none = cost_parameters_from(nullptr, warnings);
  expect_same(none, default_cost_parameters());
  expect_same(cost_parameters_from("", warnings), default_cost_parameters());
  EXPECT_EQ(warnings.str(), "");

  const CostParameters file = cost_parameters_from(write_file("env", kValid).c_str(), warnings);
  EXPECT_EQ(warnings.str(), "");
  EXPECT_DOUBLE_EQ(file.link(LinkClass::kOtherNode).alpha, 12.5e-6);

  const std::string bad = write_file("env_bad", std::string(kValid) + "gamma 2\n");
  const CostParameters fallback = cost_parameters_from(bad.c_str(), warnings);
  expect_same(fallback, default_cost_parameters());
  EXPECT_EQ(warnings.str(), "strata: STRATA_COST_FILE: " + bad +
                                ":8: gamma given again (first on line 7); using the built-in cost parameters\n");
}

// The probe's line: alpha + m beta through two one-way times, never negative.
TEST(CostParameters, FitLinkThroughTwoTimes) {
  const Link l = fit_link(8, 2e-6 + 8 * 1e-10, 1 << 20, 2e-6 + (1 << 20) * 1e-10);
  EXPECT_NEAR(l.alpha, 2e-6, 1e-15);
  EXPECT_NEAR(l.beta, 1e-10, 1e-20);
  const Link falling = fit_link(8, 5e-6, 1 << 20, 4e-6);  // noise: the large message faster
  EXPECT_EQ(falling.beta, 0);
  EXPECT_EQ(falling.alpha, 5e-6);
  const Link steep = fit_link(8, 1e-9, 1 << 20, 1.0);  // a line through 0 below 8 bytes
  EXPECT_EQ(steep.alpha, 0);
}

// Classes the probe could not measure take the nearest measured one on their side of the node's boundary.
TEST(CostParameters, UnmeasuredClassesTakeTheNearestOnTheirSide) {
  auto with_alpha = [](std::initializer_list<std::pair<LinkClass, double>> measured,
                       std::array<bool, static_cast<std::size_t>(LinkClass::kCount)>& mask) {
    CostParameters p;
    mask.fill(false);
    for (auto [c, alpha] : measured) {
      p.links[static_cast<std::size_t>(c)] = {alpha, alpha / 10};
      mask[static_cast<std::size_t>(c)] = true;
    }
    return p;
  };
  auto alpha = [](const CostParameters& p, LinkClass c) { return p.link(c).alpha; };
  std::array<bool, static_cast<std::size_t>(LinkClass::kCount)> mask;

  // Same node and other nodes measured: the caches and the package take the node's, switch and rack other_node's
  // (the switch is as near the node as other_node in the list, but across the boundary).
  CostParameters p = with_alpha({{LinkClass::kSameNode, 1}, {LinkClass::kOtherNode, 9}}, mask);
  ASSERT_TRUE(fill_unmeasured(p, mask));
  for (LinkClass c : {LinkClass::kSameCache, LinkClass::kSamePackage, LinkClass::kSameNode}) EXPECT_EQ(alpha(p, c), 1);
  for (LinkClass c : {LinkClass::kSameSwitch, LinkClass::kSameRack, LinkClass::kOtherNode}) EXPECT_EQ(alpha(p, c), 9);
  EXPECT_EQ(p.link(LinkClass::kSameRack).beta, 0.9);

  // A tie inside the node goes to the closer class.
  p = with_alpha({{LinkClass::kSameCache, 1}, {LinkClass::kSameNode, 3}, {LinkClass::kSameRack, 8}}, mask);
  ASSERT_TRUE(fill_unmeasured(p, mask));
  EXPECT_EQ(alpha(p, LinkClass::kSamePackage), 1);
  EXPECT_EQ(alpha(p, LinkClass::kSameSwitch), 8);
  EXPECT_EQ(alpha(p, LinkClass::kOtherNode), 8);

  // One node only: the network classes take the nearest class inside it.
  p = with_alpha({{LinkClass::kSamePackage, 2}}, mask);
  ASSERT_TRUE(fill_unmeasured(p, mask));
  for (int c = 0; c < static_cast<int>(LinkClass::kCount); ++c) EXPECT_EQ(alpha(p, static_cast<LinkClass>(c)), 2);

  // Nothing measured: refused, unchanged.
  p = with_alpha({}, mask);
  p.links[0].alpha = 7;
  EXPECT_FALSE(fill_unmeasured(p, mask));
  EXPECT_EQ(p.links[0].alpha, 7);
}

// The job's figures are fixed at their first use: a probe's come too late after it.
TEST(CostParameters, TheJobsFiguresAreFixedAtFirstUse) {
  const CostParameters& job = job_cost_parameters();
  const std::string source = job_cost_source();
  CostParameters other = job;
  other.gamma += 1;
  EXPECT_FALSE(set_job_cost_parameters(other, "a probe too late"));
  EXPECT_EQ(job_cost_source(), source);
  EXPECT_EQ(job_cost_parameters().gamma, job.gamma);
}

}  // namespace
