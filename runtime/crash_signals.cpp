#include "runtime/crash_signals.hpp"

#include <dlfcn.h>
#include <signal.h>

#include <cstring>
#include <initializer_list>

namespace strata::runtime {

void drop_foreign_crash_handlers() {
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
    struct sigaction current;
    if (sigaction(sig, nullptr, &current) != 0) continue;
    void* handler = (current.sa_flags & SA_SIGINFO) ? reinterpret_cast<void*>(current.sa_sigaction)
                                                     : reinterpret_cast<void*>(current.sa_handler);
    if (handler == reinterpret_cast<void*>(SIG_DFL) || handler == reinterpret_cast<void*>(SIG_IGN)) continue;
    Dl_info info;
    if (dladdr(handler, &info) == 0 || info.dli_fname == nullptr) continue;
    if (std::strstr(info.dli_fname, "libinfinipath") || std::strstr(info.dli_fname, "libpsm")) signal(sig, SIG_DFL);
  }
}

}  // namespace strata::runtime
