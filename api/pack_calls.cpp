// MPI_Pack, MPI_Unpack, MPI_Pack_size (MPI-4.0 5.2) with their large-count twins, and the address calls (5.1.5). A
// packed buffer holds the same stream as the wire (datatype/pack.hpp): the data in type-map order, no header, so
// MPI_PACKED messages and MPI_Pack_size agree byte for byte.
#include <climits>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "api/check.hpp"
#include "datatype/pack.hpp"

using namespace strata;
using namespace strata::api;

namespace {

// Each call below serves its int form and its large-count one (MPI_Pack_c, ...; MPI-4.0 2.5.8), whose counts, sizes
// and positions are MPI_Count: P is the type of the sizes and positions.

// The checks MPI_Pack and MPI_Unpack share; `bytes` is what `count` elements take packed.
template <class P>
Check& packing(Check& check, MPI_Comm comm, MPI_Count count, MPI_Datatype datatype, const void* user_buf, P size,
               const P* position, const datatype::Datatype*& t, std::size_t& bytes) {
  comm::Communicator* c = nullptr;
  check.comm(comm, c).count(count).type(datatype, t).committed(datatype).buffer(user_buf, count, t);
  check.not_null(position, "position");
  if (check.ok() && size < 0) check.fail(MPI_ERR_ARG, "negative buffer size " + std::to_string(size));
  if (check.ok() && (*position < 0 || *position > size))
    check.fail(MPI_ERR_ARG, "position " + std::to_string(*position) + " is outside the buffer's " +
                                std::to_string(size) + " bytes");
  if (check.ok()) bytes = datatype::wire_bytes(*t, static_cast<std::size_t>(count));
  return check;
}

template <class P>
int pack(const char* call, const void* inbuf, MPI_Count incount, MPI_Datatype datatype, void* outbuf, P outsize,
         P* position, MPI_Comm comm) {
  Check check(call, comm);
  const datatype::Datatype* t = nullptr;
  std::size_t bytes = 0;
  packing(check, comm, incount, datatype, inbuf, outsize, position, t, bytes);
  if (check.ok() && bytes > static_cast<std::size_t>(outsize - *position))
    check.fail(MPI_ERR_TRUNCATE, std::to_string(incount) + " elements take " + std::to_string(bytes) +
                                     " bytes packed; outbuf has " + std::to_string(outsize - *position) +
                                     " left after position " + std::to_string(*position));
  if (check.ok() && bytes > 0 && outbuf == nullptr) check.fail(MPI_ERR_BUFFER, "outbuf is NULL");
  if (!check.ok()) return check.raise();
  datatype::pack(inbuf, static_cast<std::size_t>(incount), *t, static_cast<char*>(outbuf) + *position);
  *position += static_cast<P>(bytes);
  return MPI_SUCCESS;
}

template <class P>
int unpack(const char* call, const void* inbuf, P insize, P* position, void* outbuf, MPI_Count outcount,
           MPI_Datatype datatype, MPI_Comm comm) {
  Check check(call, comm);
  const datatype::Datatype* t = nullptr;
  std::size_t bytes = 0;
  packing(check, comm, outcount, datatype, outbuf, insize, position, t, bytes);
  if (check.ok() && bytes > static_cast<std::size_t>(insize - *position))
    check.fail(MPI_ERR_TRUNCATE, std::to_string(outcount) + " elements take " + std::to_string(bytes) +
                                     " bytes packed; inbuf has " + std::to_string(insize - *position) +
                                     " left after position " + std::to_string(*position));
  if (check.ok() && bytes > 0 && inbuf == nullptr) check.fail(MPI_ERR_BUFFER, "inbuf is NULL");
  if (!check.ok()) return check.raise();
  datatype::unpack(static_cast<const char*>(inbuf) + *position, bytes, static_cast<std::size_t>(outcount), *t,
                   outbuf);
  *position += static_cast<P>(bytes);
  return MPI_SUCCESS;
}

template <class P>
int pack_size(const char* call, MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, P* size) {
  Check check(call, comm);
  comm::Communicator* c = nullptr;
  const datatype::Datatype* t = nullptr;
  check.comm(comm, c).count(incount).type(datatype, t).not_null(size, "size");
  if (!check.ok()) return check.raise();
  const std::size_t bytes = t->size;
  const auto most = static_cast<std::size_t>(std::numeric_limits<P>::max());
  if (incount > 0 && bytes > most / static_cast<std::size_t>(incount))
    return check.fail(MPI_ERR_VALUE_TOO_LARGE, std::to_string(incount) + " elements of " + std::to_string(bytes) +
                                                   " bytes do not fit " +
                                                   (std::is_same_v<P, int> ? "an int (use MPI_Pack_size_c)"
                                                                           : "an MPI_Count"))
        .raise();
  *size = static_cast<P>(bytes * static_cast<std::size_t>(incount));
  return MPI_SUCCESS;
}

}  // namespace

STRATA_PMPI(Pack)
extern "C" int PMPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize,
                         int* position, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return pack("MPI_Pack", inbuf, incount, datatype, outbuf, outsize, position, comm);
}

STRATA_PMPI(Pack_c)
extern "C" int PMPI_Pack_c(const void* inbuf, MPI_Count incount, MPI_Datatype datatype, void* outbuf,
                           MPI_Count outsize, MPI_Count* position, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return pack("MPI_Pack_c", inbuf, incount, datatype, outbuf, outsize, position, comm);
}

STRATA_PMPI(Unpack)
extern "C" int PMPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
                           MPI_Datatype datatype, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return unpack("MPI_Unpack", inbuf, insize, position, outbuf, outcount, datatype, comm);
}

STRATA_PMPI(Unpack_c)
extern "C" int PMPI_Unpack_c(const void* inbuf, MPI_Count insize, MPI_Count* position, void* outbuf,
                             MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm) {
  const runtime::CallScope call_scope;
  return unpack("MPI_Unpack_c", inbuf, insize, position, outbuf, outcount, datatype, comm);
}

STRATA_PMPI(Pack_size)
extern "C" int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
  const runtime::CallScope call_scope;
  return pack_size("MPI_Pack_size", incount, datatype, comm, size);
}

STRATA_PMPI(Pack_size_c)
extern "C" int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count* size) {
  const runtime::CallScope call_scope;
  return pack_size("MPI_Pack_size_c", incount, datatype, comm, size);
}

STRATA_PMPI(Get_address)
extern "C" int PMPI_Get_address(const void* location, MPI_Aint* address) {
  Check check("MPI_Get_address");
  check.not_null(address, "address");
  if (!check.ok()) return check.raise();
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}

// Address arithmetic as integers (MPI-4.0 5.1.5): well defined where pointer arithmetic across objects is not.
STRATA_PMPI(Aint_add)
extern "C" MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp) {
  return static_cast<MPI_Aint>(static_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(disp));
}

STRATA_PMPI(Aint_diff)
extern "C" MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) {
  return static_cast<MPI_Aint>(static_cast<std::uintptr_t>(addr1) - static_cast<std::uintptr_t>(addr2));
}
