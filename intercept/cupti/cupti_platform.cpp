// SPDX-License-Identifier: Apache-2.0
// The ProfilerPlatform on the real CUPTI and driver (the seam's production side).
#include <dlfcn.h>

#include <cupti_driver_cbid.h>

#include "intercept/cupti/activity.hpp"
#include "intercept/cupti/driver_api.hpp"
#include "intercept/cupti/launch_params.hpp"
#include "intercept/cupti/range_profiler.hpp"

namespace irf::intercept::cupti {
namespace {

/// The platform on the real CUPTI and driver (see profiler_seam.hpp).
class CuptiPlatform final : public ProfilerPlatform {
public:
    ProfilerStatus initialize() noexcept override { return initialize_profiler(); }
    std::string chip(CUdevice device) noexcept override { return chip_name(device); }
    std::unique_ptr<RangeProfiler> make_profiler() override {
        return std::make_unique<ContextProfiler>();
    }
    bool is_capturing(CUstream stream, bool per_thread) noexcept override {
        return stream_is_capturing(stream, per_thread);
    }
    bool stream_id(CUcontext context, CUstream stream, bool per_thread,
                   std::uint32_t& id) noexcept override {
        return cuptiGetStreamIdEx(context, stream, per_thread ? 1 : 0, &id) == CUPTI_SUCCESS;
    }
    std::uint32_t device_of(CUcontext context) noexcept override {
        std::uint32_t device = 0;
        static_cast<void>(cuptiGetDeviceId(context, &device));
        return device;
    }
    bool set_graph_trace(bool on, std::string& error) noexcept override {
        return activity_graph_trace(on, error);
    }
    bool register_entry_hooks(const IrfEntryHooks* hooks) noexcept override {
        // libirf never links libirf_entry.so: it is there only when preloaded.
        void* symbol = dlsym(RTLD_DEFAULT, IRF_ENTRY_REGISTER_SYMBOL);
        if (symbol == nullptr) {
            return false;
        }
        return reinterpret_cast<IrfEntryRegisterFn>(symbol)(hooks) == 0;
    }
    bool set_hooked_callbacks(void* subscriber, bool on) noexcept override {
        bool all = true;
        for (const CUpti_CallbackId cbid : hooked_launch_cbids()) {
            all = cuptiEnableCallback(on ? 1 : 0, static_cast<CUpti_SubscriberHandle>(subscriber),
                                      CUPTI_CB_DOMAIN_DRIVER_API, cbid) == CUPTI_SUCCESS &&
                  all;
        }
        return all;
    }
    CUcontext current_context() noexcept override { return cupti::current_context(); }
    const char* function_name(CUfunction function) noexcept override {
        return cupti::function_name(function);
    }
    bool subscription_alive(void* subscriber) noexcept override {
        std::uint32_t enabled = 1;
        const CUptiResult r = cuptiGetCallbackState(
            &enabled, static_cast<CUpti_SubscriberHandle>(subscriber), CUPTI_CB_DOMAIN_DRIVER_API,
            CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel);
        // A refused query (a stale handle after another tool's cuptiFinalize) means lost.
        return r == CUPTI_SUCCESS && enabled != 0;
    }
};

} // namespace

std::unique_ptr<ProfilerPlatform> make_cupti_platform() {
    return std::make_unique<CuptiPlatform>();
}

} // namespace irf::intercept::cupti
