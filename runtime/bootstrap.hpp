// Bootstrap: who this process is and how to reach the others. A PMIx client when a launcher (our mpiexec, Open MPI's
// mpirun, srun --mpi=pmix, ...) started us; a singleton world of size 1 otherwise (no PMIX_NAMESPACE in the
// environment), as MPI-4.0 section 11.10.2 allows.
#pragma once
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/status.hpp"

namespace strata::runtime {

struct World {
  int rank = 0;
  int size = 1;
  std::vector<uint32_t> node_of_rank;  // real or simulated node id of every rank (same id = same node)
  std::string hostname;                // this rank's (possibly simulated) node name: MPI_Get_processor_name
  std::string job_id;                  // PMIx namespace; names shared-memory segments
  bool launched = false;               // false for a singleton
};

Status bootstrap_init(World& world);
void bootstrap_finalize();

// Address exchange: every rank publishes one blob, then a collective exchange makes all blobs readable.
Status publish(const std::string& key, const std::vector<char>& blob);
Status exchange();                                // collective over the whole job, collects published data
Status barrier();                                 // collective over the whole job, no data
Status barrier_nb(std::atomic<bool>* done);       // starts a barrier; *done turns true when everyone entered
Status lookup(int rank, const std::string& key, std::vector<char>& blob);

// What the launcher says about the hardware, through standard PMIx keys; nullopt for a singleton or when the
// launcher did not give it. A simulating launcher (mpiexec --topology) gives every node's machine as hwloc v2 XML
// (PMIX_HWLOC_XML_V2, job level) and each rank's simulated binding (PMIX_CPUSET, "hwloc:0-3" or "0-3").
std::optional<std::string> launcher_topology_xml();
std::optional<std::string> launcher_cpuset(int rank);
// A job-level string the launcher registered under `key` (e.g. PMIX_FABRIC_GROUPS: launcher_fabric_groups), and
// the (possibly simulated) hostname of `rank`'s node: what topo/local.cpp needs to read the network levels.
std::optional<std::string> launcher_job_string(const std::string& key);
std::optional<std::string> launcher_fabric_groups();
std::optional<std::string> rank_hostname(int rank);

// Strata's own job-level keys, set by our mpiexec, which runs each simulated node on its own share of the real
// host's processors (tools/mpiexec/node_cpus.hpp): how many processors the ranks of one node share, a decimal
// number, fewer than its simulated cores and maybe less than one (2 processors, 4 nodes: "0.5"); and how many
// consecutive nodes share theirs, a whole number ("2" there). The collectives' cost model (coll/cost_model.hpp,
// cores_per_node and nodes_per_host) then sees ranks wait for one another.
inline constexpr const char* kNodeCpusKey = "strata.node.cpus";
inline constexpr const char* kHostNodesKey = "strata.host.nodes";

// Ends the whole job with `code` (MPI_Abort): the launcher kills every rank.
[[noreturn]] void abort_job(int code, const std::string& message);

}  // namespace strata::runtime
