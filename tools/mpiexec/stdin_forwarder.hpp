// Copies mpiexec's stdin to rank 0 through a pipe (the other ranks read /dev/null).
//
// A pipe rather than handing rank 0 our fd 0: the ranks live in their own process group, and a rank
// reading a terminal from a background group would be stopped by SIGTTIN.
// mpiexec's fd 0 is never made non-blocking (that flag would be shared with the shell); it is read only
// after poll reports it readable, and only while the pipe has room for what was read.
#pragma once

#include <poll.h>

#include <string>
#include <vector>

namespace strata::mpiexec {

class StdinForwarder {
 public:
  // Creates the pipe; rank0_fd() is its read end, to be given to rank 0 and closed after launch.
  StdinForwarder();
  ~StdinForwarder();
  StdinForwarder(const StdinForwarder&) = delete;
  StdinForwarder& operator=(const StdinForwarder&) = delete;

  int rank0_fd() const { return read_end_; }
  void close_rank0_fd();

  // The one pollfd this forwarder waits on now (our stdin, or the pipe while it is full), if any.
  void append_pollfds(std::vector<pollfd>& fds) const;
  void on_ready(const pollfd& fd);

  // Close our end, so rank 0 sees EOF: stdin ended, rank 0 stopped reading, or the job is over.
  void stop();

 private:
  int read_end_ = -1;
  int write_end_ = -1;
  std::string pending_;  // read from stdin, not yet accepted by the pipe
  bool stdin_done_ = false;
};

}  // namespace strata::mpiexec
