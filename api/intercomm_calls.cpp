// Intercommunicators (MPI-4.0 7.6; comm/intercomm.hpp): MPI_Intercomm_create, MPI_Intercomm_merge, and the queries
// MPI_Comm_test_inter, MPI_Comm_remote_size, MPI_Comm_remote_group. Point-to-point works on them through the usual
// calls, and so do collectives and the constructors.
#include "api/check.hpp"
#include "api/comm_inherit.hpp"
#include "comm/group.hpp"
#include "comm/intercomm.hpp"

using namespace strata;
using namespace strata::api;

STRATA_PMPI(Comm_test_inter)
extern "C" int PMPI_Comm_test_inter(MPI_Comm comm, int* flag) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_test_inter", comm);
  check.comm(comm, c).not_null(flag, "flag");
  if (!check.ok()) return check.raise();
  *flag = c->inter();
  return MPI_SUCCESS;
}

STRATA_PMPI(Comm_remote_size)
extern "C" int PMPI_Comm_remote_size(MPI_Comm comm, int* size) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_remote_size", comm);
  check.intercomm(comm, c).not_null(size, "size");
  if (!check.ok()) return check.raise();
  *size = c->peer_count();
  return MPI_SUCCESS;
}

STRATA_PMPI(Comm_remote_group)
extern "C" int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group* group) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_remote_group", comm);
  check.intercomm(comm, c).not_null(group, "group");
  if (!check.ok()) return check.raise();
  *group = add_group(comm::Group{c->remote_world_ranks});
  return MPI_SUCCESS;
}

// peer_comm and remote_leader count at the local leader only (MPI-4.0 7.6.2). If they are wrong, the leader still
// takes part in the local exchange, so every member of local_comm gets the error (the remote group, whose leader
// then waits for ours, cannot be told: nothing connects the two groups yet).
STRATA_PMPI(Intercomm_create)
extern "C" int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
                                     int tag, MPI_Comm* newintercomm) {
  comm::Communicator *local = nullptr, *peer = nullptr;
  Check check("MPI_Intercomm_create", local_comm);
  check.intracomm(local_comm, local).not_null(newintercomm, "newintercomm").send_tag(tag);
  if (check.ok() && (local_leader < 0 || local_leader >= local->size))
    check.fail(MPI_ERR_RANK, "invalid local_leader " + std::to_string(local_leader) + " (" + describe_comm(local_comm) +
                                 " has " + std::to_string(local->size) + " ranks)");
  if (!check.ok()) return check.raise();
  Check at_leader("MPI_Intercomm_create", local_comm);
  if (local->rank == local_leader) {
    at_leader.intracomm(peer_comm, peer);
    if (at_leader.ok() && (remote_leader < 0 || remote_leader >= peer->size || remote_leader == peer->rank))
      at_leader.fail(MPI_ERR_RANK, "invalid remote_leader " + std::to_string(remote_leader) + " (" +
                                       describe_comm(peer_comm) + " has " + std::to_string(peer->size) +
                                       " ranks; the remote leader is not the local one)");
  }
  std::unique_ptr<comm::Communicator> fresh;
  Status s = comm::create_intercomm(*local, local_leader, at_leader.ok() ? peer : nullptr, remote_leader, tag,
                                    at_leader.status().error_class, fresh);
  if (!at_leader.ok()) return at_leader.raise();
  if (!s.ok()) return raise("MPI_Intercomm_create", local_comm, s);
  return publish("MPI_Intercomm_create", local_comm, *local, std::move(fresh), false, newintercomm);
}

STRATA_PMPI(Intercomm_merge)
extern "C" int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Intercomm_merge", intercomm);
  check.intercomm(intercomm, c).not_null(newintracomm, "newintracomm");
  if (!check.ok()) return check.raise();
  std::unique_ptr<comm::Communicator> fresh;
  if (Status s = comm::merge_intercomm(*c, high != 0, fresh); !s.ok())
    return raise("MPI_Intercomm_merge", intercomm, s);
  return publish("MPI_Intercomm_merge", intercomm, *c, std::move(fresh), false, newintracomm);
}
