// Which algorithm runs a collective: forced by name (the communicator's info key `strata_coll_<operation>`, then
// the environment variable STRATA_COLL_<OPERATION>), else the first rule of the default table that matches the
// operation, message size and communicator size and whose algorithm applies to the arguments, else the first
// applicable algorithm of the registry. A forced name that does not exist is an error that lists the valid names;
// one that does not apply to a call (a ring for a non-commutative operator) leaves that call to the automatic
// choice.
#pragma once
#include <string>

#include "coll/algorithms.hpp"
#include "runtime/status.hpp"

namespace strata::coll {

// "strata_coll_<operation>": the communicator info key that forces an algorithm.
const std::string& info_key(Operation op);

// `forced`: the info value for the operation on the communicator, or "" when it has none.
Status select(Operation op, const Args& args, const std::string& forced, const Algorithm*& out);

// Whether the call may run a topology-aware algorithm: one is forced (`forced`, else the environment), or the
// communicator spans nodes (the rule table then prefers them). The caller then looks up Args::hierarchy.
bool may_use_topology(Operation op, const std::string& forced, bool spans_nodes);

// The bytes that decide between algorithms: one rank's block (count x type size) of the operation, computed from
// arguments every rank has alike (0 where the ranks cannot agree on a size: those operations ignore it).
std::size_t message_bytes(Operation op, const Args& args);

}  // namespace strata::coll
