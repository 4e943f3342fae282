// A vertex's successors (Vertex::next in schedule.hpp). Most vertices have one or two, which live inline; a third
// moves them all to the heap. A std::vector there cost one allocation per vertex, the most of any in a large
// schedule: tools/plan's 2048-rank ring allreduce holds 25 million vertices.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace strata::coll {

template <class T>
class Successors {
 public:
  Successors() = default;
  Successors(const Successors& o) { append(o); }
  Successors(Successors&& o) noexcept { take(o); }
  Successors& operator=(const Successors& o) {
    if (this != &o) {
      release();
      append(o);
    }
    return *this;
  }
  Successors& operator=(Successors&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~Successors() { release(); }

  void push_back(T x) {
    if (size_ == capacity()) grow();
    data()[size_++] = x;
  }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }

 private:
  static constexpr uint32_t kInline = 2;
  static_assert(kInline * sizeof(T) <= sizeof(T*), "the inline values share the heap pointer's space");

  bool on_heap() const { return heap_capacity_ != 0; }
  uint32_t capacity() const { return on_heap() ? heap_capacity_ : kInline; }
  T* data() { return on_heap() ? heap_ : inline_; }
  const T* data() const { return on_heap() ? heap_ : inline_; }

  void grow() {
    const uint32_t bigger = capacity() * 2;
    T* moved = new T[bigger];
    std::copy(begin(), end(), moved);
    if (on_heap()) delete[] heap_;
    heap_ = moved;
    heap_capacity_ = bigger;
  }
  // Empty and inline again.
  void release() {
    if (on_heap()) delete[] heap_;
    heap_capacity_ = 0;
    size_ = 0;
  }
  void append(const Successors& o) {
    for (T x : o) push_back(x);
  }
  void take(Successors& o) {
    size_ = o.size_;
    heap_capacity_ = o.heap_capacity_;
    if (o.on_heap()) heap_ = o.heap_;
    else std::copy(o.inline_, o.inline_ + o.size_, inline_);
    o.heap_capacity_ = 0;
    o.size_ = 0;
  }

  union {
    T inline_[kInline] = {};
    T* heap_;
  };
  uint32_t size_ = 0;
  uint32_t heap_capacity_ = 0;  // 0: inline
};

}  // namespace strata::coll
