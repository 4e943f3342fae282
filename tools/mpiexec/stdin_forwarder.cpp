#include "tools/mpiexec/stdin_forwarder.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace strata::mpiexec {

StdinForwarder::StdinForwarder() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) < 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  read_end_ = fds[0];
  write_end_ = fds[1];
  fcntl(write_end_, F_SETFL, O_NONBLOCK);
}

StdinForwarder::~StdinForwarder() {
  close_rank0_fd();
  stop();
}

void StdinForwarder::close_rank0_fd() {
  if (read_end_ >= 0) close(read_end_);
  read_end_ = -1;
}

void StdinForwarder::stop() {
  if (write_end_ >= 0) close(write_end_);
  write_end_ = -1;
  pending_.clear();
}

void StdinForwarder::append_pollfds(std::vector<pollfd>& fds) const {
  if (write_end_ < 0) return;
  if (!pending_.empty()) {
    fds.push_back({write_end_, POLLOUT, 0});
  } else if (!stdin_done_) {
    fds.push_back({0, POLLIN, 0});
  }
}

void StdinForwarder::on_ready(const pollfd& fd) {
  if (write_end_ < 0 || fd.revents == 0) return;
  if (fd.fd == 0) {
    char buffer[65536];
    ssize_t n = read(0, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) return;
    if (n <= 0) {  // EOF, or stdin unusable: rank 0 sees EOF either way
      stdin_done_ = true;
      stop();
      return;
    }
    pending_.assign(buffer, static_cast<size_t>(n));
  }
  // Write what we can now; the rest waits for POLLOUT.
  ssize_t n = write(write_end_, pending_.data(), pending_.size());
  if (n > 0) {
    pending_.erase(0, static_cast<size_t>(n));
  } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
    stop();  // EPIPE: rank 0 closed its stdin or exited
  }
}

}  // namespace strata::mpiexec
