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
  Queue& queue = *queue_of(key(h.context, h.src_rank), true);
  List& list = queue.messages;
  ++queue.context->queued;
  if (spare_.empty())
    list.emplace_back();
  else
    list.splice(list.end(), spare_, spare_.begin());
  Unexpected& u = list.back();
  spare_bytes_ -= std::min(spare_bytes_, u.payload.capacity());
  u.header = h;
  u.payload.assign(payload, payload + len);
  u.arrival = arrivals_++;
  ++unexpected_count_;
  const Watcher& w = queue.context->watcher;
  if (w.notify != nullptr) w.notify(w.arg);
}

void MatchQueues::watch(uint32_t context, Watcher w) {
  Context& c = contexts_[context];
  c.watcher = w;
  if (w.notify != nullptr && c.queued > 0) w.notify(w.arg);
}

MatchQueues::Found MatchQueues::find(const Envelope& want) {
  auto first_in = [&](Queue& queue) -> Found {
    for (auto it = queue.messages.begin(); it != queue.messages.end(); ++it)
      if (accepts(want, it->envelope())) return {&queue, it};
    return {};
  };
  if (want.source != kAnySource) {
    Queue* queue = queue_of(key(want.context, want.source), false);
    return queue == nullptr ? Found{} : first_in(*queue);
  }
  Found best;
  const auto context = contexts_.find(want.context);
  if (context == contexts_.end() || context->second.queued == 0) return best;
  for (Queue* queue : context->second.queues) {
    const Found f = first_in(*queue);
    if (f.queue != nullptr && (best.queue == nullptr || f.it->arrival < best.it->arrival)) best = f;
  }
  return best;
}

MatchQueues::Queue* MatchQueues::queue_of(uint64_t k, bool make) {
  if (last_queue_ != nullptr && last_key_ == k) return last_queue_;
  Queue* queue = nullptr;
  if (make) {
    auto [at, made] = unexpected_.try_emplace(k);
    queue = &at->second;
    if (made) {
      Context& context = contexts_[static_cast<uint32_t>(k >> 32)];
      context.queues.push_back(queue);
      queue->context = &context;
    }
  } else if (auto at = unexpected_.find(k); at != unexpected_.end()) {
    queue = &at->second;
  } else {
    return nullptr;
  }
  last_key_ = k;
  last_queue_ = queue;
  return queue;
}

void MatchQueues::unqueue(const Found& found) {
  --unexpected_count_;
  --found.queue->context->queued;
}

void MatchQueues::erase(const Found& found) {
  unqueue(found);
  found.queue->messages.erase(found.it);
}

void MatchQueues::recycle(const Found& found) {
  const std::size_t bytes = found.it->payload.capacity();
  if (spare_.size() < kMaxSpare && spare_bytes_ + bytes <= kMaxSpareBytes) {
    unqueue(found);
    spare_bytes_ += bytes;
    spare_.splice(spare_.end(), found.queue->messages, found.it);
  } else {
    erase(found);
  }
}

const Unexpected* MatchQueues::peek_unexpected(const Envelope& want) const {
  // find() changes nothing; it is non-const only because take and consume need mutable positions.
  const Found found = const_cast<MatchQueues*>(this)->find(want);
  return found.queue == nullptr ? nullptr : &*found.it;
}

std::optional<Unexpected> MatchQueues::take_unexpected(const Envelope& want) {
  const Found found = find(want);
  if (found.queue == nullptr) return std::nullopt;
  std::optional<Unexpected> u(std::move(*found.it));
  erase(found);
  return u;
}

bool MatchQueues::remove_unexpected(const Envelope& have, int src_world, uint64_t cookie) {
  Queue* at = queue_of(key(have.context, have.source), false);
  if (at == nullptr) return false;
  List& list = at->messages;
  auto it = std::find_if(list.begin(), list.end(), [&](const Unexpected& u) {
    return u.header.src_world == src_world && u.header.cookie == cookie && u.header.tag == have.tag;
  });
  if (it == list.end()) return false;
  recycle({at, it});
  return true;
}

}  // namespace strata::transport
