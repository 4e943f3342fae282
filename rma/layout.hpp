// Where each process's part of a shared-memory window lies in the window's one segment (MPI-4.0 12.2.3). Pure, so
// the rules are unit-tested without processes:
//   contiguous (the default): part r starts right where part r-1 ends, no padding, as the standard requires;
//   alloc_shared_noncontig:   every part starts on a page of its own, so its owner can place it (first touch,
//                             NUMA) and no two owners share a page;
//   after the data, on a page of its own: one 64-byte lock word per process (rma/lock.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/status.hpp"

namespace strata::rma {

struct Contribution {
  std::int64_t size = 0;  // bytes, >= 0
  int disp_unit = 1;
};

struct SharedLayout {
  std::vector<std::size_t> offsets;  // part r starts at offsets[r] from the segment's start
  std::vector<std::size_t> sizes;
  std::vector<int> disp_units;
  std::size_t data_bytes = 0;      // the end of the data (the sum of the sizes when contiguous)
  std::size_t lock_offset = 0;     // page-aligned start of the lock words
  std::size_t segment_bytes = 0;   // what is mapped: data, then the lock words, in whole pages

  int size() const { return static_cast<int>(sizes.size()); }
};

constexpr std::size_t kLockWordBytes = 64;  // one cache line per process's lock

// MPI_ERR_SIZE (the window would not fit in the address space) is the only failure.
Status plan_layout(const std::vector<Contribution>& parts, bool noncontig, std::size_t page, SharedLayout& out);

// The rank whose part MPI_Win_shared_query(MPI_PROC_NULL) describes: the lowest one with a non-zero size, or -1
// when every size is zero (the query then answers size 0 and a NULL base, as MPI_Alloc_mem(0) does here).
int proc_null_target(const std::vector<std::size_t>& sizes);

}  // namespace strata::rma
