// Datatype queries (constructors come with the datatype issue).
#include "api/check.hpp"

using namespace strata;
using namespace strata::api;

STRATA_PMPI(Type_size)
extern "C" int PMPI_Type_size(MPI_Datatype datatype, int* size) {
  const datatype::Datatype* t = nullptr;
  Check check("MPI_Type_size");
  check.type(datatype, t).not_null(size, "size");
  if (!check.ok()) return check.raise();
  *size = static_cast<int>(t->size);
  return MPI_SUCCESS;
}
