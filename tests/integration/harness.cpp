// SPDX-License-Identifier: Apache-2.0
// Injection harness: dlopens libirf.so like the CUDA driver does, calls InitializeInjection,
// then does what its mode arguments say and returns from main (so atexit finalization runs).
//   harness [LIB] [MODE...]   LIB defaults to $IRF_HARNESS_LIB
// Modes, applied in order after initialization:
//   init-again     call InitializeInjection a second time (must be a no-op)
//   fork           fork; the child returns from main too, the parent waits for it
//   raise:SIG      raise TERM, INT or ABRT
//   exit:N         return N from main
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <csignal>
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using InitFn = int (*)();

int raise_named(const std::string& name) {
    const int sig = name == "TERM"   ? SIGTERM
                    : name == "INT"  ? SIGINT
                    : name == "ABRT" ? SIGABRT
                                     : 0;
    if (sig == 0) {
        std::fprintf(stderr, "harness: unknown signal %s\n", name.c_str());
        return 2;
    }
    std::raise(sig);
    return 0;
}

/// Runs one mode; returns -1 to continue, else the exit code of main.
int run_mode(const std::string& mode, InitFn init) {
    if (mode == "init-again") {
        std::printf("init-again: %d\n", init());
    } else if (mode == "fork") {
        const pid_t child = ::fork();
        if (child < 0) {
            std::perror("harness: fork");
            return 3;
        }
        if (child > 0) {
            int status = 0;
            ::waitpid(child, &status, 0);
            std::printf("child %d exited %d\n", static_cast<int>(child),
                        WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        }
    } else if (mode.rfind("raise:", 0) == 0) {
        return raise_named(mode.substr(6)) == 0 ? -1 : 2;
    } else if (mode.rfind("exit:", 0) == 0) {
        return std::atoi(mode.c_str() + 5);
    } else {
        std::fprintf(stderr, "harness: unknown mode %s\n", mode.c_str());
        return 2;
    }
    return -1;
}

} // namespace

int main(int argc, char** argv) {
    int first_mode = 1;
    const char* lib = std::getenv("IRF_HARNESS_LIB");
    if (argc > 1 && std::strchr(argv[1], ':') == nullptr &&
        std::strstr(argv[1], ".so") != nullptr) {
        lib = argv[1];
        first_mode = 2;
    }
    if (lib == nullptr) {
        std::fprintf(stderr, "usage: harness LIBIRF.so [MODE...] (or set IRF_HARNESS_LIB)\n");
        return 2;
    }
    void* handle = ::dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        std::fprintf(stderr, "harness: %s\n", ::dlerror());
        return 2;
    }
    const auto init = reinterpret_cast<InitFn>(::dlsym(handle, "InitializeInjection"));
    if (init == nullptr) {
        std::fprintf(stderr, "harness: InitializeInjection not exported by %s\n", lib);
        return 2;
    }
    std::printf("init: %d\n", init());
    for (int i = first_mode; i < argc; ++i) {
        const int code = run_mode(argv[i], init);
        if (code >= 0) {
            return code;
        }
    }
    return 0;
}
