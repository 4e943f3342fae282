#include "topo/cpuset.hpp"

#include <cstdlib>
#include <sstream>

namespace strata::topo {

std::optional<Cpuset> Cpuset::parse_list(const std::string& text) {
  // Parsed here, not by hwloc_bitmap_list_sscanf, which accepts malformed lists silently.
  const std::string list = text.starts_with("hwloc:") ? text.substr(6) : text;
  if (list.empty()) return std::nullopt;
  Cpuset set;
  std::istringstream items(list);
  std::string item;
  while (std::getline(items, item, ',')) {
    const std::size_t dash = item.find('-');
    const std::string first = item.substr(0, dash), last = dash == std::string::npos ? first : item.substr(dash + 1);
    auto number = [](const std::string& s) -> long {
      if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos) return -1;
      return std::strtol(s.c_str(), nullptr, 10);
    };
    const long lo = number(first), hi = number(last);
    if (lo < 0 || hi < lo) return std::nullopt;
    hwloc_bitmap_set_range(set.bits_, static_cast<unsigned>(lo), static_cast<int>(hi));
  }
  if (list.back() == ',') return std::nullopt;
  return set;
}

std::string Cpuset::list() const {
  char* text = nullptr;
  if (hwloc_bitmap_list_asprintf(&text, bits_) < 0) return {};
  std::string out = text;
  std::free(text);
  return out;
}

}  // namespace strata::topo
