// SPDX-License-Identifier: Apache-2.0
// Fault harness: an application that loads libirf.so like the CUDA driver and then ends badly.
//   fault_harness LIB [MODE...]
// Modes run in order. `init` dlopens LIB and calls InitializeInjection; when no `init` is given
// it runs before the first mode. Modes (N a number, SIG one of TERM INT ABRT SEGV):
//   init             load and initialize irf now (modes before it run first, e.g. handler:)
//   return:N         return N from main
//   exit-thread:N    call exit(N) from a worker thread while main waits
//   _exit:N          _exit(N): no atexit handlers
//   quick_exit:N     quick_exit(N): only at_quick_exit handlers
//   raise:SIG        raise SIG in the main thread
//   kill:SIG         another thread sends SIG to the process; main waits for it
//   kill-after:SIG:MS  the same, MS milliseconds after this mode (a random moment in a test)
//   kill-on-temporary:SIG  at exit (an atexit handler that runs before irf's), a thread sends
//                    SIG the moment a write_file_atomic temporary appears next to IRF_OUTPUT
//   kill-small-stack:SIG:BYTES  SIG sent to a thread whose stack is BYTES long, while it sleeps
//                    (the handler runs there: it must leave the work to irf's finalizer thread)
//   abort            std::abort()
//   segv             write through a null pointer
//   handler:SIG:N    the application's own handler for SIG: prints and _exit(N)
//   handler-return:SIG  the application's own handler for SIG: prints and returns (a graceful
//                    shutdown that lets main go on to its normal exit)
//   ignore:SIG       set SIG to SIG_IGN
//   disposition:SIG  print "SIGX: default", "ignored", "application's handler" or "another
//                    handler" (irf's): the positive control of rows where irf must stay out
//   atexit-raise:SIG register an atexit handler that raises SIG
//   fork             fork; the child returns from main, the parent waits and prints its status
//   fork-exec        fork; the child execs this harness with LIB and `return:0`
//   fork-orphan      fork; the parent returns from main at once, the child returns once it has
//                    been orphaned (after the parent's exit and its profile)
//   umask:OOO        set the umask (octal)
//   fsize:N          limit file size to N bytes (RLIMIT_FSIZE) and ignore SIGXFSZ: "disk full"
//   chdir:DIR        change the working directory
//   stderr-to:FILE   reopen fd 2 on FILE (an application that writes data there) and write
//                    "data" to it
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include <dlfcn.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using InitFn = int (*)();

const char* s_self = nullptr;
const char* s_lib = nullptr;
int s_handler_exit = 0;
int s_atexit_signal = 0;

int signal_named(const std::string& name) {
    return name == "TERM"   ? SIGTERM
           : name == "INT"  ? SIGINT
           : name == "ABRT" ? SIGABRT
           : name == "SEGV" ? SIGSEGV
                            : 0;
}

bool initialize() {
    void* handle = ::dlopen(s_lib, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        std::fprintf(stderr, "fault_harness: %s\n", ::dlerror());
        return false;
    }
    const auto init = reinterpret_cast<InitFn>(::dlsym(handle, "InitializeInjection"));
    if (init == nullptr) {
        std::fprintf(stderr, "fault_harness: InitializeInjection not exported by %s\n", s_lib);
        return false;
    }
    std::printf("init: %d\n", init());
    std::fflush(stdout);
    return true;
}

void app_handler(int sig) {
    // Async-signal-safe only: what a careful application does.
    const char text[] = "application handler ran\n";
    (void)!::write(STDOUT_FILENO, text, sizeof text - 1);
    (void)sig;
    ::_exit(s_handler_exit);
}

void app_handler_returning(int sig) {
    const char text[] = "application handler ran and returned\n";
    (void)!::write(STDOUT_FILENO, text, sizeof text - 1);
    (void)sig;
}

/// Prints who handles `sig` now. After `init`, "another handler" can only be irf's, so a row
/// that expects irf to do nothing visible shows with it that irf was loaded and active.
void print_disposition(const std::string& name) {
    struct sigaction current {};
    ::sigaction(signal_named(name), nullptr, &current);
    const bool info = (current.sa_flags & SA_SIGINFO) != 0;
    const char* who =
        info                            ? "another handler"
        : current.sa_handler == SIG_DFL ? "default"
        : current.sa_handler == SIG_IGN ? "ignored"
        : current.sa_handler == app_handler || current.sa_handler == app_handler_returning
            ? "application's handler"
            : "another handler";
    std::printf("SIG%s: %s\n", name.c_str(), who);
    std::fflush(stdout);
}

void raise_at_exit() {
    std::raise(s_atexit_signal);
}

/// Sends `sig` to the process 50 ms from now, as mpirun or a batch system would while the
/// application runs: by then the main thread waits in wait_for_end. (Sent at once, the signal
/// could land while the main thread is still inside pthread_create, where ThreadSanitizer's
/// deferred delivery loses it.)
void send_to_process_soon(int sig) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ::kill(::getpid(), sig);
}

/// Sends `sig` when a temporary (".tmp.") appears in `dir`: the exit-time write is under way.
void send_when_temporary_appears(std::string dir, int sig) {
    for (int i = 0; i < 200000; ++i) { // about 20 s
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
            if (entry.path().filename().string().find(".tmp.") != std::string::npos) {
                const char text[] = "temporary seen\n";
                (void)!::write(STDOUT_FILENO, text, sizeof text - 1);
                ::kill(::getpid(), sig);
                return;
            }
        }
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
}

int s_temporary_signal = 0;

void watch_for_temporary_at_exit() {
    const char* output = std::getenv("IRF_OUTPUT");
    const std::string dir = std::filesystem::path(output != nullptr ? output : "x").parent_path();
    std::thread(send_when_temporary_appears, dir.empty() ? "." : dir, s_temporary_signal).detach();
}

void* sleep_until_killed(void*) {
    for (;;) {
        ::pause();
    }
}

/// Starts a sleeping thread with a `stack_bytes` stack and sends it `sig` 50 ms later.
bool send_to_small_stack_thread(int sig, std::size_t stack_bytes) {
    pthread_attr_t attr;
    ::pthread_attr_init(&attr);
    ::pthread_attr_setstacksize(&attr, stack_bytes);
    pthread_t thread{};
    const int rc = ::pthread_create(&thread, &attr, sleep_until_killed, nullptr);
    ::pthread_attr_destroy(&attr);
    if (rc != 0) {
        std::fprintf(stderr, "fault_harness: pthread_create: %s\n", std::strerror(rc));
        return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ::pthread_kill(thread, sig);
    return true;
}

/// Blocks until a signal ends the process (or gives up after 10 s).
[[noreturn]] void wait_for_end() {
    for (int i = 0; i < 1000; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::fprintf(stderr, "fault_harness: nothing ended the process\n");
    std::_Exit(99);
}

// Read through a volatile so the compiler cannot prove the store below is through null (it would
// delete the store as undefined behaviour).
int* volatile s_null_target = nullptr;

/// A real segmentation fault. UBSan would report the null store and exit instead of letting the
/// fault happen, so the check is off here (the test also turns off the sanitizers' SEGV handler).
__attribute__((noinline, no_sanitize("undefined"))) void store_through_null() {
    *s_null_target = 1;
}

int do_fork(bool exec) {
    std::fflush(stdout);
    const pid_t child = ::fork();
    if (child < 0) {
        std::perror("fault_harness: fork");
        return 3;
    }
    if (child == 0) {
        if (exec) {
            char* const argv[] = {const_cast<char*>(s_self), const_cast<char*>(s_lib),
                                  const_cast<char*>("return:0"), nullptr};
            ::execv(s_self, argv);
            std::_Exit(127);
        }
        return 0; // the child returns from main
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    std::printf("child %d exited %d\n", static_cast<int>(child),
                WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return -1;
}

/// fork-orphan: the child outlives its parent (a daemonised worker), so it exits last.
int do_fork_orphan() {
    std::fflush(stdout);
    const pid_t parent = ::getpid();
    const pid_t child = ::fork();
    if (child < 0) {
        std::perror("fault_harness: fork");
        return 3;
    }
    if (child == 0) {
        for (int i = 0; i < 3000 && ::getppid() == parent; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return 0;
    }
    std::printf("child %d\n", static_cast<int>(child));
    return 0;
}

/// Modes that end the process; returns -1 when `mode` is not one of them.
int run_ending(const std::string& mode, const std::string& arg) {
    const int n = std::atoi(arg.c_str());
    if (mode == "return") {
        return n;
    }
    if (mode == "exit-thread") {
        std::thread([n] { std::exit(n); }).join();
        wait_for_end();
    }
    if (mode == "_exit") {
        ::_exit(n);
    }
    if (mode == "quick_exit") {
        std::quick_exit(n);
    }
    if (mode == "abort") {
        std::abort();
    }
    if (mode == "segv") {
        store_through_null();
        wait_for_end();
    }
    if (mode == "kill") {
        const int sig = signal_named(arg);
        std::thread(send_to_process_soon, sig).detach();
        wait_for_end();
    }
    if (mode == "kill-small-stack") {
        const std::size_t colon = arg.find(':');
        if (!send_to_small_stack_thread(signal_named(arg.substr(0, colon)),
                                        std::strtoul(arg.c_str() + colon + 1, nullptr, 10))) {
            return 3;
        }
        wait_for_end();
    }
    if (mode == "kill-after") {
        const std::size_t colon = arg.find(':');
        const int sig = signal_named(arg.substr(0, colon));
        const int ms = std::atoi(arg.c_str() + colon + 1);
        std::thread([sig, ms] {
            std::this_thread::sleep_for(std::chrono::milliseconds(ms));
            ::kill(::getpid(), sig);
        }).detach();
        wait_for_end();
    }
    return -1;
}

/// Runs one mode; returns -1 to continue, else the exit code of main.
int fault_run_mode(const std::string& mode, const std::string& arg) {
    const int ending = run_ending(mode, arg);
    if (ending >= 0) {
        return ending;
    }
    if (mode == "init") {
        return initialize() ? -1 : 2;
    } else if (mode == "raise") {
        std::raise(signal_named(arg));
    } else if (mode == "handler") {
        const std::size_t colon = arg.find(':');
        s_handler_exit = std::atoi(arg.c_str() + colon + 1);
        std::signal(signal_named(arg.substr(0, colon)), app_handler);
    } else if (mode == "handler-return") {
        std::signal(signal_named(arg), app_handler_returning);
    } else if (mode == "atexit-raise") {
        s_atexit_signal = signal_named(arg);
        std::atexit(raise_at_exit);
    } else if (mode == "kill-on-temporary") {
        s_temporary_signal = signal_named(arg);
        std::atexit(watch_for_temporary_at_exit);
    } else if (mode == "ignore") {
        std::signal(signal_named(arg), SIG_IGN);
    } else if (mode == "disposition") {
        print_disposition(arg);
    } else if (mode == "fork" || mode == "fork-exec") {
        return do_fork(mode == "fork-exec");
    } else if (mode == "fork-orphan") {
        return do_fork_orphan();
    } else if (mode == "umask") {
        ::umask(static_cast<mode_t>(std::strtoul(arg.c_str(), nullptr, 8)));
    } else if (mode == "fsize") {
        std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{std::strtoul(arg.c_str(), nullptr, 10),
                           std::strtoul(arg.c_str(), nullptr, 10)};
        ::setrlimit(RLIMIT_FSIZE, &limit);
    } else if (mode == "stderr-to") {
        std::FILE* data = std::freopen(arg.c_str(), "w", stderr);
        if (data == nullptr) {
            std::perror("fault_harness: freopen");
            return 2;
        }
        std::fputs("data\n", data);
        std::fflush(data);
    } else if (mode == "chdir") {
        if (::chdir(arg.c_str()) != 0) {
            std::perror("fault_harness: chdir");
        }
    } else {
        std::fprintf(stderr, "fault_harness: unknown mode %s\n", mode.c_str());
        return 2;
    }
    return -1;
}

bool has_init(int argc, char** argv) {
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "init") == 0) {
            return true;
        }
    }
    return false;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: fault_harness LIBIRF.so [MODE...]\n");
        return 2;
    }
    s_self = argv[0];
    s_lib = argv[1];
    if (!has_init(argc, argv) && !initialize()) {
        return 2;
    }
    for (int i = 2; i < argc; ++i) {
        const std::string mode_arg = argv[i];
        const std::size_t colon = mode_arg.find(':');
        const std::string mode = mode_arg.substr(0, colon);
        const std::string arg = colon == std::string::npos ? "" : mode_arg.substr(colon + 1);
        const int code = fault_run_mode(mode, arg);
        if (code >= 0) {
            return code;
        }
    }
    return 0;
}
