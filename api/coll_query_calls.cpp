// What a collective runs, and why (formats documented in mpi.h): MPIX_Request_get_algorithm and
// MPIX_Request_get_coll_info for a collective request, MPIX_Comm_get_coll_info for a call a communicator would make.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "api/coll_launch.hpp"
#include "api/handles.hpp"
#include "coll/collective.hpp"
#include "coll/cost_parameters.hpp"
#include "coll/model_choice.hpp"

using namespace strata;
using namespace strata::api;
using coll::Operation;

namespace {

runtime::Info describe(const coll::Choice& choice) {
  runtime::Info info;
  info.set("algorithm", choice.algorithm->name);
  info.set("reason", choice.reason);
  info.set("candidates", coll::describe(choice.candidates, choice.candidates.size()));
  if (choice.groups > 0) info.set("groups", std::to_string(choice.groups));
  info.set("cost_parameters", coll::job_cost_source());
  char cores[32];
  std::snprintf(cores, sizeof cores, "%g", coll::job_cost_parameters().cores_per_node);
  info.set("cores_per_node", cores);
  info.set("nodes_per_host", std::to_string(std::max(coll::job_cost_parameters().nodes_per_host, 1)));
  return info;
}

const coll::Collective* collective_of(Check& check, MPI_Request request) {
  ApiRequest* r = nullptr;
  if (check.request(request, r).ok() && r->collective_run == nullptr)
    check.fail(MPI_ERR_REQUEST, "request " + std::to_string(request) + " is not a collective's request");
  return check.ok() ? r->collective_run.get() : nullptr;
}

// The operation named `name` ("bcast", ...), or kCount.
Operation operation_named(const char* name) {
  for (int i = 0; i < static_cast<int>(Operation::kCount); ++i)
    if (std::strcmp(coll::operation_name(static_cast<Operation>(i)), name) == 0) return static_cast<Operation>(i);
  return Operation::kCount;
}

}  // namespace

STRATA_PMPIX(Request_get_algorithm)
extern "C" int PMPIX_Request_get_algorithm(MPI_Request request, char* name, int* resultlen) {
  Check check("MPIX_Request_get_algorithm");
  check.not_null(name, "name").not_null(resultlen, "resultlen");
  const coll::Collective* c = collective_of(check, request);
  if (!check.ok()) return check.raise();
  const std::string algorithm = c->algorithm().name;
  const std::size_t n = std::min(algorithm.size(), static_cast<std::size_t>(MPI_MAX_OBJECT_NAME - 1));
  std::memcpy(name, algorithm.data(), n);
  name[n] = '\0';
  *resultlen = static_cast<int>(n);
  return MPI_SUCCESS;
}

STRATA_PMPIX(Request_get_coll_info)
extern "C" int PMPIX_Request_get_coll_info(MPI_Request request, MPI_Info* info) {
  Check check("MPIX_Request_get_coll_info");
  check.not_null(info, "info");
  const coll::Collective* c = collective_of(check, request);
  if (!check.ok()) return check.raise();
  *info = add_info(describe(c->choice()));
  return MPI_SUCCESS;
}

STRATA_PMPIX(Comm_get_coll_info)
extern "C" int PMPIX_Comm_get_coll_info(MPI_Comm comm, const char* operation, MPI_Count bytes, MPI_Info* info) {
  Check check("MPIX_Comm_get_coll_info", comm);
  comm::Communicator* c = nullptr;
  check.intracomm(comm, c).not_null(operation, "operation").not_null(info, "info");
  const Operation op = check.ok() ? operation_named(operation) : Operation::kCount;
  if (check.ok() && op == Operation::kCount)
    check.fail(MPI_ERR_ARG, std::string("unknown operation \"") + operation + "\" (use the name of the info key " +
                                "strata_coll_<operation>, e.g. \"bcast\")");
  const bool varying = op == Operation::kGatherv || op == Operation::kScatterv || op == Operation::kAllgatherv ||
                       op == Operation::kAlltoallv || op == Operation::kAlltoallw || op == Operation::kReduceScatter;
  if (check.ok() && varying)
    check.fail(MPI_ERR_ARG, std::string("operation \"") + operation + "\" has per-rank counts; ask for its regular "
                                                                      "variant");
  if (check.ok() && bytes < 0) check.fail(MPI_ERR_COUNT, "bytes is negative (" + std::to_string(bytes) + ")");
  if (!check.ok()) return check.raise();
  coll::Args args = coll::typical_call(op, static_cast<std::size_t>(bytes));
  coll::Choice choice;
  if (const Status s = explain(*c, op, args, choice); !s.ok()) return check.fail(s.error_class, s.message).raise();
  *info = add_info(describe(choice));
  return MPI_SUCCESS;
}
