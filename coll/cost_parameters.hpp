// The cost model's parameters (cost_model.hpp) as a small text file, so that figures measured on a machine
// (bench/probe.c prints this format) reach the model and strata-plan without rebuilding:
//
//   # comments run from '#' to the end of the line
//   same_cache   alpha_us beta_ns_per_byte [rendezvous_alpha_us rendezvous_beta_ns_per_byte]
//   same_package alpha_us beta_ns_per_byte [...]
//   same_node    alpha_us beta_ns_per_byte [...]
//   same_switch  alpha_us beta_ns_per_byte [...]   (optional: other nodes on the same switch)
//   same_rack    alpha_us beta_ns_per_byte [...]   (optional: other nodes in the same rack)
//   other_node   alpha_us beta_ns_per_byte [...]
//   gamma        ns_per_byte
//   node_memory  alpha_us beta_ns_per_byte   (optional: one copy into or out of the node's shared memory)
//   cores_per_node processors                (optional: the processors a node's ranks share, may be fractional;
//                                             0 or none: one per rank, unless the launcher says (runtime::kNodeCpusKey))
//   nodes_per_host nodes                     (optional: how many consecutive nodes share one host's processors, a
//                                             whole number; 0 or none: the launcher's (runtime::kHostNodesKey), else 1)
//   handoff      us_per_rank                 (optional: where ranks outnumber processors, how long a receiver takes
//                                             to act on a transfer, per rank on its processor; none: the built-in)
//
// A link's first two values are its eager messages' line; the two optional ones the line of messages above the
// transport's eager limit for that link (eager_limit below), which go by rendezvous. Without them one line costs
// every size, as in files written before the rendezvous line.
//
// Every line must be there once, with finite non-negative numbers; a file that says less is refused rather than
// completed with guesses. The exceptions are the lines added after files were written without them: a missing
// same_switch or same_rack (topo/levels.hpp: Rack, Switch) takes other_node's figures, which is what every link
// between nodes cost before the model told them apart, a missing node_memory or handoff the built-in one, and a
// missing cores_per_node or nodes_per_host 0.
//
// The job's parameters are fixed once: STRATA_COST_FILE if set; else, with STRATA_COST_PROBE=1, those a short probe
// measures at MPI_Init (api/cost_probe.cpp); else the defaults measured on the development machine
// (cost_parameters.cpp says how).
#pragma once
#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "coll/cost_model.hpp"
#include "runtime/status.hpp"

namespace strata::coll {

// The file's name in the format for each link class: "same_cache", ..., "other_node".
const char* link_class_name(LinkClass c);

// Reads `path` into `out` (left unchanged on error). Errors name the file, the line and the bad token.
Status read_cost_parameters(const std::string& path, CostParameters& out);

// The format above, with the values rounded to 6 significant digits.
std::string format_cost_parameters(const CostParameters& p);

// The built-in parameters (measured, see cost_parameters.cpp).
const CostParameters& default_cost_parameters();

// The parameters for a STRATA_COST_FILE value: the defaults when `cost_file` is null or empty, the file's
// otherwise; a file that cannot be used costs one line on `warnings` and the defaults.
CostParameters cost_parameters_from(const char* cost_file, std::ostream& warnings);

// The job's, fixed on the first call: those set by set_job_cost_parameters() before it, else
// cost_parameters_from(STRATA_COST_FILE, std::cerr).
const CostParameters& job_cost_parameters();

// Makes `p` the job's parameters (the probe at MPI_Init, api/cost_probe.cpp), described by `source`. Only before
// job_cost_parameters() is first called, since every rank must cost with the same figures: false after.
bool set_job_cost_parameters(const CostParameters& p, std::string source);

// Where the job's parameters come from: "built-in", "file PATH" or what set_job_cost_parameters() was told.
const std::string& job_cost_source();

// Whether some node runs more of the job's ranks than it has processors (`node_of_rank`: each rank's node;
// `node_cpus` may be fractional, as cores_per_node): its ranks then take turns on them, and a transfer between two of
// them cannot overlap its sender's work with its receiver's. False when `node_cpus` is 0 (not known).
bool ranks_share_processors(const std::vector<uint32_t>& node_of_rank, double node_cpus);
// The job's answer, from its node map and the processors the launcher gave each node (runtime::kNodeCpusKey): the
// same on every rank, as every input of a choice among algorithms must be. Fixed on the first call.
bool job_ranks_share_processors();

// For a probe. The Hockney line alpha + m beta through two one-way times, each clamped at 0 (noise may tilt it).
Link fit_link(std::size_t small, double small_seconds, std::size_t large, double large_seconds);

// The largest message Strata's transport sends eagerly over a link of class `c`: its shared-memory rings' limit
// inside a node, its network provider's between nodes (transport/shm_ring.hpp, transport/fabric.hpp).
std::size_t eager_limit(LinkClass c);

// `eager` with `rendezvous`'s line for the messages above eager_limit(c).
Link with_rendezvous(Link eager, const Link& rendezvous, LinkClass c);

// The sizes a probe times for a link: the eager line through the first two (eager on every class), the rendezvous
// line through the last two (above every class's eager limit).
constexpr std::size_t kProbeSizes[4] = {8, 4096, 256 * 1024, 1024 * 1024};

// Each link class not `measured` takes the figures of the nearest measured class on its side of the node's
// boundary (inside the node, or between nodes), ties to the closer one; without one there, the nearest on the other
// side. False, and `p` unchanged, when no class was measured.
bool fill_unmeasured(CostParameters& p, const std::array<bool, static_cast<std::size_t>(LinkClass::kCount)>& measured);

}  // namespace strata::coll
