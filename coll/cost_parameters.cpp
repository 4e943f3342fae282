#include "coll/cost_parameters.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "runtime/bootstrap.hpp"
#include "runtime/lasting.hpp"
#include "runtime/state.hpp"
#include "transport/fabric.hpp"
#include "transport/shm_ring.hpp"

namespace strata::coll {
namespace {

constexpr auto kClasses = static_cast<std::size_t>(LinkClass::kCount);
constexpr std::size_t kGamma = kClasses;  // the entry after the link classes
constexpr std::size_t kNodeMemory = kGamma + 1;
constexpr std::size_t kCores = kNodeMemory + 1;
constexpr std::size_t kHosts = kCores + 1;
constexpr std::size_t kHandoff = kHosts + 1;  // and the last
constexpr double kMicro = 1e-6, kNano = 1e-9;

const char* entry_name(std::size_t entry) {
  if (entry == kCores) return "cores_per_node";
  if (entry == kHosts) return "nodes_per_host";
  if (entry == kHandoff) return "handoff";
  if (entry == kNodeMemory) return "node_memory";
  return entry == kGamma ? "gamma" : link_class_name(static_cast<LinkClass>(entry));
}

std::vector<std::string> tokens_of(const std::string& line) {
  std::istringstream in(line.substr(0, line.find('#')));
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

// A finite non-negative number filling the whole token (from_chars: no locale, no leading '+' or spaces).
bool parse_value(const std::string& token, double& value, std::string& why) {
  const char* end = token.data() + token.size();
  const auto [stop, ec] = std::from_chars(token.data(), end, value);
  if (ec != std::errc() || stop != end) why = "is not a number";
  else if (!std::isfinite(value)) why = "is not finite";
  else if (value < 0) why = "is negative";
  else return true;
  return false;
}

// The network levels', node memory's and processors' lines, which older files lack (cost_parameters.hpp).
bool optional(std::size_t entry) {
  return entry == static_cast<std::size_t>(LinkClass::kSameSwitch) ||
         entry == static_cast<std::size_t>(LinkClass::kSameRack) || entry == kNodeMemory || entry == kCores ||
         entry == kHosts || entry == kHandoff;
}

// The units of an entry's values, for messages.
const char* units_of(std::size_t entry) {
  if (entry == kGamma) return "ns_per_byte";
  if (entry == kCores) return "processors";
  if (entry == kHosts) return "nodes";
  if (entry == kHandoff) return "us_per_rank";
  return entry == kNodeMemory ? "alpha_us beta_ns_per_byte"
                              : "alpha_us beta_ns_per_byte [rendezvous_alpha_us rendezvous_beta_ns_per_byte]";
}

// The figures of the defaults below, in the file's units.
CostParameters from_file_units(const double (&links)[kClasses][4], double gamma_ns) {
  CostParameters p;
  for (std::size_t c = 0; c < kClasses; ++c)
    p.links[c] = with_rendezvous({links[c][0] * kMicro, links[c][1] * kNano},
                                 {links[c][2] * kMicro, links[c][3] * kNano}, static_cast<LinkClass>(c));
  p.gamma = gamma_ns * kNano;
  return p;
}

}  // namespace

const char* link_class_name(LinkClass c) {
  switch (c) {
    case LinkClass::kSameCache: return "same_cache";
    case LinkClass::kSamePackage: return "same_package";
    case LinkClass::kSameNode: return "same_node";
    case LinkClass::kSameSwitch: return "same_switch";
    case LinkClass::kSameRack: return "same_rack";
    case LinkClass::kOtherNode: return "other_node";
    case LinkClass::kCount: break;
  }
  return "?";
}

Status read_cost_parameters(const std::string& path, CostParameters& out) {
  std::ifstream in(path);
  if (!in) return error(kErrOther, "cannot open cost file " + path);
  CostParameters read;
  int first_line[kHandoff + 1] = {};  // where each entry was given, 0: not yet
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const std::vector<std::string> tokens = tokens_of(line);
    if (tokens.empty()) continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    std::size_t entry = 0;
    while (entry <= kHandoff && tokens[0] != entry_name(entry)) ++entry;
    if (entry > kHandoff)
      return error(kErrArg, where + "unknown entry \"" + tokens[0] +
                                "\" (expected same_cache, same_package, same_node, same_switch, same_rack, " +
                                "other_node, gamma, node_memory, cores_per_node, nodes_per_host or handoff)");
    if (first_line[entry] != 0)
      return error(kErrArg, where + tokens[0] + " given again (first on line " + std::to_string(first_line[entry]) +
                                ")");
    first_line[entry] = number;
    const bool link = entry < kClasses;
    std::size_t wanted = entry == kGamma || entry == kCores || entry == kHosts || entry == kHandoff ? 1 : 2;
    if (link && tokens.size() - 1 >= 4) wanted = 4;  // with the rendezvous line
    const char* units = units_of(entry);
    if (tokens.size() - 1 < wanted || (link && tokens.size() - 1 == 3))
      return error(kErrArg, where + tokens[0] + " needs " + (link ? "2 or 4" : std::to_string(wanted)) +
                                " value(s) (" + units + "), got " + std::to_string(tokens.size() - 1));
    if (tokens.size() - 1 > wanted)
      return error(kErrArg, where + "unexpected \"" + tokens[wanted + 1] + "\" after " + tokens[0] + "'s " + units);
    double values[4] = {};
    for (std::size_t v = 0; v < wanted; ++v) {
      std::string why;
      if (!parse_value(tokens[v + 1], values[v], why))
        return error(kErrArg, where + "\"" + tokens[v + 1] + "\" " + why);
    }
    if (entry == kHosts && (values[0] != std::floor(values[0]) || values[0] > (1 << 30)))
      return error(kErrArg, where + "\"" + tokens[1] + "\" is not a whole number of nodes");
    if (entry == kHosts) read.nodes_per_host = static_cast<int>(values[0]);
    else if (entry == kCores) read.cores_per_node = values[0];
    else if (entry == kHandoff) read.handoff = values[0] * kMicro;
    else if (entry == kGamma) read.gamma = values[0] * kNano;
    else if (entry == kNodeMemory) read.node_memory = {values[0] * kMicro, values[1] * kNano};
    else read.links[entry] = {values[0] * kMicro, values[1] * kNano};
    if (link && wanted == 4)
      read.links[entry] = with_rendezvous(read.links[entry], {values[2] * kMicro, values[3] * kNano},
                                          static_cast<LinkClass>(entry));
  }
  if (in.bad()) return error(kErrOther, "cannot read cost file " + path);
  for (std::size_t entry = 0; entry <= kHandoff; ++entry)
    if (first_line[entry] == 0 && !optional(entry)) return error(kErrArg, path + ": no line for " + entry_name(entry));
  if (first_line[kNodeMemory] == 0) read.node_memory = default_cost_parameters().node_memory;
  if (first_line[kHandoff] == 0) read.handoff = default_cost_parameters().handoff;
  for (LinkClass c : {LinkClass::kSameSwitch, LinkClass::kSameRack})
    if (first_line[static_cast<std::size_t>(c)] == 0)
      read.links[static_cast<std::size_t>(c)] = read.link(LinkClass::kOtherNode);
  out = read;
  return {};
}

std::string format_cost_parameters(const CostParameters& p) {
  std::string out = "# class alpha_us beta_ns_per_byte [rendezvous_alpha_us rendezvous_beta_ns_per_byte]\n";
  char line[160];
  for (std::size_t c = 0; c < kClasses; ++c) {
    const Link& l = p.links[c];
    int n = std::snprintf(line, sizeof line, "%s %.6g %.6g", entry_name(c), l.alpha / kMicro, l.beta / kNano);
    if (l.eager_limit != 0)
      n += std::snprintf(line + n, sizeof line - static_cast<std::size_t>(n), " %.6g %.6g",
                         l.rendezvous_alpha / kMicro, l.rendezvous_beta / kNano);
    out += std::string(line, static_cast<std::size_t>(n)) + "\n";
  }
  std::snprintf(line, sizeof line, "gamma %.6g\n", p.gamma / kNano);
  out += line;
  std::snprintf(line, sizeof line, "node_memory %.6g %.6g\n", p.node_memory.alpha / kMicro, p.node_memory.beta / kNano);
  out += line;
  std::snprintf(line, sizeof line, "cores_per_node %.6g\n", p.cores_per_node);
  out += line;
  std::snprintf(line, sizeof line, "nodes_per_host %d\n", p.nodes_per_host);
  out += line;
  std::snprintf(line, sizeof line, "handoff %.6g\n", p.handoff / kMicro);
  return out + line;
}

// Measured by bench/run-probe (bench/probe.c, 16 ranks on 2 simulated nodes of "pack:2 [numa] l3:2 core:2 pu:1",
// bound to cores; RelWithDebInfo build) on the development machine, 2 real cores, Linux 6.18: each figure is the
// median of 3 runs (one run's figures: the median of 7 batches). The eager lines are from 2026-11-22, before mpiexec
// ran each simulated node on its own share of the cores: the three classes inside a node measure one path (shared
// memory between two processes of an oversubscribed machine, about 1.7 us and 11 GB/s), as a job on one real node
// sees it. (Pinned, two ranks of one simulated node take turns on one core and a message inside it takes 21 us;
// a communicator inside one node costs with these figures too, its shared-memory bcast against a flat one, so they
// stay those of a real node.) Other nodes are the tcp provider over loopback. A message above the eager limit
// (transport: 64 KiB inside a node; between nodes one fabric message, 16 KiB, see eager_limit below) pays a round
// trip more, hence the rendezvous lines: between nodes run-probe's of 2026-11-23 (256 KiB and 1 MiB; 64 KiB took
// 56 us where the eager line says 24), inside a node bench/pingpong's on one node, 2 ranks (128 KiB 23.3 us, 1 MiB
// 118.5). Gamma: MPI_Reduce_local of 1 MiB of
// doubles (about 45 GB/s of one vector). Measure the machine you plan for: `bench/run-probe > costs.txt`, then
// STRATA_COST_FILE=costs.txt.
//
// node_memory (a publish or a read of the node's shared memory, coll/node_segment.hpp) is fitted to
// bench/run-coll-algorithms of 2026-11-28 (2 rounds, us), the shared_memory bcast against linear on one node, costed
// as those runs go: the node's ranks taking turns on its 2 processors (cores_per_node). At 4 ranks it lost up to
// 4 KiB (0.92 against 0.78) and won from 8 KiB (0.84 against 1.09; 1 MiB 49 against 179, 4 MiB 235 against 740);
// at 8 ranks it lost at 1 KiB (0.82 against 0.71) and won from 4 KiB (1.21 against 1.65; 1 MiB 103 against 381,
// 4 MiB 632 against 1949). A message's alpha above is a ping-pong's, while a flat algorithm's sends leave eagerly,
// back to back; 2.5 us for each copy puts the model's crossover between 1 and 4 KiB at 8 ranks, where the runs put
// it (at 4 ranks it says 16 KiB, the runs 8: a rule keeps linear there anyway). Its beta is the large blocks' copy
// rate over those runs, 4 copies of each 128 KiB area on 2 processors. Until then it was 6 us and 0.0456 ns/B,
// fitted with every rank on a processor of its own: at 2 nodes of 4 ranks on one processor each, a node's 1 MiB
// bcast through its memory then cost 216 us where it takes 99-123, so the model put recursive doubling before the
// hierarchical allgather (4.96-6.47 ms against 3.6-4.3) and binomial before the hierarchical bcast (529 against 404).
// Since 2026-11-29 a writer runs further ahead of its readers (node_segment.hpp), which a stream of calls shows:
// the shared_memory bcast then won at 8 ranks from 8 B in 3 runs of 4 (0.32-0.42 us against the best flat 0.38-0.45;
// 1 KiB 0.40-0.63 against 0.52-0.80; the fourth, in a slow spell, 0.76 against 0.53 and 1.03 against 1.02), at 5
// and 6 from 1 KiB, and tied at 3 and 4. Hence 1.5 us, where the model's crossover goes below 8 B at
// 5 to 8 ranks and stays above 4 KiB at 4 (3 ranks: 8 B); a run after the change, 3 rounds, put auto within 1.03 of
// the best algorithm at 3, 5, 6 and 8 ranks for 8 B, 1 KiB and 4 KiB. Across 2 nodes in block order the model then
// makes each node one level (hierarchical) for reduces of 16-64 KiB and the allreduce of 64 KiB, as it already did
// with ranks scattered: a stream of 64 KiB reduces 60-206 us against binomial's 141-240, one call alone 66-108
// against 69-87, and aligned calls (each started at one instant) 166 against 170.
//
// handoff (cost_model.hpp) is fitted to the allreduce of 8 B across 2 simulated nodes in block order (bench/coll.c,
// blocking, 2026-12-02, us, the model's figures without it in brackets): 8 ranks, 4 on each node's one processor,
// reduce_bcast 205-231 [25] and hierarchical 113-128 [28.9], 6 and 3 hops on their longest paths, so 28-30 us a
// hop; 4 ranks, 2 on each processor, 72-77 [18.2] and 55-61 [18.2], 4 and 3 hops, 13-14 us a hop. Both are about
// 7 us per rank on the processor. Without it the model chose reduce_bcast at 8 ranks, about twice as slow.
const CostParameters& default_cost_parameters() {
  static auto& measured = runtime::lasting<const CostParameters>([] {
    CostParameters p = from_file_units(
        {
            // alpha_us beta_ns_per_byte, then the rendezvous line's
            {1.852, 0.08902, 9.6, 0.104},   // same_cache
            {1.628, 0.09273, 9.6, 0.104},   // same_package
            {1.684, 0.09129, 9.6, 0.104},   // same_node
            {7.424, 0.2591, 31.42, 0.2258}, // same_switch: other_node's (loopback has no switches to measure)
            {7.424, 0.2591, 31.42, 0.2258}, // same_rack: likewise
            {7.424, 0.2591, 31.42, 0.2258}, // other_node
        },
        0.02223);  // gamma ns_per_byte
    p.node_memory = {1.5 * kMicro, 0.033 * kNano};
    p.handoff = 7 * kMicro;
    return p;
  }());
  return measured;
}

CostParameters cost_parameters_from(const char* cost_file, std::ostream& warnings) {
  if (cost_file == nullptr || *cost_file == '\0') return default_cost_parameters();
  CostParameters p;
  const Status s = read_cost_parameters(cost_file, p);
  if (s.ok()) return p;
  warnings << "strata: STRATA_COST_FILE: " << s.message << "; using the built-in cost parameters\n";
  return default_cost_parameters();
}

namespace {

struct JobParameters {
  std::optional<CostParameters> set;  // by set_job_cost_parameters()
  std::string source = "built-in";
  bool fixed = false;
};

JobParameters& job() {
  static auto& j = runtime::lasting<JobParameters>();
  return j;
}

// A figure the launcher registered for the whole job under `key` (every rank reads the same, so all cost alike);
// 0 when it did not.
double launcher_figure(const char* key) {
  const std::optional<std::string> text = runtime::launcher_job_string(key);
  double value = 0;
  std::string why;
  return text && parse_value(*text, value, why) ? value : 0;
}

}  // namespace

bool ranks_share_processors(const std::vector<uint32_t>& node_of_rank, double node_cpus) {
  if (node_cpus <= 0) return false;
  std::map<uint32_t, int> ranks;
  int most = 0;
  for (uint32_t node : node_of_rank) most = std::max(most, ++ranks[node]);
  return most > node_cpus;
}

bool job_ranks_share_processors() {
  static const bool shared =
      ranks_share_processors(runtime::state().world.node_of_rank, launcher_figure(runtime::kNodeCpusKey));
  return shared;
}

const CostParameters& job_cost_parameters() {
  static auto& fixed = runtime::lasting<const CostParameters>([] {
    JobParameters& j = job();
    j.fixed = true;
    CostParameters p;
    if (j.set) {
      p = *j.set;
    } else {
      const char* file = std::getenv("STRATA_COST_FILE");
      std::ostringstream warnings;
      p = cost_parameters_from(file, warnings);
      if (file != nullptr && *file != '\0') j.source = warnings.str().empty() ? "file " + std::string(file) : "built-in";
      std::cerr << warnings.str();
    }
    if (p.cores_per_node == 0) p.cores_per_node = launcher_figure(runtime::kNodeCpusKey);
    const double sharing = launcher_figure(runtime::kHostNodesKey);
    if (p.nodes_per_host == 0 && sharing <= 1 << 30) p.nodes_per_host = static_cast<int>(sharing);
    return p;
  }());
  return fixed;
}

bool set_job_cost_parameters(const CostParameters& p, std::string source) {
  JobParameters& j = job();
  if (j.fixed) return false;
  j.set = p;
  j.source = std::move(source);
  return true;
}

const std::string& job_cost_source() {
  job_cost_parameters();  // fixes the source
  return job().source;
}

Link fit_link(std::size_t small, double small_seconds, std::size_t large, double large_seconds) {
  const double beta = std::max(0.0, (large_seconds - small_seconds) / static_cast<double>(large - small));
  return {std::max(0.0, small_seconds - static_cast<double>(small) * beta), beta};
}

// Between nodes the line breaks at one fabric message, not at the eager limit: the messages sent eagerly in pieces
// (transport/fabric.hpp) cost what the rendezvous line says, not the eager one. 2 ranks on 2 simulated nodes,
// bench/pingpong, 2026-12-03 (us): 16, 32, 64 KiB took 24-30, 35-40, 60-69; the rendezvous line says 35, 39, 46 and
// the eager line 12, 16, 24. Costed by the eager line, ring and distance_aware allgathers of 64 KiB blocks on 4 nodes
// came first and ran 1.5 times hierarchical's time. But they wait for no answer from their receiver (answer_above):
// with that wait multi_leader came first for the allreduce of 64 KiB on 4 nodes of 2 ranks, and took 853-863 us
// against hierarchical's 561-565 (a stream, 2026-12-03).
std::size_t eager_limit(LinkClass c) {
  return between_nodes(c) ? transport::kFabricMessagePayload : transport::kRingEagerLimit;
}

Link with_rendezvous(Link eager, const Link& rendezvous, LinkClass c) {
  eager.eager_limit = eager_limit(c);
  eager.answer_above = between_nodes(c) ? transport::kFabricEagerLimit : 0;
  eager.rendezvous_alpha = rendezvous.alpha;
  eager.rendezvous_beta = rendezvous.beta;
  return eager;
}

bool fill_unmeasured(CostParameters& p, const std::array<bool, kClasses>& measured) {
  if (std::none_of(measured.begin(), measured.end(), [](bool m) { return m; })) return false;
  const CostParameters was = p;
  auto nearest = [&](std::size_t c, bool same_side_only) -> const Link* {
    for (std::size_t d = 1; d < kClasses; ++d)
      for (std::size_t other : {c - d, c + d}) {  // the closer class first; c - d wraps past 0 to a huge index
        if (other >= kClasses || !measured[other]) continue;
        const bool same_side = between_nodes(static_cast<LinkClass>(other)) == between_nodes(static_cast<LinkClass>(c));
        if (same_side || !same_side_only) return &was.links[other];
      }
    return nullptr;
  };
  for (std::size_t c = 0; c < kClasses; ++c) {
    if (measured[c]) continue;
    const Link* from = nearest(c, true);
    p.links[c] = from != nullptr ? *from : *nearest(c, false);
  }
  return true;
}

}  // namespace strata::coll
