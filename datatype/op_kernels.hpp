// The loops of the predefined reduction operators: loop<Operator, T> is inout[i] = Operator(in[i], inout[i]) over
// n elements of the C type T. For the arithmetic, logical and bitwise operators on integer and floating types the
// compiler vectorises it (op.cpp is built with the vectoriser's dynamic cost model, see datatype/CMakeLists.txt).
// op.cpp instantiates one loop per (operator, type) pair the standard allows into its [operator][type] table.
#pragma once
#include <cstddef>
#include <type_traits>

namespace strata::datatype::kernels {

// The C layout of the MAXLOC/MINLOC pair types: MPI_DOUBLE_INT is struct { double value; int index; }, Fortran's
// MPI_2REAL struct { float value; float index; }.
template <class V, class Index = int>
struct Pair {
  V value;
  Index index;
};

// Integer sums and products wrap around (two's complement) instead of overflowing, which C++ leaves undefined:
// they are computed in an unsigned type at least as wide as unsigned int (so that short operands are not promoted
// to a signed int that could overflow too), and the conversion back is modular (C++20).
template <class T>
using Wrapping = std::common_type_t<std::make_unsigned_t<T>, unsigned>;

struct Max {
  template <class T>
  static T apply(T in, T inout) { return in > inout ? in : inout; }
};

struct Min {
  template <class T>
  static T apply(T in, T inout) { return in < inout ? in : inout; }
};

struct Sum {
  template <class T>
  static T apply(T in, T inout) {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(static_cast<Wrapping<T>>(in) + static_cast<Wrapping<T>>(inout));
    else
      return in + inout;
  }
};

struct Prod {
  template <class T>
  static T apply(T in, T inout) {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(static_cast<Wrapping<T>>(in) * static_cast<Wrapping<T>>(inout));
    else
      return in * inout;
  }
};

// Logical operators: any nonzero value is true; the result is 0 or 1 of the operands' type.
struct Land {
  template <class T>
  static T apply(T in, T inout) { return static_cast<T>(in != T(0) && inout != T(0)); }
};

struct Lor {
  template <class T>
  static T apply(T in, T inout) { return static_cast<T>(in != T(0) || inout != T(0)); }
};

struct Lxor {
  template <class T>
  static T apply(T in, T inout) { return static_cast<T>((in != T(0)) != (inout != T(0))); }
};

struct Band {
  template <class T>
  static T apply(T in, T inout) { return static_cast<T>(in & inout); }
};

struct Bor {
  template <class T>
  static T apply(T in, T inout) { return static_cast<T>(in | inout); }
};

struct Bxor {
  template <class T>
  static T apply(T in, T inout) { return static_cast<T>(in ^ inout); }
};

// MAXLOC and MINLOC (MPI-4.0 6.9.4): the larger (smaller) value with its index; on equal values the smaller index.
// A NaN compares false both ways, so it leaves inout as it is.
struct Maxloc {
  template <class P>
  static P apply(P in, P inout) {
    if (in.value > inout.value) return in;
    if (in.value == inout.value && in.index < inout.index) inout.index = in.index;
    return inout;
  }
};

struct Minloc {
  template <class P>
  static P apply(P in, P inout) {
    if (in.value < inout.value) return in;
    if (in.value == inout.value && in.index < inout.index) inout.index = in.index;
    return inout;
  }
};

// MPI_REPLACE is f(target, origin) = origin (MPI-4.0 12.3.4): inout takes in. MPI_NO_OP leaves inout (its loop
// compiles to nothing).
struct Replace {
  template <class T>
  static T apply(T in, T) { return in; }
};

struct NoOp {
  template <class T>
  static T apply(T, T inout) { return inout; }
};

template <class Operator, class T>
void loop(const void* in, void* inout, std::size_t n) {
  const T* a = static_cast<const T*>(in);
  T* b = static_cast<T*>(inout);
  for (std::size_t i = 0; i < n; ++i) b[i] = Operator::apply(a[i], b[i]);
}

}  // namespace strata::datatype::kernels
