// Intercommunicators (MPI-4.0 7.6; comm/intercomm.hpp): MPI_Intercomm_create, MPI_Intercomm_create_from_groups,
// MPI_Intercomm_merge, and the queries
// MPI_Comm_test_inter, MPI_Comm_remote_size, MPI_Comm_remote_group. Point-to-point works on them through the usual
// calls, and so do collectives and the constructors. MPI_Comm_get_parent is here too: the parent would be an
// intercommunicator, but Strata starts no process with MPI_Comm_spawn, so there never is one.
#include "api/check.hpp"
#include "api/comm_inherit.hpp"
#include "api/errors.hpp"
#include "runtime/state.hpp"
#include "comm/group.hpp"
#include "comm/intercomm.hpp"

using namespace strata;
using namespace strata::api;

// MPI-4.0 11.8.2: MPI_COMM_NULL in a process that MPI_Comm_spawn(_multiple) did not start, which is every process of
// a Strata job.
STRATA_PMPI(Comm_get_parent)
extern "C" int PMPI_Comm_get_parent(MPI_Comm* parent) {
  Check check("MPI_Comm_get_parent");
  check.not_null(parent, "parent");
  if (!check.ok()) return check.raise();
  *parent = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

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

// Both groups are given to every member, so nothing goes through a peer communicator; errors in the arguments go to
// MPI_COMM_SELF's handler (there is no communicator yet), and `errhandler` is the new intercommunicator's.
STRATA_PMPI(Intercomm_create_from_groups)
extern "C" int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                                 int remote_leader, const char* stringtag, MPI_Info info,
                                                 MPI_Errhandler errhandler, MPI_Comm* newintercomm) {
  static constexpr const char* kCall = "MPI_Intercomm_create_from_groups";
  Check check(kCall, MPI_COMM_NULL);
  comm::Group* groups[2] = {nullptr, nullptr};
  const MPI_Group handles[2] = {local_group, remote_group};
  const int leaders[2] = {local_leader, remote_leader};
  const char* names[2] = {"local", "remote"};
  for (int i = 0; i < 2 && check.ok(); ++i) {
    groups[i] = handles[i] == MPI_GROUP_EMPTY ? nullptr : group_of(handles[i]);
    const std::string name = names[i];
    if (groups[i] == nullptr)
      check.fail(MPI_ERR_GROUP, "invalid " + name + "_group " + std::to_string(handles[i]) + " (it must be a group "
                                "with members)");
    else if (leaders[i] < 0 || leaders[i] >= groups[i]->size())
      check.fail(MPI_ERR_RANK, "invalid " + name + "_leader " + std::to_string(leaders[i]) + " (the group has " +
                                   std::to_string(groups[i]->size()) + " members)");
  }
  const int me = runtime::state().world.rank;
  if (check.ok() && groups[0]->rank_of(me) == comm::kUndefined)
    check.fail(MPI_ERR_GROUP, "the calling process is not a member of local_group");
  if (check.ok())
    for (int w : groups[1]->world_ranks)
      if (groups[0]->rank_of(w) != comm::kUndefined) {
        check.fail(MPI_ERR_GROUP, "process " + std::to_string(w) + " is in both groups (they must be disjoint)");
        break;
      }
  runtime::Info* hints = nullptr;
  check.not_null(stringtag, "stringtag").info(info, hints, true).not_null(newintercomm, "newintercomm");
  if (check.ok() && !is_errhandler_for(errhandler, STRATA_KIND_COMM))
    check.fail(MPI_ERR_ARG, "invalid errhandler " + std::to_string(errhandler) + " (not a communicator's)");
  if (!check.ok()) return check.raise();
  std::unique_ptr<comm::Communicator> fresh;
  if (Status s = comm::create_intercomm_from_groups(groups[0]->world_ranks, groups[1]->world_ranks, stringtag, fresh);
      !s.ok())
    return raise(kCall, MPI_COMM_NULL, s);
  fresh->errhandler = errhandler;
  retain_errhandler(errhandler);
  if (hints) fresh->hints = hints->dup();
  *newintercomm = comms().add(fresh.release());
  return MPI_SUCCESS;
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
