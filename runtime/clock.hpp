// MPI_Wtime / MPI_Wtick: a monotonic clock, local to each process (MPI_WTIME_IS_GLOBAL is false).
#pragma once

namespace strata::runtime {
double wtime();
double wtick();
}  // namespace strata::runtime
