#include "transport/matching.hpp"

#include <algorithm>

namespace strata::transport {

Request* MatchQueues::take_posted(const Envelope& have) {
  auto it = std::find_if(posted_.begin(), posted_.end(), [&](Request* r) { return accepts(envelope_of(r), have); });
  if (it == posted_.end()) return nullptr;
  Request* r = *it;
  posted_.erase(it);
  return r;
}

bool MatchQueues::remove_posted(Request* r) {
  auto it = std::find(posted_.begin(), posted_.end(), r);
  if (it == posted_.end()) return false;
  posted_.erase(it);
  return true;
}

namespace {
// Recycled nodes kept: enough for the backlog a drained shared-memory ring leaves (hundreds of small messages),
// with a bound on the payload memory they pin.
constexpr std::size_t kMaxSpare = 4096;
constexpr std::size_t kMaxSpareBytes = std::size_t{1} << 20;
}  // namespace

void MatchQueues::add_unexpected(const Header& h, const char* payload, std::size_t len) {
  if (spare_.empty())
    unexpected_.emplace_back();
  else
    unexpected_.splice(unexpected_.end(), spare_, spare_.begin());
  Unexpected& u = unexpected_.back();
  spare_bytes_ -= std::min(spare_bytes_, u.payload.capacity());
  u.header = h;
  u.payload.assign(payload, payload + len);
}

void MatchQueues::recycle(std::list<Unexpected>::iterator it) {
  const std::size_t bytes = it->payload.capacity();
  if (spare_.size() < kMaxSpare && spare_bytes_ + bytes <= kMaxSpareBytes) {
    spare_bytes_ += bytes;
    spare_.splice(spare_.end(), unexpected_, it);
  } else {
    unexpected_.erase(it);
  }
}

const Unexpected* MatchQueues::peek_unexpected(const Envelope& want) const {
  for (const Unexpected& u : unexpected_)
    if (accepts(want, u.envelope())) return &u;
  return nullptr;
}

std::optional<Unexpected> MatchQueues::take_unexpected(const Envelope& want) {
  auto it = std::find_if(unexpected_.begin(), unexpected_.end(),
                         [&](const Unexpected& u) { return accepts(want, u.envelope()); });
  if (it == unexpected_.end()) return std::nullopt;
  std::optional<Unexpected> u(std::move(*it));
  unexpected_.erase(it);
  return u;
}

}  // namespace strata::transport
