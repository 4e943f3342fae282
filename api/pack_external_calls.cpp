// MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size (MPI-4.0 5.2.3): data packed in the "external32"
// representation (datatype/external32.hpp), through the native packed stream. Errors go to MPI_COMM_SELF's
// handler: these calls have no communicator. Each serves its large-count twin too (MPI_Pack_external_c, ...;
// MPI-4.0 2.5.8), whose counts, sizes and positions are MPI_Count: P is the type of the sizes and positions.
#include <cstring>
#include <string>
#include <vector>

#include "api/check.hpp"
#include "datatype/external32.hpp"
#include "datatype/pack.hpp"

using namespace strata;
using namespace strata::api;

namespace {

Check& external32(Check& check, const char* datarep) {
  check.not_null(datarep, "datarep");
  if (check.ok() && std::strcmp(datarep, "external32") != 0)
    check.fail(MPI_ERR_ARG, std::string("data representation \"") + datarep + "\" (only \"external32\" is defined)");
  return check;
}

// The checks both directions share; `bytes` is what `count` elements take in external32.
template <class P>
Check& packing(Check& check, const char* datarep, MPI_Count count, MPI_Datatype datatype, const void* user_buf,
               P size, const P* position, const datatype::Datatype*& t, std::size_t& bytes) {
  external32(check, datarep).count(count).type(datatype, t).committed(datatype).buffer(user_buf, count, t);
  check.not_null(position, "position");
  if (check.ok() && size < 0) check.fail(MPI_ERR_ARG, "negative buffer size " + std::to_string(size));
  if (check.ok() && (*position < 0 || *position > size))
    check.fail(MPI_ERR_ARG, "position " + std::to_string(*position) + " is outside the buffer's " +
                                std::to_string(size) + " bytes");
  if (check.ok()) bytes = datatype::external32_bytes(*t, static_cast<std::size_t>(count));
  if (check.ok() && bytes > static_cast<std::size_t>(size - *position))
    check.fail(MPI_ERR_TRUNCATE, std::to_string(count) + " elements take " + std::to_string(bytes) +
                                     " bytes in external32; the buffer has " + std::to_string(size - *position) +
                                     " left after position " + std::to_string(*position));
  return check;
}

template <class P>
int pack_external(const char* call, const char datarep[], const void* inbuf, MPI_Count incount, MPI_Datatype datatype,
                  void* outbuf, P outsize, P* position) {
  Check check(call);
  const datatype::Datatype* t = nullptr;
  std::size_t bytes = 0;
  packing(check, datarep, incount, datatype, inbuf, outsize, position, t, bytes);
  if (check.ok() && bytes > 0 && outbuf == nullptr) check.fail(MPI_ERR_BUFFER, "outbuf is NULL");
  if (!check.ok()) return check.raise();
  const auto count = static_cast<std::size_t>(incount);
  std::vector<char> native(datatype::wire_bytes(*t, count));
  datatype::pack(inbuf, count, *t, native.data());
  const Status s = datatype::to_external32(*t, count, native.data(), static_cast<char*>(outbuf) + *position);
  if (!s.ok()) return check.fail(s.error_class, s.message).raise();
  *position += static_cast<P>(bytes);
  return MPI_SUCCESS;
}

template <class P>
int unpack_external(const char* call, const char datarep[], const void* inbuf, P insize, P* position, void* outbuf,
                    MPI_Count outcount, MPI_Datatype datatype) {
  Check check(call);
  const datatype::Datatype* t = nullptr;
  std::size_t bytes = 0;
  packing(check, datarep, outcount, datatype, outbuf, insize, position, t, bytes);
  if (check.ok() && bytes > 0 && inbuf == nullptr) check.fail(MPI_ERR_BUFFER, "inbuf is NULL");
  if (!check.ok()) return check.raise();
  const auto count = static_cast<std::size_t>(outcount);
  std::vector<char> native(datatype::wire_bytes(*t, count));
  datatype::from_external32(*t, count, static_cast<const char*>(inbuf) + *position, native.data());
  datatype::unpack(native.data(), native.size(), count, *t, outbuf);
  *position += static_cast<P>(bytes);
  return MPI_SUCCESS;
}

template <class P>
int pack_external_size(const char* call, const char datarep[], MPI_Count incount, MPI_Datatype datatype, P* size) {
  Check check(call);
  const datatype::Datatype* t = nullptr;
  external32(check, datarep).count(incount).type(datatype, t).not_null(size, "size");
  if (!check.ok()) return check.raise();
  *size = static_cast<P>(datatype::external32_bytes(*t, static_cast<std::size_t>(incount)));
  return MPI_SUCCESS;
}

}  // namespace

STRATA_PMPI(Pack_external)
extern "C" int PMPI_Pack_external(const char datarep[], const void* inbuf, int incount, MPI_Datatype datatype,
                                  void* outbuf, MPI_Aint outsize, MPI_Aint* position) {
  const runtime::CallScope call_scope;
  return pack_external("MPI_Pack_external", datarep, inbuf, incount, datatype, outbuf, outsize, position);
}

STRATA_PMPI(Pack_external_c)
extern "C" int PMPI_Pack_external_c(const char datarep[], const void* inbuf, MPI_Count incount, MPI_Datatype datatype,
                                    void* outbuf, MPI_Count outsize, MPI_Count* position) {
  const runtime::CallScope call_scope;
  return pack_external("MPI_Pack_external_c", datarep, inbuf, incount, datatype, outbuf, outsize, position);
}

STRATA_PMPI(Unpack_external)
extern "C" int PMPI_Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize, MPI_Aint* position,
                                    void* outbuf, int outcount, MPI_Datatype datatype) {
  const runtime::CallScope call_scope;
  return unpack_external("MPI_Unpack_external", datarep, inbuf, insize, position, outbuf, outcount, datatype);
}

STRATA_PMPI(Unpack_external_c)
extern "C" int PMPI_Unpack_external_c(const char datarep[], const void* inbuf, MPI_Count insize,
                                      MPI_Count* position, void* outbuf, MPI_Count outcount, MPI_Datatype datatype) {
  const runtime::CallScope call_scope;
  return unpack_external("MPI_Unpack_external_c", datarep, inbuf, insize, position, outbuf, outcount, datatype);
}

STRATA_PMPI(Pack_external_size)
extern "C" int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint* size) {
  const runtime::CallScope call_scope;
  return pack_external_size("MPI_Pack_external_size", datarep, incount, datatype, size);
}

STRATA_PMPI(Pack_external_size_c)
extern "C" int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                                         MPI_Count* size) {
  const runtime::CallScope call_scope;
  return pack_external_size("MPI_Pack_external_size_c", datarep, incount, datatype, size);
}
