// One window's POSIX shared-memory segment. The window's lowest rank creates it, the others open it, each
// reserves the pages of its own part (posix_fallocate: the memory exists now, so a full /dev/shm is an error at
// allocation rather than a SIGBUS at some later store, and each part's pages are placed by their owner), everyone
// maps it, and the name is unlinked as soon as all have mapped it, as transport/shm_ring.cpp does for the rings:
// from then on nothing is left in /dev/shm, whatever happens to the processes. The name starts with
// transport::shm_prefix(job), so mpiexec's clean-up of a job that dies covers the short time before the unlink.
#pragma once
#include <cstddef>
#include <string>

#include "runtime/status.hpp"

namespace strata::rma {

class Segment {
 public:
  Segment() = default;
  Segment(const Segment&) = delete;
  Segment& operator=(const Segment&) = delete;
  ~Segment() { unmap(); }

  // "/strata_<job>_win<creator's world rank>_<context slot>": unique on the host while the window lives, since
  // the creator holds the context slot (of the window's private communicator) until the window is freed.
  static std::string name_for(const std::string& job, int creator_world_rank, int slot);

  Status create(const std::string& name, std::size_t bytes);  // O_EXCL: a stale name is an error, never reused
  Status open(const std::string& name);
  Status reserve(std::size_t offset, std::size_t bytes);  // after create/open
  Status map(std::size_t bytes);                          // after create/open; closes the descriptor
  void unlink();                                          // the creator, once everyone has mapped
  void unmap();                                           // also closes and, for the creator, unlinks

  char* base() const { return static_cast<char*>(base_); }

 private:
  std::string name_;
  bool created_ = false;  // this process created the name and has not unlinked it yet
  int fd_ = -1;
  void* base_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace strata::rma
