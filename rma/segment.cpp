// POSIX shared memory for windows (see segment.hpp).
#include "rma/segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "transport/shm_ring.hpp"

namespace strata::rma {
namespace {

Status os_error(const std::string& what, const std::string& name, int e) {
  return error(e == ENOSPC || e == ENOMEM ? kErrNoMem : kErrOther, what + " " + name + ": " + std::strerror(e));
}

}  // namespace

std::string Segment::name_for(const std::string& job, int creator_world_rank, int slot) {
  return "/" + transport::shm_prefix(job) + "win" + std::to_string(creator_world_rank) + "_" + std::to_string(slot);
}

Status Segment::create(const std::string& name, std::size_t bytes) {
  fd_ = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd_ < 0) return os_error("shm_open", name, errno);
  name_ = name;
  created_ = true;
  if (ftruncate(fd_, static_cast<off_t>(bytes)) != 0) return os_error("ftruncate", name, errno);
  return {};
}

Status Segment::open(const std::string& name) {
  fd_ = shm_open(name.c_str(), O_RDWR, 0600);
  if (fd_ < 0) return os_error("shm_open", name, errno);
  name_ = name;
  return {};
}

Status Segment::reserve(std::size_t offset, std::size_t bytes) {
  if (bytes == 0) return {};
  // posix_fallocate returns the error number instead of setting errno.
  if (int e = posix_fallocate(fd_, static_cast<off_t>(offset), static_cast<off_t>(bytes)); e != 0)
    return os_error("reserving " + std::to_string(bytes) + " bytes of", name_, e);
  return {};
}

Status Segment::map(std::size_t bytes) {
  void* base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  const int e = errno;
  close(fd_);
  fd_ = -1;
  if (base == MAP_FAILED) return os_error("mmap", name_, e);
  base_ = base;
  bytes_ = bytes;
  return {};
}

void Segment::unlink() {
  if (created_) shm_unlink(name_.c_str());
  created_ = false;
}

void Segment::unmap() {
  unlink();
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  if (base_) munmap(base_, bytes_);
  base_ = nullptr;
  bytes_ = 0;
}

}  // namespace strata::rma
