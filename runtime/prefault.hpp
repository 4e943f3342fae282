// Mapping shared pages in one go: a page fault costs 8-14 us per 4 KiB page on this machine (a VM), so memory that
// is about to be used page after page (a ring, a node segment's payload) is mapped with one madvise instead:
// MADV_POPULATE_WRITE or _READ map a whole range as if every page had been touched, without touching it.
#pragma once
#include <cstddef>

namespace strata::runtime {

// Maps the pages over [at, at + bytes) into this process, for writing or for reading. A kernel without these
// (before Linux 5.14) refuses them: the pages then fault in one by one, as without the call.
void prefault(const void* at, std::size_t bytes, bool for_writing);

}  // namespace strata::runtime
