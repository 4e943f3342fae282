// STRATA_TRY(call): go on when a PMPI call succeeds, else return its code (its handler has already run).
#pragma once

#define STRATA_TRY(call)                                  \
  do {                                                    \
    if (int rc_ = (call); rc_ != MPI_SUCCESS) return rc_; \
  } while (0)
