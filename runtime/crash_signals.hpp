// A process that crashes must die of its signal, so that the launcher (and the user) learn it: Debian's libfabric
// links the psm provider, whose libinfinipath installs, when it is loaded and before main() runs, handlers for
// SIGSEGV and friends that print a backtrace and exit(1). MPI_Init puts the default back for those signals (only
// where the current handler lives in such a library; an application's own handler is kept). libfabric's shm
// provider, which installs its own cleanup handler later, then chains to the default and the signal is re-raised.
#pragma once

namespace strata::runtime {
void drop_foreign_crash_handlers();
}
