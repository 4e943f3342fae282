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
  kPredefinedEnd
};

// nullptr for an index that is not a predefined type.
const Datatype* predefined(int index);

}  // namespace strata::datatype
