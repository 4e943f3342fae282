// complete_when (derived_requests.hpp): one progress poller for every request the api layer completes itself.
#include <algorithm>
#include <utility>

#include "api/derived_requests.hpp"
#include "runtime/lasting.hpp"
#include "runtime/progress.hpp"

namespace strata::api {
namespace {

struct Watched {
  ApiRequest* request;
  std::function<bool(ApiRequest&)> finish;
};

std::vector<Watched>& watched() {
  static auto& list = runtime::lasting<std::vector<Watched>>();
  return list;
}

bool finished(Watched& w) {
  if (!w.finish(*w.request)) return false;
  w.request->complete = true;
  if (w.request->freed) delete w.request;
  return true;
}

bool poll_watched(void*) {
  auto& list = watched();
  const auto done = std::remove_if(list.begin(), list.end(), finished);
  const bool moved = done != list.end();
  list.erase(done, list.end());
  if (list.empty()) runtime::remove_poller(poll_watched, nullptr);
  return moved;
}

}  // namespace

void complete_when(ApiRequest* r, std::function<bool(ApiRequest&)> finish) {
  Watched w{r, std::move(finish)};
  if (finished(w)) return;
  if (watched().empty()) runtime::add_poller(poll_watched, nullptr);
  watched().push_back(std::move(w));
}

}  // namespace strata::api
