// crashForTest: compiled into every build on purpose. The harness runs the binding in a child
// process and uses this to prove that a native crash there is reported, not fatal to the run.
#include <csignal>
#include <cstdlib>
#include <string>

#include "addon.h"
#include "convert.h"

namespace rvt {

Napi::Value VerbsAddon::CrashForTest(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString()) ThrowType(env, "crashForTest(kind): kind must be 'segv', 'fpe' or 'abort'");
  std::string kind = info[0].As<Napi::String>().Utf8Value();
  if (kind == "segv") {
    volatile int* nowhere = nullptr;
    *nowhere = 1;
    raise(SIGSEGV);  // in case the store did not fault
  } else if (kind == "fpe") {
    volatile int zero = 0;
    volatile int quotient = 1 / zero;
    (void)quotient;
    raise(SIGFPE);  // integer division by zero traps on x86, not everywhere
  } else if (kind == "abort") {
    abort();
  }
  ThrowType(env, "crashForTest(kind): kind must be 'segv', 'fpe' or 'abort'");
}

}  // namespace rvt
