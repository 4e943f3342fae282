// Communicator queries. Creation, groups and attributes come with the communicators issue.
#include "api/check.hpp"

using namespace strata;
using namespace strata::api;

STRATA_PMPI(Comm_size)
extern "C" int PMPI_Comm_size(MPI_Comm comm, int* size) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_size", comm);
  check.comm(comm, c).not_null(size, "size");
  if (!check.ok()) return check.raise();
  *size = c->size;
  return MPI_SUCCESS;
}

STRATA_PMPI(Comm_rank)
extern "C" int PMPI_Comm_rank(MPI_Comm comm, int* rank) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_rank", comm);
  check.comm(comm, c).not_null(rank, "rank");
  if (!check.ok()) return check.raise();
  *rank = c->rank;
  return MPI_SUCCESS;
}
