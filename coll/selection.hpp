// Which algorithm runs a collective: forced by name (the communicator's info key `strata_coll_<operation>`, then
// the environment variable STRATA_COLL_<OPERATION>); else, for a call that may use the topology (Args::hierarchy:
// the communicator spans nodes, or a topology-aware algorithm was named), the candidate the cost model predicts
// fastest (model_choice.hpp) among every algorithm that applies;
// else the first rule of the default table that matches the operation, message size and communicator size and
// whose algorithm applies to the arguments (replaced by a shared-memory algorithm where the call's ranks share the
// node's memory and the model predicts it faster), else the first applicable algorithm of the registry. A forced
// name that does not exist is an error that lists the valid names; one that does not apply to a call (a ring for a
// non-commutative operator) leaves that call to the automatic choice.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "coll/algorithms.hpp"
#include "coll/model_choice.hpp"
#include "runtime/status.hpp"

namespace strata::coll {

// "strata_coll_<operation>": the communicator info key that forces an algorithm.
const std::string& info_key(Operation op);

// The choice and why it was made, for MPIX queries.
struct Choice {
  const Algorithm* algorithm = nullptr;
  std::string reason;                 // "forced by ...", "cost model", "rule table ..."
  std::vector<Candidate> candidates;  // the model's predictions, fastest first (empty unless it chose)
  int groups = 0;  // a grouped algorithm's G: the model's choice, else Args::groups' (0: not grouped)
};

// `forced`: the info value for the operation on the communicator (or the persistent init's), or "" when it has none.
Status choose(Operation op, const Args& args, const std::string& forced, Choice& out);
Status select(Operation op, const Args& args, const std::string& forced, const Algorithm*& out);  // choose()'s pick

// A level of a topology-aware algorithm: the rule table's flat algorithm for `args` (no hierarchy), or where the
// level's ranks share the node's memory (Args::shared_memory) a shared-memory algorithm the model predicts faster,
// with `link_of(a, b)` the link between the level's ranks a and b and `node_of(a)` a's node. A level whose ranks are
// each on another node (the leaders of nodes, racks or switches) takes the flat algorithm the model predicts
// cheapest: the rules were measured inside one node, where a pipelined bcast's 64 KiB segments go eagerly, and over
// the network each pays a rendezvous. Every rank of the level must see the same links and nodes.
const Algorithm* select_level(Operation op, const Args& args, const std::function<LinkClass(int, int)>& link_of,
                              const std::function<int(int)>& node_of);

// STRATA_COLL_<OPERATION>'s algorithm name for `op` ("" when unset), read from the environment at first use, and
// writable at run time through MPI_T (control variable strata_coll_<operation>): later selections honour the value
// set. A name that is not in the registry for `op` is refused (MPI_ERR_ARG, listing the valid ones); "" returns to
// the automatic choice. Every process must set the same value, between collectives: a write bumps
// algorithm_overrides_version, so each communicator rebuilds the collectives it cached with the old choice
// (comm_cache.hpp); persistent collectives keep the algorithm they were built with.
const std::string& environment_choice(Operation op);
Status set_environment_choice(Operation op, const std::string& name);
inline std::uint64_t algorithm_overrides_version = 0;

// "strata_coll_groups" / STRATA_COLL_GROUPS: G for the grouped algorithms, as an info value (the call's or the
// communicator's; null: none) or else the environment. Sets `groups` (0 when neither gives one); a value that is not
// a positive integer is an error naming it.
Status requested_groups(const std::string* info_value, int& groups);
extern const char* const kGroupsInfoKey;

// Whether the call may run a topology-aware algorithm: one is forced (`forced`, else the environment), or the
// communicator spans nodes (the rule table then prefers them). The caller then looks up Args::hierarchy.
bool may_use_topology(Operation op, const std::string& forced, bool spans_nodes);

// The bytes that decide between algorithms: one rank's block (count x type size) of the operation, computed from
// arguments every rank has alike (0 where the ranks cannot agree on a size: those operations ignore it).
std::size_t message_bytes(Operation op, const Args& args);

}  // namespace strata::coll
