// libfabric, loaded by dlopen when the first endpoint opens instead of with libmpi. Debian's libfabric links the psm
// and psm2 providers, and their libraries (libinfinipath, libpsm2) calibrate the clock in their constructors: every
// process that merely loads them sleeps 200 ms pinned to CPU 0, needed or not. A job whose peers are all ring peers
// opens no endpoint, so it now starts without them (MPI_Init of 1 to 8 ranks on one node: 230 ms -> 30 ms here).
// Loading also leaves the signal dispositions as they were (see fabric_library.cpp).
// Only these entry points are real symbols; the rest of the API is inline calls through each object's ops table.
#pragma once
#include <rdma/fabric.h>

#include <string>

namespace strata::transport {

struct FabricLibrary {
  int (*getinfo)(uint32_t version, const char* node, const char* service, uint64_t flags, const fi_info* hints,
                 fi_info** info);
  void (*freeinfo)(fi_info* info);
  fi_info* (*dupinfo)(const fi_info* info);  // dupinfo(nullptr) is fi_allocinfo()
  int (*fabric)(fi_fabric_attr* attr, fid_fabric** fabric, void* context);
  const char* (*strerror)(int errnum);
};

// The library, loaded at the first call; nullptr (and `error` says why) if it or a symbol is missing.
const FabricLibrary* fabric_library(std::string* error);

}  // namespace strata::transport
