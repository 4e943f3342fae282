// Status conversions between C and Fortran (MPI-4.0 19.3.5). Strata has no Fortran binding; these serve C code
// called from Fortran, and a binding layered on libmpi. A Fortran status holds the C status's fields as integers in
// the order mpi.h's MPI_F_* indices give (source, tag, error, then the private ones); an mpi_f08 status is the same
// integers as a struct. Pure data conversions: they work at any time.
#include <algorithm>
#include <cstdint>

#include "api/check.hpp"

MPI_Fint strata_mpi_f_status_ignore[MPI_F_STATUS_SIZE], strata_mpi_f_statuses_ignore[MPI_F_STATUS_SIZE];
MPI_F08_status strata_mpi_f08_status_ignore, strata_mpi_f08_statuses_ignore;

using namespace strata::api;

namespace {

static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint), "every C status field has its integer");
static_assert(sizeof(MPI_F08_status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint));
using Integers = MPI_Fint[MPI_F_STATUS_SIZE];

void c_to_integers(const MPI_Status& c, MPI_Fint* f) {
  const auto bytes = static_cast<uint64_t>(c.strata_bytes);
  f[MPI_F_SOURCE] = c.MPI_SOURCE;
  f[MPI_F_TAG] = c.MPI_TAG;
  f[MPI_F_ERROR] = c.MPI_ERROR;
  f[3] = c.strata_cancelled;
  f[4] = static_cast<MPI_Fint>(static_cast<uint32_t>(bytes));
  f[5] = static_cast<MPI_Fint>(static_cast<uint32_t>(bytes >> 32));
}

void integers_to_c(const MPI_Fint* f, MPI_Status& c) {
  c.MPI_SOURCE = f[MPI_F_SOURCE];
  c.MPI_TAG = f[MPI_F_TAG];
  c.MPI_ERROR = f[MPI_F_ERROR];
  c.strata_cancelled = f[3];
  c.strata_bytes = static_cast<MPI_Count>(uint64_t{static_cast<uint32_t>(f[5])} << 32 | static_cast<uint32_t>(f[4]));
}

void integers_to_f08(const MPI_Fint* f, MPI_F08_status& s) {
  s.MPI_SOURCE = f[MPI_F_SOURCE];
  s.MPI_TAG = f[MPI_F_TAG];
  s.MPI_ERROR = f[MPI_F_ERROR];
  std::copy(f + 3, f + MPI_F_STATUS_SIZE, s.strata_internal);
}

void f08_to_integers(const MPI_F08_status& s, MPI_Fint* f) {
  f[MPI_F_SOURCE] = s.MPI_SOURCE;
  f[MPI_F_TAG] = s.MPI_TAG;
  f[MPI_F_ERROR] = s.MPI_ERROR;
  std::copy(s.strata_internal, s.strata_internal + 3, f + 3);
}

// A status argument must be a real status: neither NULL nor one of the IGNORE constants (MPI-4.0 19.3.5).
Check& real_status(Check& check, const void* status, const void* ignore, const void* ignore_all, const char* what) {
  check.not_null(status, what);
  if (check.ok() && (status == ignore || status == ignore_all))
    check.fail(MPI_ERR_ARG, std::string(what) + " is an IGNORE constant, not a status");
  return check;
}

Check& c_status(Check& check, const MPI_Status* s, const char* what) {
  return real_status(check, s, MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE, what);
}
Check& f_status(Check& check, const MPI_Fint* s, const char* what) {
  return real_status(check, s, MPI_F_STATUS_IGNORE, MPI_F_STATUSES_IGNORE, what);
}
Check& f08_status(Check& check, const MPI_F08_status* s, const char* what) {
  return real_status(check, s, MPI_F08_STATUS_IGNORE, MPI_F08_STATUSES_IGNORE, what);
}

}  // namespace

STRATA_PMPI(Status_c2f)
extern "C" int PMPI_Status_c2f(const MPI_Status* c, MPI_Fint* f) {
  Check check("MPI_Status_c2f", MPI_COMM_SELF, Check::kAnyTime);
  if (!f_status(c_status(check, c, "c_status"), f, "f_status").ok()) return check.raise();
  c_to_integers(*c, f);
  return MPI_SUCCESS;
}

STRATA_PMPI(Status_f2c)
extern "C" int PMPI_Status_f2c(const MPI_Fint* f, MPI_Status* c) {
  Check check("MPI_Status_f2c", MPI_COMM_SELF, Check::kAnyTime);
  if (!c_status(f_status(check, f, "f_status"), c, "c_status").ok()) return check.raise();
  integers_to_c(f, *c);
  return MPI_SUCCESS;
}

STRATA_PMPI(Status_c2f08)
extern "C" int PMPI_Status_c2f08(const MPI_Status* c, MPI_F08_status* f08) {
  Check check("MPI_Status_c2f08", MPI_COMM_SELF, Check::kAnyTime);
  if (!f08_status(c_status(check, c, "c_status"), f08, "f08_status").ok()) return check.raise();
  Integers f;
  c_to_integers(*c, f);
  integers_to_f08(f, *f08);
  return MPI_SUCCESS;
}

STRATA_PMPI(Status_f082c)
extern "C" int PMPI_Status_f082c(const MPI_F08_status* f08, MPI_Status* c) {
  Check check("MPI_Status_f082c", MPI_COMM_SELF, Check::kAnyTime);
  if (!c_status(f08_status(check, f08, "f08_status"), c, "c_status").ok()) return check.raise();
  Integers f;
  f08_to_integers(*f08, f);
  integers_to_c(f, *c);
  return MPI_SUCCESS;
}

STRATA_PMPI(Status_f2f08)
extern "C" int PMPI_Status_f2f08(const MPI_Fint* f, MPI_F08_status* f08) {
  Check check("MPI_Status_f2f08", MPI_COMM_SELF, Check::kAnyTime);
  if (!f08_status(f_status(check, f, "f_status"), f08, "f08_status").ok()) return check.raise();
  integers_to_f08(f, *f08);
  return MPI_SUCCESS;
}

STRATA_PMPI(Status_f082f)
extern "C" int PMPI_Status_f082f(const MPI_F08_status* f08, MPI_Fint* f) {
  Check check("MPI_Status_f082f", MPI_COMM_SELF, Check::kAnyTime);
  if (!f_status(f08_status(check, f08, "f08_status"), f, "f_status").ok()) return check.raise();
  f08_to_integers(*f08, f);
  return MPI_SUCCESS;
}
