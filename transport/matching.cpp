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
