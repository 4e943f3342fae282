#include "datatype/signature_hash.hpp"

#include "datatype/predefined.hpp"

namespace strata::datatype {
namespace {

constexpr uint64_t kModulus = (uint64_t{1} << 61) - 1;  // a Mersenne prime: reduction is a shift and an add
constexpr uint64_t kBase = 0x5bd1e9955bd1e99;            // below the modulus

uint64_t multiply(uint64_t a, uint64_t b) {
  const unsigned __int128 product = static_cast<unsigned __int128>(a) * b;
  uint64_t r = static_cast<uint64_t>(product & kModulus) + static_cast<uint64_t>(product >> 61);
  return r >= kModulus ? r - kModulus : r;
}

uint64_t add(uint64_t a, uint64_t b) {
  const uint64_t r = a + b;
  return r >= kModulus ? r - kModulus : r;
}

// One basic element: predefined types are symbols of their own (pairs such as MPI_DOUBLE_INT included).
SignatureHash symbol(int predefined_index) {
  return {static_cast<uint64_t>(predefined_index) + 1, kBase, 1, predefined_index == kPacked};
}

SignatureHash element(const Datatype& type) {
  if (type.predefined) return symbol(type.element);
  SignatureHash h;
  for (const SignaturePart& part : type.signature) h = concatenate(h, repeat(element(*part.type), part.repeat));
  return h;
}

}  // namespace

SignatureHash concatenate(const SignatureHash& a, const SignatureHash& b) {
  return {add(multiply(a.hash, b.power), b.hash), multiply(a.power, b.power), a.length + b.length,
          a.packed || b.packed};
}

SignatureHash repeat(const SignatureHash& a, std::size_t times) {
  SignatureHash result, doubling = a;
  for (; times != 0; times >>= 1) {
    if (times & 1) result = concatenate(result, doubling);
    doubling = concatenate(doubling, doubling);
  }
  return result;
}

SignatureHash signature_hash(const Datatype& type, std::size_t count) { return repeat(element(type), count); }

}  // namespace strata::datatype
