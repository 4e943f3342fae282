#include "transport/fabric_library.hpp"

#include <dlfcn.h>

#include <csignal>

#include "runtime/lasting.hpp"

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

// The library and its symbols, or why not. Loaded once: a function-local static is initialised thread-safely.
struct Loaded {
  FabricLibrary library{};
  std::string error;
  bool ok = false;
};

Loaded load() {
  Loaded l;
  void* handle = nullptr;
  {
    SignalDispositions keep;
    handle = dlopen("libfabric.so.1", RTLD_NOW | RTLD_LOCAL);
  }
  if (handle == nullptr) {
    const char* why = dlerror();
    l.error = std::string("cannot load libfabric.so.1: ") + (why ? why : "unknown reason");
    return l;
  }
  l.ok = resolve(handle, "fi_getinfo", "FABRIC_1.3", l.library.getinfo, l.error) &&
         resolve(handle, "fi_freeinfo", "FABRIC_1.3", l.library.freeinfo, l.error) &&
         resolve(handle, "fi_dupinfo", "FABRIC_1.3", l.library.dupinfo, l.error) &&
         resolve(handle, "fi_fabric", "FABRIC_1.1", l.library.fabric, l.error) &&
         resolve(handle, "fi_strerror", "FABRIC_1.0", l.library.strerror, l.error);
  return l;
}

}  // namespace

const FabricLibrary* fabric_library(std::string* error) {
  static auto& loaded = runtime::lasting<const Loaded>(load());
  if (!loaded.ok && error != nullptr) *error = loaded.error;
  return loaded.ok ? &loaded.library : nullptr;
}

}  // namespace strata::transport
