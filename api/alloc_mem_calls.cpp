// MPI_Alloc_mem and MPI_Free_mem (MPI-4.0 8.2). Plain 64-byte aligned heap memory (Strata's windows allocate their
// own shared memory); the blocks handed out are remembered, so MPI_Free_mem can reject any other address.
#include <cstdlib>
#include <sstream>
#include <unordered_set>

#include "api/check.hpp"
#include "runtime/lasting.hpp"

using namespace strata;
using namespace strata::api;

namespace {

std::unordered_set<void*>& blocks() {
  static auto& live = runtime::lasting<std::unordered_set<void*>>();
  return live;
}

}  // namespace

// A size of 0 gives NULL (what MPI_Win_shared_query also answers for an all-empty window), and MPI_Free_mem takes
// NULL back.
STRATA_PMPI(Alloc_mem)
extern "C" int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void* baseptr) {
  runtime::Info* given = nullptr;  // no hints are understood
  Check check("MPI_Alloc_mem");
  check.not_null(baseptr, "baseptr").info(info, given, true);
  if (check.ok() && size < 0) check.fail(MPI_ERR_SIZE, "negative size " + std::to_string(size));
  if (!check.ok()) return check.raise();
  void* p = nullptr;
  if (size > 0) {
    if (posix_memalign(&p, 64, static_cast<std::size_t>(size)) != 0)
      return raise("MPI_Alloc_mem", MPI_COMM_SELF, MPI_ERR_NO_MEM,
                   "cannot allocate " + std::to_string(size) + " bytes");
    blocks().insert(p);
  }
  *static_cast<void**>(baseptr) = p;
  return MPI_SUCCESS;
}

STRATA_PMPI(Free_mem)
extern "C" int PMPI_Free_mem(void* base) {
  Check check("MPI_Free_mem");
  if (check.ok() && base != nullptr && blocks().count(base) == 0) {
    std::ostringstream where;
    where << base;
    check.fail(MPI_ERR_BASE, where.str() + " was not returned by MPI_Alloc_mem, or is freed already");
  }
  if (!check.ok()) return check.raise();
  if (base != nullptr) {
    blocks().erase(base);
    std::free(base);
  }
  return MPI_SUCCESS;
}
