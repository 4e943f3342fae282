#include "tools/mpiexec/pmix_info_list.hpp"

#include <stdexcept>

namespace strata::mpiexec {

void check_pmix(pmix_status_t rc, const char* what) {
  if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED)
    throw std::runtime_error(std::string(what) + ": " + PMIx_Error_string(rc));
}

void InfoList::add_raw(const char* key, const void* value, pmix_data_type_t type) {
  check_pmix(PMIx_Info_list_add(list_, key, value, type), "PMIx_Info_list_add");
}

void InfoList::add(const char* key, InfoList& inner) {
  pmix_data_array_t array{};
  check_pmix(PMIx_Info_list_convert(inner.list_, &array), "PMIx_Info_list_convert");
  pmix_status_t rc = PMIx_Info_list_add(list_, key, &array, PMIX_DATA_ARRAY);  // copies the array
  PMIx_Data_array_destruct(&array);
  check_pmix(rc, "PMIx_Info_list_add");
}

InfoArray InfoList::to_array() {
  pmix_data_array_t array{};
  check_pmix(PMIx_Info_list_convert(list_, &array), "PMIx_Info_list_convert");
  return InfoArray(array);
}

}  // namespace strata::mpiexec
