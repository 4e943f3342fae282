#include "tools/mpiexec/output_forwarder.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace strata::mpiexec {
namespace {

// A partial line longer than this goes out anyway: a rank printing without newlines must not grow
// mpiexec's memory without bound.
constexpr size_t kMaxPartialLine = 64 * 1024;

// Returns false when the reader went away (EPIPE); later output to that stream is dropped.
bool write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {  // someone made our stdout non-blocking: wait instead of dropping output
        pollfd p{fd, POLLOUT, 0};
        poll(&p, 1, -1);
        continue;
      }
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

OutputForwarder::~OutputForwarder() {
  for (auto& source : sources_) close_source(source);
}

void OutputForwarder::add(int fd, int rank, int stream) { sources_.push_back({fd, rank, stream, {}}); }

void OutputForwarder::append_pollfds(std::vector<pollfd>& fds) const {
  for (const auto& source : sources_)
    if (source.fd >= 0) fds.push_back({source.fd, POLLIN, 0});
}

void OutputForwarder::on_ready(int fd) {
  for (auto& source : sources_)
    if (source.fd == fd) read_once(source);
}

void OutputForwarder::drain_and_close() {
  for (auto& source : sources_) {
    while (source.fd >= 0 && read_once(source)) {
    }
    close_source(source);
  }
}

bool OutputForwarder::read_once(Source& source) {
  char buffer[65536];
  ssize_t n = read(source.fd, buffer, sizeof buffer);
  if (n > 0) {
    emit(source, buffer, static_cast<size_t>(n));
    return true;
  }
  if (n < 0 && errno == EINTR) return true;
  if (n < 0 && errno == EAGAIN) return false;  // nothing more for now; keep the source open
  close_source(source);                        // EOF or a real error
  return false;
}

void OutputForwarder::emit(Source& source, const char* data, size_t size) {
  int out = source.stream;
  if (broken_[out]) return;
  if (!tag_) {
    if (!write_all(out, data, size)) break_stream(out);
    return;
  }
  source.partial_line.append(data, size);
  std::string prefix = "[1," + std::to_string(source.rank) + (out == 1 ? "]<stdout>:" : "]<stderr>:");
  std::string lines;  // all complete lines, written with one call
  size_t start = 0, newline;
  while ((newline = source.partial_line.find('\n', start)) != std::string::npos) {
    lines += prefix;
    lines.append(source.partial_line, start, newline + 1 - start);
    start = newline + 1;
  }
  source.partial_line.erase(0, start);
  if (source.partial_line.size() > kMaxPartialLine) {
    lines += prefix + source.partial_line + "\n";
    source.partial_line.clear();
  }
  if (!lines.empty() && !write_all(out, lines.data(), lines.size())) break_stream(out);
}

// Whoever read our stdout (or stderr) is gone, as in `mpiexec ... | head -1`: close the ranks' pipes of
// that stream too, so they get EPIPE/SIGPIPE just as if they wrote to the pipe themselves, instead of
// blocking forever on a full pipe.
void OutputForwarder::break_stream(int stream) {
  broken_[stream] = true;
  for (auto& source : sources_)
    if (source.stream == stream && source.fd >= 0) {
      close(source.fd);
      source.fd = -1;
    }
}

void OutputForwarder::flush_partial(Source& source) {
  if (source.partial_line.empty()) return;
  source.partial_line += '\n';
  std::string rest;
  std::swap(rest, source.partial_line);
  emit(source, rest.data(), rest.size());
}

void OutputForwarder::close_source(Source& source) {
  if (source.fd < 0) return;
  close(source.fd);
  source.fd = -1;
  if (tag_) flush_partial(source);
}

}  // namespace strata::mpiexec
