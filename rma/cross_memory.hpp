// Put and get by Linux cross-memory attach (process_vm_writev / process_vm_readv) on windows whose memory is not
// mapped (MPI_Win_create, and MPI_Win_allocate across nodes), to a target on this node: one copy instead of three
// (pack, ring, unpack at the target), complete at origin and target when the call returns, with no work at the
// target. So the synchronisation calls need nothing more for them: the epoch's opening (fence's closing barrier, a
// granted lock, the target's Post) has already let the origin write, and there is nothing to wait for at its close.
// Only gets of 32 KiB or more and puts of 128 KiB or more (a call costs microseconds whatever its size; see the
// .cpp) to contiguous target bytes go this way; the origin's side goes through a packed copy when it is not
// contiguous. Smaller ones, accumulates (applied by the target, for their atomicity), dynamic windows (whose attached
// memory only the target knows) and every operation once the kernel has refused go by messages (rma/channel.hpp).
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <vector>

#include "rma/channel.hpp"

namespace strata::rma {

struct CrossMemory {
  std::vector<pid_t> pids;                // per rank of the window: 0 where it can not be reached so
  std::vector<std::uintptr_t> bases;      // its window memory, in its own address space

  bool reaches(int target) const { return !pids.empty() && pids[target] > 0; }
};

// True when the bytes have moved; false when they must go by messages (nothing the caller can see has changed).
// `disp_unit`: the target's (the window's layout).
bool cross_memory_put(CrossMemory& m, int disp_unit, const OriginBuffer& origin, const TargetAccess& at);
bool cross_memory_get(CrossMemory& m, int disp_unit, const OriginBuffer& origin, const TargetAccess& at);

}  // namespace strata::rma
