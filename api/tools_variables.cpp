#include "api/tools_variables.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

#include "coll/algorithms.hpp"
#include "coll/call_check.hpp"
#include "coll/selection.hpp"
#include "runtime/lasting.hpp"
#include "runtime/slow_distances.hpp"
#include "transport/engine.hpp"

namespace strata::api::tools {
namespace {

// A setting as the layer that reads it sees it: unset and empty both mean its default (transport/engine.cpp's
// env_or). Read when the registry is built; the transport reads the same environment at MPI_Init.
std::string setting(const char* name, const char* fallback = "") {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

ControlVariable read_only_number(std::string name, std::string description, int verbosity, std::function<int()> number,
                                 const Enumeration* enumeration = MPI_T_ENUM_NULL) {
  return {std::move(name), std::move(description), verbosity, MPI_INT, enumeration, MPI_T_SCOPE_READONLY,
          std::move(number), nullptr, nullptr};
}

ControlVariable read_only_text(std::string name, std::string description, int verbosity, std::string value) {
  return {std::move(name), std::move(description), verbosity, MPI_CHAR, MPI_T_ENUM_NULL, MPI_T_SCOPE_READONLY,
          nullptr, [value] { return value; }, nullptr};
}

// STRATA_COLL_<OPERATION> as strata_coll_<operation>: the one variable a tool may set while the program runs, through
// coll::set_environment_choice, which checks the name against the operation's registry as the environment's value is.
ControlVariable algorithm_choice(coll::Operation op) {
  const std::string operation = coll::operation_name(op);
  std::string upper = "STRATA_COLL_" + operation;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  std::size_t longest = coll::environment_choice(op).size();  // the environment may name one that does not exist
  for (const coll::Algorithm* a : coll::algorithms_for(op)) longest = std::max(longest, std::strlen(a->name));
  ControlVariable v{"strata_coll_" + operation,
                    upper + ": the algorithm every " + operation + " on an intracommunicator runs, unless the " +
                        "communicator's info key strata_coll_" + operation + " names another; empty: Strata " +
                        "chooses (rule table, cost model). A name that does not apply to a call leaves that call to " +
                        "the automatic choice. Valid names: " + coll::algorithm_names(op) + ". Writable: every " +
                        "process must write the same name, between collectives (a name not in the list is " +
                        "refused); persistent collectives keep the algorithm they were built with.",
                    MPI_T_VERBOSITY_TUNER_BASIC,
                    MPI_CHAR,
                    MPI_T_ENUM_NULL,
                    MPI_T_SCOPE_ALL_EQ,
                    nullptr,
                    [op] { return coll::environment_choice(op); },
                    [op](const std::string& name) {
                      return coll::set_environment_choice(op, name).ok() ? MPI_SUCCESS : MPI_T_ERR_INVALID;
                    },
                    longest};
  return v;
}

std::uint64_t messages_sent() { return transport::engine().messages_sent(); }
std::uint64_t bytes_sent() { return transport::engine().bytes_sent(); }
std::uint64_t messages_received() { return transport::engine().messages_received(); }
std::uint64_t bytes_received() { return transport::engine().bytes_received(); }
std::uint64_t unexpected_arrivals() { return transport::engine().unexpected_arrivals(); }
std::uint64_t posted_receives() { return transport::engine().posted_receives(); }
std::uint64_t unexpected_messages() { return transport::engine().unexpected_messages(); }
std::uint64_t messages_read() { return transport::engine().messages_read(); }

Registry build() {
  Registry r;
  const Enumeration& cma_mode =
      r.enumerations.emplace_back(Enumeration{"strata_p2p_cma_mode", {{-1, "auto"}, {0, "off"}, {1, "on"}}});

  Category collectives{"strata_collectives",
                       "How Strata's collectives choose and check their algorithms (coll/selection.hpp)", {}, {}, {}};
  Category transport{"strata_transport",
                     "The point-to-point engine (transport/): its channels, and its message counters and queues", {},
                     {}, {}};
  Category cost_model{"strata_cost_model", "Where the collectives' cost model takes its link figures from", {}, {},
                      {}};
  auto add_cvar = [&](Category& c, ControlVariable v) {
    c.cvars.push_back(static_cast<int>(r.cvars.size()));
    r.cvars.push_back(std::move(v));
  };

  add_cvar(collectives, read_only_number("strata_check_coll",
                                         "STRATA_CHECK_COLL: 1 when every collective first checks that all ranks "
                                         "called the same operation with the same root, operator and matching type "
                                         "signatures (each rank then fails naming the first mismatch); 0 otherwise. "
                                         "Read at the first collective.",
                                         MPI_T_VERBOSITY_USER_BASIC,
                                         [] { return coll::call_check_enabled() ? 1 : 0; }));
  add_cvar(collectives, read_only_number("strata_coll_groups",
                                         "STRATA_COLL_GROUPS: G, the number of groups of the grouped reduce, "
                                         "allreduce and bcast; 0 when unset (the cost model's choice, else "
                                         "round(sqrt(p))); -1 when it is not a positive integer (those collectives "
                                         "then fail with MPI_ERR_ARG). Read at first use.",
                                         MPI_T_VERBOSITY_TUNER_DETAIL, [] {
                                           int groups = 0;
                                           return coll::requested_groups(nullptr, groups).ok() ? groups : -1;
                                         }));
  for (int op = 0; op <= static_cast<int>(coll::Operation::kExscan); ++op)  // the neighbourhood ones have no choice
    add_cvar(collectives, algorithm_choice(static_cast<coll::Operation>(op)));

  add_cvar(transport, read_only_number("strata_shm_rings",
                                       "STRATA_SHM_RINGS: 1 when ranks of one node talk through Strata's "
                                       "shared-memory rings (the default), 0 when through libfabric's shm provider "
                                       "(STRATA_SHM_RINGS=0). Read at MPI_Init.",
                                       MPI_T_VERBOSITY_TUNER_DETAIL,
                                       [on = setting("STRATA_SHM_RINGS", "1") != "0"] { return on ? 1 : 0; }));
  add_cvar(transport, read_only_number("strata_p2p_cma",
                                       "STRATA_P2P_CMA: how a large message between ranks of one node travels: on "
                                       "(1), the receiver reads it from the sender's memory (one copy); off (0), the "
                                       "sender writes it through the ring in 64 KiB pieces; auto (-1, unset), reads "
                                       "except where the kernel's copy is slow for the two buffers' addresses "
                                       "(strata_slow_copy_distances). Read at MPI_Init.",
                                       MPI_T_VERBOSITY_TUNER_DETAIL,
                                       [value = setting("STRATA_P2P_CMA")] {
                                         return value.empty() ? -1 : value == "1" ? 1 : 0;
                                       },
                                       &cma_mode));
  add_cvar(transport, read_only_number("strata_cma",
                                       "STRATA_CMA: 0 forbids reading or writing another process's memory (Linux "
                                       "cross-memory attach) in point-to-point and one-sided communication, so "
                                       "large messages go in ring pieces; 1 allows it (the default). Read at "
                                       "MPI_Init.",
                                       MPI_T_VERBOSITY_TUNER_DETAIL,
                                       [on = setting("STRATA_CMA", "1") != "0"] { return on ? 1 : 0; }));
  add_cvar(transport, read_only_text("strata_slow_copy_distances",
                                     "STRATA_SLOW_COPY_DISTANCES: where copies of 2 KiB and more run ten times "
                                     "slower on this processor (the destination 1-63 bytes past the source modulo "
                                     "4 KiB): distances and ranges, \"1-15,40\", or \"none\". Measured at the "
                                     "first use when unset; copies at these distances go another way.",
                                     MPI_T_VERBOSITY_TUNER_DETAIL,
                                     runtime::format_distances(runtime::slow_rep_movsb_distances())));
  add_cvar(transport, read_only_text("strata_net_provider",
                                     "STRATA_NET_PROVIDER: the libfabric provider between nodes (default "
                                     "\"tcp;ofi_rxm\"). Read at MPI_Init.",
                                     MPI_T_VERBOSITY_TUNER_BASIC, setting("STRATA_NET_PROVIDER", "tcp;ofi_rxm")));
  add_cvar(transport, read_only_text("strata_shm_provider",
                                     "STRATA_SHM_PROVIDER: the libfabric provider inside a node when the "
                                     "shared-memory rings are off (default \"shm\"). Read at MPI_Init.",
                                     MPI_T_VERBOSITY_TUNER_BASIC, setting("STRATA_SHM_PROVIDER", "shm")));

  add_cvar(cost_model, read_only_number("strata_cost_probe",
                                        "STRATA_COST_PROBE: 1 when MPI_Init measures the cost model's links between "
                                        "rank 0 and one rank of each link class it has (ignored when "
                                        "STRATA_COST_FILE is set); 0 otherwise.",
                                        MPI_T_VERBOSITY_TUNER_DETAIL,
                                        [on = setting("STRATA_COST_PROBE") == "1"] { return on ? 1 : 0; }));
  add_cvar(cost_model, read_only_text("strata_cost_file",
                                      "STRATA_COST_FILE: the file of the cost model's link figures (latency and "
                                      "time per byte of each link class, coll/cost_parameters.hpp); empty: the "
                                      "built-in figures. Read at the first collective the model costs.",
                                      MPI_T_VERBOSITY_TUNER_DETAIL, setting("STRATA_COST_FILE")));

  // The transport's performance variables: counters a handle accumulates while started, and queue lengths.
  auto add_pvar = [&](PerformanceVariable v) {
    transport.pvars.push_back(static_cast<int>(r.pvars.size()));
    r.pvars.push_back(std::move(v));
  };
  const int counter = MPI_T_PVAR_CLASS_COUNTER, level = MPI_T_PVAR_CLASS_LEVEL;
  add_pvar({"strata_p2p_messages_sent",
            "Point-to-point messages this process started sending (its own and those of Strata's collectives and "
            "one-sided messages), to any rank, itself included",
            MPI_T_VERBOSITY_USER_BASIC, counter, false, false, messages_sent});
  add_pvar({"strata_p2p_bytes_sent", "Bytes of data in the messages of strata_p2p_messages_sent (packed)",
            MPI_T_VERBOSITY_USER_BASIC, counter, false, false, bytes_sent});
  add_pvar({"strata_p2p_messages_received", "Messages matched by a receive of this process (or by MPI_Mrecv)",
            MPI_T_VERBOSITY_USER_BASIC, counter, false, false, messages_received});
  add_pvar({"strata_p2p_bytes_received",
            "Bytes of data the receives of strata_p2p_messages_received accepted (a truncated message counts what "
            "fitted)",
            MPI_T_VERBOSITY_USER_BASIC, counter, false, false, bytes_received});
  add_pvar({"strata_p2p_unexpected_arrivals",
            "Messages that arrived before a receive matching them was posted, and waited in the unexpected queue",
            MPI_T_VERBOSITY_USER_DETAIL, counter, false, false, unexpected_arrivals});
  add_pvar({"strata_p2p_posted_queue_length", "Receives posted now and not yet matched by a message",
            MPI_T_VERBOSITY_USER_DETAIL, level, true, true, posted_receives});
  add_pvar({"strata_p2p_unexpected_queue_length", "Messages arrived now and not yet matched by a receive",
            MPI_T_VERBOSITY_USER_DETAIL, level, true, true, unexpected_messages});
  add_pvar({"strata_p2p_messages_read",
            "Messages over the rings' eager limit from a rank of this node that this process read from the sender's "
            "memory (one copy), where the others come through the ring in pieces (STRATA_P2P_CMA)",
            MPI_T_VERBOSITY_USER_DETAIL, counter, false, false, messages_read});

  r.categories.push_back({"strata", "Every variable of Strata, by layer", {}, {}, {1, 2, 3}});
  r.categories.push_back(std::move(collectives));
  r.categories.push_back(std::move(transport));
  r.categories.push_back(std::move(cost_model));
  return r;
}

}  // namespace

const Registry& registry() {
  static auto& r = runtime::lasting<const Registry>(build());
  return r;
}

}  // namespace strata::api::tools
