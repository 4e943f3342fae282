// Library state made on first use and never destroyed. A program may call MPI, MPI_Finalize above all, from an exit
// handler it registered before MPI_Init (Dune::MPIHelper does): exit() runs that handler after the destructors of
// every function-local static constructed since, so state that MPI_Init or a later call first builds must have
// none. The memory goes with the process. Namespace-scope objects need nothing: built at load, destroyed last.
#pragma once
#include <utility>

namespace strata::runtime {

template <class T, class... Args>
T& lasting(Args&&... args) {
  return *new T(std::forward<Args>(args)...);
}

}  // namespace strata::runtime
