// SPDX-License-Identifier: Apache-2.0
// libirf.so as the NVTX injection library (NVTX_INJECTION64_PATH): NVTX v3 calls
// InitializeInjectionNvtx2 on the application's first NVTX call, and irf fills the core and
// domain callback tables with the range functions of intercept/nvtx_stack.hpp. The only file
// that includes NVTX headers (nvtxDetail/nvtxInit.h describes the mechanism).
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <cstdint>
#include <cwchar>
#include <string_view>

#include "intercept/nvtx_stack.hpp"

namespace irf::intercept::nvtx {
namespace {

constexpr std::size_t k_wide_buffer = 256;

std::uint32_t domain_index(nvtxDomainHandle_t domain) noexcept {
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(domain));
}

/// Calls `f` with `text` kept as ASCII (other characters as '?') on the stack.
template <typename F> auto with_narrow(const wchar_t* text, F&& f) noexcept {
    char narrow[k_wide_buffer];
    std::size_t n = 0;
    for (const wchar_t* w = text; w != nullptr && *w != 0 && n + 1 < k_wide_buffer; ++w) {
        narrow[n++] = *w > 0 && *w < 128 ? static_cast<char>(*w) : '?';
    }
    return f(std::string_view(narrow, n));
}

/// Pushes the range named by `attributes` (ASCII, registered or wide; wide text is kept as ASCII,
/// other characters as '?', on the stack: the hot path allocates nothing).
template <typename F> auto with_message(const nvtxEventAttributes_t* attributes, F&& f) noexcept {
    if (attributes == nullptr) {
        return f(std::string_view("(unnamed)"));
    }
    switch (attributes->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
        return f(std::string_view(attributes->message.ascii != nullptr ? attributes->message.ascii
                                                                       : "(unnamed)"));
    case NVTX_MESSAGE_TYPE_REGISTERED: {
        const auto* s = reinterpret_cast<const std::string*>(attributes->message.registered);
        return f(s != nullptr ? std::string_view(*s) : std::string_view("(unnamed)"));
    }
    case NVTX_MESSAGE_TYPE_UNICODE:
        return with_narrow(attributes->message.unicode, f);
    default:
        return f(std::string_view("(unnamed)"));
    }
}

std::string_view wide_placeholder() noexcept {
    return "(unicode)";
}

int NVTX_API push_a(const char* message) noexcept {
    return push(k_default_domain, message != nullptr ? message : "(unnamed)");
}
int NVTX_API push_w(const wchar_t*) noexcept {
    return push(k_default_domain, wide_placeholder());
}
int NVTX_API push_ex(const nvtxEventAttributes_t* a) noexcept {
    return with_message(a, [](std::string_view m) { return push(k_default_domain, m); });
}
int NVTX_API pop_core() noexcept {
    return pop_domain(k_default_domain);
}
nvtxRangeId_t NVTX_API start_a(const char* message) noexcept {
    return start_range(k_default_domain, message != nullptr ? message : "(unnamed)");
}
nvtxRangeId_t NVTX_API start_w(const wchar_t*) noexcept {
    return start_range(k_default_domain, wide_placeholder());
}
nvtxRangeId_t NVTX_API start_ex(const nvtxEventAttributes_t* a) noexcept {
    return with_message(a, [](std::string_view m) { return start_range(k_default_domain, m); });
}
void NVTX_API end_core(nvtxRangeId_t id) noexcept {
    end_range(id);
}

int NVTX_API domain_push(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) noexcept {
    return with_message(a, [d](std::string_view m) { return push(domain_index(d), m); });
}
int NVTX_API domain_pop(nvtxDomainHandle_t d) noexcept {
    return pop_domain(domain_index(d));
}
nvtxRangeId_t NVTX_API domain_start(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) noexcept {
    return with_message(a, [d](std::string_view m) { return start_range(domain_index(d), m); });
}
void NVTX_API domain_end(nvtxDomainHandle_t, nvtxRangeId_t id) noexcept {
    end_range(id);
}
nvtxDomainHandle_t NVTX_API domain_create(const char* name) noexcept {
    return reinterpret_cast<nvtxDomainHandle_t>(
        static_cast<std::uintptr_t>(domain(name != nullptr ? name : "")));
}
nvtxStringHandle_t NVTX_API register_a(nvtxDomainHandle_t, const char* text) noexcept {
    const std::string* s = register_string(text != nullptr ? text : "");
    return reinterpret_cast<nvtxStringHandle_t>(const_cast<std::string*>(s));
}
// The wide forms: a library that names its domain or strings in wchar_t (Windows-born code)
// would otherwise get NVTX's no-op handles, and its ranges would all read "(unnamed)".
nvtxDomainHandle_t NVTX_API domain_create_w(const wchar_t* name) noexcept {
    return with_narrow(name, [](std::string_view narrow) {
        return reinterpret_cast<nvtxDomainHandle_t>(static_cast<std::uintptr_t>(domain(narrow)));
    });
}
nvtxStringHandle_t NVTX_API register_w(nvtxDomainHandle_t, const wchar_t* text) noexcept {
    return with_narrow(text, [](std::string_view narrow) {
        const std::string* s = register_string(narrow);
        return reinterpret_cast<nvtxStringHandle_t>(const_cast<std::string*>(s));
    });
}

/// Points slot `id` of `module`'s table at `function` when the table has it.
template <typename Fn>
void install(NvtxFunctionTable table, unsigned size, unsigned id, Fn function) noexcept {
    if (table != nullptr && id < size && table[id] != nullptr) {
        *table[id] = reinterpret_cast<NvtxFunctionPointer>(function);
    }
}

bool install_core(const NvtxExportTableCallbacks& callbacks) noexcept {
    NvtxFunctionTable t = nullptr;
    unsigned n = 0;
    if (callbacks.GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &t, &n) == 0 || t == nullptr) {
        return false;
    }
    install(t, n, NVTX_CBID_CORE_RangePushA, &push_a);
    install(t, n, NVTX_CBID_CORE_RangePushW, &push_w);
    install(t, n, NVTX_CBID_CORE_RangePushEx, &push_ex);
    install(t, n, NVTX_CBID_CORE_RangePop, &pop_core);
    install(t, n, NVTX_CBID_CORE_RangeStartA, &start_a);
    install(t, n, NVTX_CBID_CORE_RangeStartW, &start_w);
    install(t, n, NVTX_CBID_CORE_RangeStartEx, &start_ex);
    install(t, n, NVTX_CBID_CORE_RangeEnd, &end_core);
    return true;
}

bool install_domains(const NvtxExportTableCallbacks& callbacks) noexcept {
    NvtxFunctionTable t = nullptr;
    unsigned n = 0;
    if (callbacks.GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &t, &n) == 0 || t == nullptr) {
        return false;
    }
    install(t, n, NVTX_CBID_CORE2_DomainRangePushEx, &domain_push);
    install(t, n, NVTX_CBID_CORE2_DomainRangePop, &domain_pop);
    install(t, n, NVTX_CBID_CORE2_DomainRangeStartEx, &domain_start);
    install(t, n, NVTX_CBID_CORE2_DomainRangeEnd, &domain_end);
    install(t, n, NVTX_CBID_CORE2_DomainCreateA, &domain_create);
    install(t, n, NVTX_CBID_CORE2_DomainRegisterStringA, &register_a);
    install(t, n, NVTX_CBID_CORE2_DomainCreateW, &domain_create_w);
    install(t, n, NVTX_CBID_CORE2_DomainRegisterStringW, &register_w);
    return true;
}

} // namespace
} // namespace irf::intercept::nvtx

/// NVTX's injection entry point: 1 when irf's range callbacks are installed, 0 otherwise.
extern "C" __attribute__((visibility("default"))) int
InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table) {
    if (get_export_table == nullptr) {
        return 0;
    }
    const auto* callbacks =
        static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
    if (callbacks == nullptr || callbacks->struct_size < sizeof(NvtxExportTableCallbacks)) {
        return 0;
    }
    return irf::intercept::nvtx::install_core(*callbacks) &&
                   irf::intercept::nvtx::install_domains(*callbacks)
               ? 1
               : 0;
}
