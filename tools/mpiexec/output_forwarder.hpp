// Copies the ranks' stdout/stderr pipes to mpiexec's own stdout/stderr.
//
// Untagged, bytes go out as soon as they arrive (a rank's prompt without newline must show). Tagged
// (--tag-output), only whole lines go out, each with Open MPI's prefix "[1,<rank>]<stdout>:", so lines
// of different ranks never interleave mid-line; a rank's unterminated last line gets a newline at EOF.
#pragma once

#include <poll.h>

#include <string>
#include <vector>

namespace strata::mpiexec {

class OutputForwarder {
 public:
  explicit OutputForwarder(bool tag_output) : tag_(tag_output) {}
  ~OutputForwarder();
  OutputForwarder(const OutputForwarder&) = delete;
  OutputForwarder& operator=(const OutputForwarder&) = delete;

  // Takes ownership of `fd` (non-blocking read end) carrying `rank`'s stream 1 (stdout) or 2 (stderr).
  void add(int fd, int rank, int stream);

  // One pollfd per open source, appended to `fds`.
  void append_pollfds(std::vector<pollfd>& fds) const;
  // Reads whatever `fd` has now and forwards it; closes the source at EOF.
  void on_ready(int fd);
  // After the last rank ended: forward what is still buffered in every pipe, then close them all.
  // (A rank's own children may keep a pipe open; we do not wait for them.)
  void drain_and_close();

 private:
  struct Source {
    int fd;
    int rank;
    int stream;
    std::string partial_line;  // tagged mode: text after the last newline
  };
  // Returns false at EOF or error (the source is then closed).
  bool read_once(Source& source);
  void emit(Source& source, const char* data, size_t size);
  void flush_partial(Source& source);
  void close_source(Source& source);
  void break_stream(int stream);

  bool tag_;
  std::vector<Source> sources_;
  bool broken_[3] = {false, false, false};  // our stdout/stderr was closed by the reader (EPIPE)
};

}  // namespace strata::mpiexec
