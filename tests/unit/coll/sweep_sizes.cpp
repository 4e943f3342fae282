#include "sweep_sizes.hpp"

#include <cstdlib>
#include <sstream>
#include <string>

namespace strata::coll::sim {

std::vector<int> sweep_sizes() {
  std::vector<int> sizes;
  if (const char* list = std::getenv("STRATA_SWEEP_SIZES")) {
    std::istringstream in(list);
    for (std::string item; std::getline(in, item, ',');) sizes.push_back(std::stoi(item));
    return sizes;
  }
  for (int p = 1; p <= 17; ++p) sizes.push_back(p);
  return sizes;
}

}  // namespace strata::coll::sim
