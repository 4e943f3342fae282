// The profiling interface (MPI-4.0 section 15.2): the real code is PMPI_X; MPI_X is a weak alias, so a tool can
// define its own MPI_X and call PMPI_X. Use as:  STRATA_PMPI(Send)  just before  extern "C" int PMPI_Send(...) {...}
#pragma once
#include <mpi.h>

#define STRATA_PRAGMA(x) _Pragma(#x)
#define STRATA_PMPI(name) STRATA_PRAGMA(weak MPI_##name = PMPI_##name)
#define STRATA_PMPIX(name) STRATA_PRAGMA(weak MPIX_##name = PMPIX_##name)
