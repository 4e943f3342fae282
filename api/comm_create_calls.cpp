// Communicator construction and management (MPI-4.0 sections 7.4.2-7.4.4, 7.8), plus MPI_Comm_group.
// Intercommunicators: intercomm_calls.cpp.
#include <algorithm>
#include <cstring>
#include <memory>

#include "api/attributes.hpp"
#include "api/check.hpp"
#include "api/comm_idup.hpp"
#include "api/comm_inherit.hpp"
#include "coll/comm_cache.hpp"
#include "comm/create.hpp"
#include "runtime/progress.hpp"
#include "runtime/state.hpp"

using namespace strata;
using namespace strata::api;

namespace {

bool predefined_comm(MPI_Comm h) { return h == MPI_COMM_WORLD || h == MPI_COMM_SELF; }

// MPI_Comm_free's and MPI_Comm_disconnect's argument: a communicator the program made.
Check& check_ending(Check& check, const MPI_Comm* comm, comm::Communicator*& c, const char* verb) {
  check.not_null(comm, "comm");
  if (check.ok()) check.comm(*comm, c);
  if (check.ok() && predefined_comm(*comm))
    check.fail(MPI_ERR_COMM, describe_comm(*comm) + " is predefined and cannot be " + verb);
  return check;
}

Check& check_group(Check& check, MPI_Group group, comm::Group*& out) {
  if (!check.ok()) return check;
  out = group == MPI_GROUP_EMPTY ? nullptr : group_of(group);
  if (out == nullptr && group != MPI_GROUP_EMPTY) check.fail(MPI_ERR_GROUP, "invalid group handle " + std::to_string(group));
  return check;
}

// Every member of `g` (nullptr: MPI_GROUP_EMPTY) must belong to c's group, whose handle is `comm`.
Check& subgroup(Check& check, const comm::Group* g, const comm::Communicator& c, MPI_Comm comm) {
  if (!check.ok() || g == nullptr) return check;
  for (int w : g->world_ranks)
    if (std::find(c.world_ranks.begin(), c.world_ranks.end(), w) == c.world_ranks.end())
      return check.fail(MPI_ERR_GROUP, "the group holds process " + std::to_string(w) + ", which is not in " +
                                           describe_comm(comm));
  return check;
}

int dup(const char* call, MPI_Comm comm, MPI_Info info, bool with_info, MPI_Comm* newcomm) {
  comm::Communicator* c = nullptr;
  Check check(call, comm);
  check.comm(comm, c).not_null(newcomm, "newcomm");
  runtime::Info* given = nullptr;
  if (with_info) check.info(info, given, true);
  if (!check.ok()) return check.raise();
  std::unique_ptr<comm::Communicator> fresh;
  if (Status s = comm::create_dup(*c, fresh); !s.ok()) return raise(call, comm, s);
  if (int rc = publish(call, comm, *c, std::move(fresh), true, newcomm); rc != MPI_SUCCESS) return rc;
  if (with_info) {  // MPI_Comm_dup_with_info: the given hints replace the parent's
    comm::Communicator* made = comms().get(*newcomm);
    made->hints = given ? given->dup() : runtime::Info{};
  }
  return MPI_SUCCESS;
}

}  // namespace

namespace strata::api {

int publish(const char* call, MPI_Comm parent_handle, const comm::Communicator& parent,
            std::unique_ptr<comm::Communicator> c, bool dup, MPI_Comm* newcomm) {
  *newcomm = MPI_COMM_NULL;
  if (!c) return MPI_SUCCESS;
  if (int rc = inherit(call, parent_handle, parent, *c, dup); rc != MPI_SUCCESS) {
    comm::release(*c);
    return rc;
  }
  *newcomm = comms().add(c.release());
  return MPI_SUCCESS;
}

// A new communicator inherits the parent's error handler (MPI-4.0 9.3) and, for a dup, its hints and attributes.
int inherit(const char* call, MPI_Comm parent_handle, const comm::Communicator& parent, comm::Communicator& c,
            bool dup) {
  c.errhandler = parent.errhandler;
  retain_errhandler(c.errhandler);
  if (!dup) return MPI_SUCCESS;
  c.hints = parent.hints;
  c.hw_level = parent.hw_level;
  if (int rc = copy_attributes(parent_handle, parent.attributes, c.attributes); rc != MPI_SUCCESS) {
    disinherit(c);
    return raise_callback_error(call, parent_handle, rc, "an attribute copy callback");
  }
  return MPI_SUCCESS;
}

void disinherit(comm::Communicator& c) {
  delete_attributes(MPI_COMM_NULL, c.attributes);
  release_errhandler(c.errhandler);
}

}  // namespace strata::api

STRATA_PMPI(Comm_dup)
extern "C" int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  const runtime::CallScope call_scope;
  return dup("MPI_Comm_dup", comm, MPI_INFO_NULL, false, newcomm);
}

STRATA_PMPI(Comm_dup_with_info)
extern "C" int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  const runtime::CallScope call_scope;
  return dup("MPI_Comm_dup_with_info", comm, info, true, newcomm);
}

STRATA_PMPI(Comm_split)
extern "C" int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_split", comm);
  check.comm(comm, c).not_null(newcomm, "newcomm");
  if (check.ok() && color < 0 && color != MPI_UNDEFINED)
    check.fail(MPI_ERR_ARG, "invalid color " + std::to_string(color) + " (must be >= 0 or MPI_UNDEFINED)");
  if (!check.ok()) return check.raise();
  std::unique_ptr<comm::Communicator> fresh;
  if (Status s = comm::create_split(*c, color, key, fresh); !s.ok()) return raise("MPI_Comm_split", comm, s);
  return publish("MPI_Comm_split", comm, *c, std::move(fresh), false, newcomm);
}

STRATA_PMPI(Comm_create)
extern "C" int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  comm::Communicator* c = nullptr;
  comm::Group* g = nullptr;
  Check check("MPI_Comm_create", comm);
  check.comm(comm, c).not_null(newcomm, "newcomm");
  if (check_group(check, group, g).ok()) subgroup(check, g, *c, comm);
  if (!check.ok()) return check.raise();
  std::unique_ptr<comm::Communicator> fresh;
  Status s;
  if (c->inter()) {  // the group names part of the local group; the remote group's part comes from the other side
    const int rank_in_group = g ? g->rank_of(c->world_rank(c->rank)) : comm::kUndefined;
    s = comm::create_split(*c, rank_in_group == comm::kUndefined ? comm::kUndefined : 0, rank_in_group, fresh);
  } else {
    s = comm::create_from_members(*c, g ? g->world_ranks : std::vector<int>{}, fresh);
  }
  if (!s.ok()) return raise("MPI_Comm_create", comm, s);
  return publish("MPI_Comm_create", comm, *c, std::move(fresh), false, newcomm);
}

STRATA_PMPI(Comm_create_group)
extern "C" int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  comm::Communicator* c = nullptr;
  comm::Group* g = nullptr;
  Check check("MPI_Comm_create_group", comm);
  check.intracomm(comm, c).not_null(newcomm, "newcomm");
  if (check_group(check, group, g).ok()) subgroup(check, g, *c, comm);
  check.send_tag(tag);
  if (!check.ok()) return check.raise();
  if (g == nullptr || g->rank_of(c->world_rank(c->rank)) == comm::kUndefined) {  // MPI-4.0 7.4.2: local, no comm
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  std::unique_ptr<comm::Communicator> fresh;
  if (Status s = comm::create_from_group(*c, g->world_ranks, tag, fresh); !s.ok())
    return raise("MPI_Comm_create_group", comm, s);
  return publish("MPI_Comm_create_group", comm, *c, std::move(fresh), false, newcomm);
}

STRATA_PMPI(Comm_free)
extern "C" int PMPI_Comm_free(MPI_Comm* comm) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_free", comm ? *comm : MPI_COMM_NULL);
  if (!check_ending(check, comm, c, "freed").ok()) return check.raise();
  const MPI_Comm handle = *comm;
  const int rc = delete_attributes(handle, c->attributes);
  const MPI_Errhandler handler = c->errhandler;
  if (!defer_slot_release(c->slot())) comm::release(*c);
  comms().remove(handle);
  delete c;
  *comm = MPI_COMM_NULL;
  if (rc != MPI_SUCCESS) {
    const int code = raise_callback_error("MPI_Comm_free", MPI_COMM_SELF, rc, "an attribute delete callback");
    release_errhandler(handler);
    return code;
  }
  release_errhandler(handler);
  return MPI_SUCCESS;
}

// Without dynamic processes, disconnecting is freeing after the others got there too: all communication on the
// communicator must be complete and matched by then (MPI-4.0 11.10.4), so one barrier is the wait.
STRATA_PMPI(Comm_disconnect)
extern "C" int PMPI_Comm_disconnect(MPI_Comm* comm) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_disconnect", comm ? *comm : MPI_COMM_NULL);
  if (!check_ending(check, comm, c, "disconnected").ok()) return check.raise();
  if (const int rc = PMPI_Barrier(*comm); rc != MPI_SUCCESS) return rc;
  return PMPI_Comm_free(comm);
}

STRATA_PMPI(Comm_compare)
extern "C" int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result) {
  comm::Communicator *a = nullptr, *b = nullptr;
  Check check("MPI_Comm_compare", comm1);
  check.comm(comm1, a).comm(comm2, b).not_null(result, "result");
  if (!check.ok()) return check.raise();
  if (comm1 == comm2) {
    *result = MPI_IDENT;
  } else if (a->world_ranks == b->world_ranks) {
    *result = MPI_CONGRUENT;
  } else {
    std::vector<int> x = a->world_ranks, y = b->world_ranks;
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    *result = x == y ? MPI_SIMILAR : MPI_UNEQUAL;
  }
  return MPI_SUCCESS;
}

STRATA_PMPI(Comm_set_name)
extern "C" int PMPI_Comm_set_name(MPI_Comm comm, const char* comm_name) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_set_name", comm);
  check.comm(comm, c).not_null(comm_name, "comm_name");
  if (!check.ok()) return check.raise();
  // MPI-4.0 7.8: a longer name is truncated to what MPI_Comm_get_name can return.
  c->name.assign(comm_name, strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}

STRATA_PMPI(Comm_get_name)
extern "C" int PMPI_Comm_get_name(MPI_Comm comm, char* comm_name, int* resultlen) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_get_name", comm);
  check.comm(comm, c).not_null(comm_name, "comm_name").not_null(resultlen, "resultlen");
  if (!check.ok()) return check.raise();
  std::memcpy(comm_name, c->name.c_str(), c->name.size() + 1);
  *resultlen = static_cast<int>(c->name.size());
  return MPI_SUCCESS;
}

STRATA_PMPI(Comm_set_info)
extern "C" int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_set_info", comm);
  runtime::Info* given = nullptr;
  check.comm(comm, c).info(info, given, false);
  if (!check.ok()) return check.raise();
  c->hints = given->dup();
  if (c->collectives) c->collectives->forget_keys();  // a hint may force another algorithm
  return MPI_SUCCESS;
}

STRATA_PMPI(Comm_get_info)
extern "C" int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info* info_used) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_get_info", comm);
  check.comm(comm, c).not_null(info_used, "info_used");
  if (!check.ok()) return check.raise();
  *info_used = add_info(c->hints.dup());  // a new object the caller frees
  return MPI_SUCCESS;
}

STRATA_PMPI(Comm_group)
extern "C" int PMPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_group", comm);
  check.comm(comm, c).not_null(group, "group");
  if (!check.ok()) return check.raise();
  *group = add_group(comm::Group{c->world_ranks});
  return MPI_SUCCESS;
}
