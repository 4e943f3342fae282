// How ranks get their (possibly simulated) node through standard PMIx keys, as checked with PMIx 4.2.2
// clients (tests/launcher, cases nodes_*):
//
// - The job map lists the nodes that host ranks, in node-id order: PMIX_NODE_MAP = regex of
//   "node0,node1,..." (or the real short hostname without --nodes) and PMIX_PROC_MAP = ppn regex of the
//   ranks on each. From these PMIx derives per-rank PMIX_HOSTNAME and the per-node PMIX_LOCAL_PEERS,
//   PMIX_LOCAL_SIZE and PMIX_LOCALLDR, so a rank sees its *simulated* node as "local". The server's own
//   hostname need not appear in the map.
// - Each node also gets a PMIX_NODE_INFO_ARRAY (PMIX_NODEID, PMIX_HOSTNAME, local peers/size, leader),
//   and each rank a PMIX_PROC_DATA array: PMIX_RANK, PMIX_GLOBAL_RANK, PMIX_APPNUM, PMIX_LOCAL_RANK and
//   PMIX_NODE_RANK (index among the ranks of its node), PMIX_NODEID (uint32) and PMIX_HOSTNAME.
// - Result: PMIx_Get({ns, r}, PMIX_HOSTNAME) gives node<k> for every r, and PMIx_Get({ns, self},
//   PMIX_NODEID) the caller's node id. But a PMIx 4.2 *client* resolves PMIx_Get({ns, r}, PMIX_NODEID)
//   for a rank r on another node by looking up r's hostname and then the node id in that node's info,
//   where it never stores the id (it keeps it in a struct field): NOT-FOUND, whatever the server
//   registers. The same happens on a real multi-node launch. Adding the PMIX_JOB_INFO directive to the
//   get makes the client read r's own PMIX_NODEID from the proc data instead, which works for every rank
//   (here and under Open MPI's mpirun). Registering one hostname for all ranks would make the plain get
//   work but lie about PMIX_HOSTNAME and the local peers, so it is not done.
// - The hardware (tests/launcher, cases topology_* and bind_*): a simulated machine is a job-level
//   PMIX_HWLOC_XML_V2 string (every node has the same machine), a binding a PMIX_CPUSET string
//   "hwloc:<list>" in the rank's PMIX_PROC_DATA. PMIx 4.2.2 passes both through untouched: a client's
//   PMIx_Get(wildcard rank, PMIX_HWLOC_XML_V2, PMIX_OPTIONAL) returns our XML (not the topology the PMIx
//   library discovers for itself), and PMIx_Get(own rank, PMIX_CPUSET, PMIX_OPTIONAL) our string. Neither
//   key is registered when there is nothing to say, so the library falls back to hwloc.
// - The network levels above the nodes (--network, topo/network.hpp): one job-level string per level, in the
//   syntax of PMIx's PMIX_FABRIC_GROUPS, "0:node0,node1;1:node2,node3" (group, colon, the node names as in
//   PMIX_HOSTNAME). PMIx 4.2 has exactly one standard key that groups nodes, PMIX_FABRIC_GROUPS, so it carries
//   the Rack level (a fabric group is a set of nodes wired together above their switches: a dragonfly group, a
//   rack), and a real resource manager that publishes fabric groups thus gives the library the same level through
//   the same code. The Switch level has no standard node-level key: PMIX_SWITCH_PEERS is answered per process and
//   fabric device (an array of device id, switch id and peer ranks) by a fabric plugin, so it is published as
//   Strata's own job-level key "strata.fabric.switch" (topo::kSwitchGroupsKey) in the same syntax, and read only
//   from our mpiexec. Checked with PMIx 4.2.2 clients (tests/launcher, cases network_*): a client's
//   PMIx_Get(wildcard rank, key, PMIX_OPTIONAL) returns both strings as registered. Nothing is registered without
//   --network, so on a real launch the levels are present only if the resource manager gives fabric groups.
#include "tools/mpiexec/pmix_job_map.hpp"

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "runtime/bootstrap.hpp"
#include "topo/network.hpp"

namespace strata::mpiexec {
namespace {

std::string comma_list(const std::vector<int>& ranks) {
  std::string out;
  for (int r : ranks) out += (out.empty() ? "" : ",") + std::to_string(r);
  return out;
}

// PMIx_generate_regex / _ppn return malloc'd text; keep it as a std::string.
std::string take_c_string(char* text) {
  std::unique_ptr<char, decltype(&std::free)> owner(text, &std::free);
  return text ? std::string(text) : std::string{};
}

}  // namespace

InfoArray job_map_info(const Placement& placement, const PublishedHardware& hardware) {
  auto nprocs = static_cast<std::uint32_t>(placement.node_of_rank.size());
  auto nnodes = static_cast<std::uint32_t>(placement.node_names.size());

  std::string hosts, ppn;
  for (std::uint32_t n = 0; n < nnodes; ++n) {
    hosts += (n ? "," : "") + placement.node_names[n];
    ppn += (n ? ";" : "") + comma_list(placement.ranks_on_node[n]);
  }
  char* regex = nullptr;
  check_pmix(PMIx_generate_regex(hosts.c_str(), &regex), "PMIx_generate_regex");
  std::string node_map = take_c_string(regex);
  check_pmix(PMIx_generate_ppn(ppn.c_str(), &regex), "PMIx_generate_ppn");
  std::string proc_map = take_c_string(regex);

  InfoList job;
  job.add(PMIX_UNIV_SIZE, nprocs);
  job.add(PMIX_JOB_SIZE, nprocs);
  job.add(PMIX_MAX_PROCS, nprocs);
  job.add(PMIX_NUM_NODES, nnodes);
  job.add(PMIX_NODE_MAP, node_map);
  job.add(PMIX_PROC_MAP, proc_map);
  if (!hardware.topology_xml.empty()) job.add(PMIX_HWLOC_XML_V2, hardware.topology_xml);
  if (!hardware.rack_groups.empty()) job.add(PMIX_FABRIC_GROUPS, hardware.rack_groups);
  if (!hardware.switch_groups.empty()) job.add(topo::kSwitchGroupsKey, hardware.switch_groups);
  if (hardware.node_cpus > 0) {
    char cpus[32];
    std::snprintf(cpus, sizeof cpus, "%.6g", hardware.node_cpus);
    job.add(runtime::kNodeCpusKey, std::string(cpus));
  }
  if (hardware.host_nodes > 0) job.add(runtime::kHostNodesKey, std::to_string(hardware.host_nodes));

  for (std::uint32_t n = 0; n < nnodes; ++n) {
    const auto& ranks = placement.ranks_on_node[n];
    InfoList node;
    node.add(PMIX_NODEID, n);
    node.add(PMIX_HOSTNAME, placement.node_names[n]);
    node.add(PMIX_LOCAL_PEERS, comma_list(ranks));
    node.add(PMIX_LOCAL_SIZE, static_cast<std::uint32_t>(ranks.size()));
    node.add(PMIX_NODE_SIZE, static_cast<std::uint32_t>(ranks.size()));
    node.add_rank(PMIX_LOCALLDR, static_cast<pmix_rank_t>(ranks.front()));
    job.add(PMIX_NODE_INFO_ARRAY, node);
  }

  for (std::uint32_t r = 0; r < nprocs; ++r) {
    InfoList proc;
    proc.add_rank(PMIX_RANK, r);
    proc.add_rank(PMIX_GLOBAL_RANK, r);
    proc.add(PMIX_APPNUM, std::uint32_t{0});
    proc.add(PMIX_LOCAL_RANK, placement.local_rank[r]);
    proc.add(PMIX_NODE_RANK, placement.local_rank[r]);  // one job per node: node rank = local rank
    proc.add(PMIX_NODEID, placement.node_of_rank[r]);
    proc.add(PMIX_HOSTNAME, placement.node_names[placement.node_of_rank[r]]);
    if (r < hardware.cpuset.size() && !hardware.cpuset[r].empty()) proc.add(PMIX_CPUSET, hardware.cpuset[r]);
    job.add(PMIX_PROC_DATA, proc);
  }
  return job.to_array();
}

}  // namespace strata::mpiexec
