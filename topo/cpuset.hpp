// A set of PUs (hwloc bitmap) with value semantics.
#pragma once
#include <hwloc.h>

#include <optional>
#include <string>

namespace strata::topo {

class Cpuset {
 public:
  Cpuset() : bits_(hwloc_bitmap_alloc()) {}
  explicit Cpuset(hwloc_const_bitmap_t bits) : bits_(hwloc_bitmap_dup(bits)) {}
  Cpuset(const Cpuset& other) : bits_(hwloc_bitmap_dup(other.bits_)) {}
  Cpuset& operator=(const Cpuset& other) {
    hwloc_bitmap_copy(bits_, other.bits_);
    return *this;
  }
  ~Cpuset() { hwloc_bitmap_free(bits_); }

  // "0-3,8" (hwloc's list format), also with an "hwloc:" prefix (PMIX_CPUSET); nullopt if malformed.
  static std::optional<Cpuset> parse_list(const std::string& text);
  std::string list() const;  // "0-3,8"; "" when empty

  bool empty() const { return hwloc_bitmap_iszero(bits_); }
  int weight() const { return hwloc_bitmap_weight(bits_); }
  bool within(const Cpuset& outer) const { return hwloc_bitmap_isincluded(bits_, outer.bits_); }
  bool intersects(const Cpuset& other) const { return hwloc_bitmap_intersects(bits_, other.bits_); }
  bool operator==(const Cpuset& other) const { return hwloc_bitmap_isequal(bits_, other.bits_); }
  void add(int pu) { hwloc_bitmap_set(bits_, static_cast<unsigned>(pu)); }
  void add(const Cpuset& other) { hwloc_bitmap_or(bits_, bits_, other.bits_); }

  hwloc_const_bitmap_t get() const { return bits_; }
  hwloc_bitmap_t get() { return bits_; }

 private:
  hwloc_bitmap_t bits_;
};

}  // namespace strata::topo
