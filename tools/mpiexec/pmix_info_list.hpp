// RAII over PMIx's own info-list API, so nested pmix_info_t arrays (PMIX_PROC_DATA, PMIX_NODE_INFO_ARRAY)
// are built without hand-managed C memory.
#pragma once

#include <pmix.h>
#include <pmix_server.h>

#include <cstdint>
#include <string>

namespace strata::mpiexec {

// A finished pmix_info_t array, as PMIx calls take it (pointer + count).
class InfoArray {
 public:
  InfoArray() = default;
  explicit InfoArray(pmix_data_array_t array) : array_(array) {}
  InfoArray(const InfoArray&) = delete;
  InfoArray& operator=(const InfoArray&) = delete;
  ~InfoArray() { PMIx_Data_array_destruct(&array_); }

  pmix_info_t* data() { return static_cast<pmix_info_t*>(array_.array); }
  std::size_t size() const { return array_.size; }

 private:
  pmix_data_array_t array_{};
};

class InfoList {
 public:
  InfoList() : list_(PMIx_Info_list_start()) {}
  InfoList(const InfoList&) = delete;
  InfoList& operator=(const InfoList&) = delete;
  ~InfoList() { PMIx_Info_list_release(list_); }

  void add(const char* key, const std::string& value) { add_raw(key, value.c_str(), PMIX_STRING); }
  void add(const char* key, std::uint32_t value) { add_raw(key, &value, PMIX_UINT32); }
  void add(const char* key, std::uint16_t value) { add_raw(key, &value, PMIX_UINT16); }
  void add(const char* key, bool value) { add_raw(key, &value, PMIX_BOOL); }
  void add_rank(const char* key, pmix_rank_t value) { add_raw(key, &value, PMIX_PROC_RANK); }
  // Adds `inner` as one value of type PMIX_DATA_ARRAY (of PMIX_INFO); `inner` is left unchanged.
  void add(const char* key, InfoList& inner);

  InfoArray to_array();

 private:
  void add_raw(const char* key, const void* value, pmix_data_type_t type);
  void* list_;
};

// Throws std::runtime_error("<what>: <PMIx error string>") unless rc is a success code.
void check_pmix(pmix_status_t rc, const char* what);

}  // namespace strata::mpiexec
