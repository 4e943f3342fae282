// The standard's predefined datatypes. The enum values are the handle indices in include/mpi.h (api/ checks that
// at compile time), so the table is indexed directly by a handle's index.
#pragma once
#include "datatype/datatype.hpp"

namespace strata::datatype {

enum PredefinedType : int {
  kChar = 1, kSignedChar, kUnsignedChar, kByte, kWchar, kShort, kUnsignedShort, kInt, kUnsigned, kLong,
  kUnsignedLong, kLongLong, kUnsignedLongLong, kFloat, kDouble, kLongDouble, kCBool, kInt8, kInt16, kInt32,
  kInt64, kUint8, kUint16, kUint32, kUint64, kCFloatComplex, kCDoubleComplex, kCLongDoubleComplex, kAint, kOffset,
  kCount, kPacked, kFloatInt, kDoubleInt, kLongInt, k2Int, kShortInt, kLongDoubleInt, kCxxBool,
  kCxxFloatComplex, kCxxDoubleComplex, kCxxLongDoubleComplex,
  // Fortran's (gfortran's default kinds)
  kCharacter, kLogical, kInteger, kReal, kDoublePrecision, kComplex, kDoubleComplex, k2Integer, k2Real,
  k2DoublePrecision, kInteger1, kInteger2, kInteger4, kInteger8, kReal4, kReal8, kComplex8, kComplex16,
  kPredefinedEnd
};

// The predefined type at `index` (a reference that owns nothing: these live as long as the program), or null for
// an index that is not a predefined type.
TypeRef predefined(int index);

// The sizes of a predefined type's basic elements in order: one, or two for a MAXLOC/MINLOC pair.
struct BasicParts {
  std::size_t sizes[2];
  int count;
};
BasicParts basic_parts(int index);

}  // namespace strata::datatype
