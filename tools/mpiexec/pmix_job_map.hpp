// What PMIx_server_register_nspace is told about the job: sizes, the node and process maps, per-node and
// per-rank data. The header comment of pmix_job_map.cpp explains how simulated nodes reach the clients.
#pragma once

#include <string>
#include <vector>

#include "tools/mpiexec/placement.hpp"
#include "tools/mpiexec/pmix_info_list.hpp"

namespace strata::mpiexec {

// What the ranks learn about their hardware; topo/local.cpp reads it (through runtime/bootstrap.cpp).
struct PublishedHardware {
  std::string topology_xml;         // job-level PMIX_HWLOC_XML_V2; empty (not published) unless simulated
  std::vector<std::string> cpuset;  // by rank, PMIX_CPUSET "hwloc:<list>"; empty for an unbound rank (not published)
  std::string rack_groups;          // job-level PMIX_FABRIC_GROUPS ("0:node0,node1;1:..."); empty: no Rack level
  std::string switch_groups;        // job-level topo::kSwitchGroupsKey, same syntax; empty: no Switch level
  double node_cpus = 0;             // job-level runtime::kNodeCpusKey; 0: not published
  std::size_t host_nodes = 0;       // job-level runtime::kHostNodesKey (node_cpus.hpp); 0: not published
};

InfoArray job_map_info(const Placement& placement, const PublishedHardware& hardware);

}  // namespace strata::mpiexec
