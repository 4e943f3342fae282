#include "transport/fabric_library.hpp"

#include <dlfcn.h>

#include <csignal>
#include <mutex>

namespace strata::transport {
namespace {

// Symbols in the version the headers link against (fabric.h's FI_VERSION 1.17 API, FABRIC_1.x symbol versions).
template <typename F>
bool resolve(void* handle, const char* name, const char* version, F*& out, std::string& error) {
  out = reinterpret_cast<F*>(dlvsym(handle, name, version));
  if (out == nullptr) error = std::string("libfabric.so.1 has no ") + name + "@" + version;
  return out != nullptr;
}

// libinfinipath's constructor installs its own handlers for SIGSEGV, SIGINT, SIGTERM and more (a backtrace, then
// exit 1): a crash would no longer be reported as the signal it is. The process's dispositions are put back.
class SignalDispositions {
 public:
  SignalDispositions() {
    for (int sig = 1; sig < NSIG; ++sig) saved_[sig].ok = sigaction(sig, nullptr, &saved_[sig].action) == 0;
  }
  ~SignalDispositions() {
    for (int sig = 1; sig < NSIG; ++sig)
      if (saved_[sig].ok && sig != SIGKILL && sig != SIGSTOP) sigaction(sig, &saved_[sig].action, nullptr);
  }

 private:
  struct Saved {
    struct sigaction action;
    bool ok = false;
  };
  Saved saved_[NSIG];
};

}  // namespace

const FabricLibrary* fabric_library(std::string* error) {
  static FabricLibrary library;
  static std::string load_error;
  static bool loaded = false;
  static std::once_flag once;
  std::call_once(once, [] {
    void* handle = nullptr;
    {
      SignalDispositions keep;
      handle = dlopen("libfabric.so.1", RTLD_NOW | RTLD_LOCAL);
    }
    if (handle == nullptr) {
      const char* why = dlerror();
      load_error = std::string("cannot load libfabric.so.1: ") + (why ? why : "unknown reason");
      return;
    }
    loaded = resolve(handle, "fi_getinfo", "FABRIC_1.3", library.getinfo, load_error) &&
             resolve(handle, "fi_freeinfo", "FABRIC_1.3", library.freeinfo, load_error) &&
             resolve(handle, "fi_dupinfo", "FABRIC_1.3", library.dupinfo, load_error) &&
             resolve(handle, "fi_fabric", "FABRIC_1.1", library.fabric, load_error) &&
             resolve(handle, "fi_strerror", "FABRIC_1.0", library.strerror, load_error);
  });
  if (!loaded && error != nullptr) *error = load_error;
  return loaded ? &library : nullptr;
}

}  // namespace strata::transport
