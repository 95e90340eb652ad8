// SPDX-License-Identifier: Apache-2.0
// Decodes the params structs of the driver launch APIs (CUDA 13 generated_cuda_meta.h).
// generated_cuda_meta.h declares params structs of every driver API, including the legacy _v1
// ones whose types cuda.h only defines for this macro; it must precede the first cuda.h.
#define __CUDA_API_VERSION_INTERNAL 1
#include "intercept/cupti/launch_params.hpp"

#include <array>

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_meta.h>

namespace irf::intercept::cupti {
namespace {

// The params of cuLaunchKernel and cuLaunchCooperativeKernel (and their _ptsz twins), a
// CUlaunchConfig and a CUDA_LAUNCH_PARAMS entry all name the launch shape with the same fields.
template <class Function, class Shape>
DecodedLaunch decode_shape(Function function, const Shape& s, bool per_thread) {
    DecodedLaunch d;
    d.function = function;
    d.config.grid = {s.gridDimX, s.gridDimY, s.gridDimZ};
    d.config.block = {s.blockDimX, s.blockDimY, s.blockDimZ};
    d.config.smem_bytes = s.sharedMemBytes;
    d.stream = s.hStream;
    d.per_thread_stream = per_thread;
    return d;
}

template <class Params> DecodedLaunch decode_direct(const Params& p, bool per_thread) {
    return decode_shape(p.f, p, per_thread);
}

template <class Params> std::optional<DecodedLaunch> decode_ex(const Params& p, bool per_thread) {
    if (p.config == nullptr) {
        return std::nullopt;
    }
    return decode_shape(p.f, *p.config, per_thread);
}

std::optional<DecodedLaunch>
decode_multi_device(const cuLaunchCooperativeKernelMultiDevice_params& p) {
    if (p.launchParamsList == nullptr || p.numDevices == 0) {
        return std::nullopt;
    }
    DecodedLaunch d = decode_shape(p.launchParamsList[0].function, p.launchParamsList[0], false);
    d.kind = LaunchKind::multi_device;
    return d;
}

// Legacy cuLaunch/cuLaunchGrid: the block shape was set earlier by cuFuncSetBlockShape and is
// not in the params, so the block stays 1x1x1.
template <class Params> DecodedLaunch decode_grid(const Params& p) {
    DecodedLaunch d;
    d.function = p.f;
    d.config.grid = {static_cast<std::uint32_t>(p.grid_width),
                     static_cast<std::uint32_t>(p.grid_height), 1};
    return d;
}

DecodedLaunch decode_graph(CUgraphExec exec, CUstream stream, bool per_thread) {
    DecodedLaunch d;
    d.kind = LaunchKind::graph;
    d.graph_exec = exec;
    d.stream = stream;
    d.per_thread_stream = per_thread;
    return d;
}

template <class Params> const Params& as(const void* params) {
    return *static_cast<const Params*>(params);
}

} // namespace

const std::vector<CUpti_CallbackId>& launch_cbids() {
    static const std::vector<CUpti_CallbackId> s_cbids = [] {
        std::vector<CUpti_CallbackId> all = hooked_launch_cbids();
        all.insert(all.end(),
                   {CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice,
                    CUPTI_DRIVER_TRACE_CBID_cuLaunch, CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
                    CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
                    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
                    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz});
        return all;
    }();
    return s_cbids;
}

const std::vector<CUpti_CallbackId>& hooked_launch_cbids() {
    static const std::vector<CUpti_CallbackId> s_cbids = {
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    };
    return s_cbids;
}

bool is_required_launch_cbid(CUpti_CallbackId cbid) noexcept {
    return cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz;
}

bool is_launch_cbid(CUpti_CallbackId cbid) noexcept {
    const auto& all = launch_cbids();
    return std::find(all.begin(), all.end(), cbid) != all.end();
}

namespace {

// cudaProfilerStart/Stop call cuProfilerStart/Stop, but a runtime linked statically or a driver
// that skips the nested callback would hide one of them: both are watched, and a repeated
// start or stop changes nothing (IRF_CAPTURE_RANGE, docs/configuration.md). A start, then its
// stop, per domain: profiler_range_change reads the order.
constexpr std::array<std::pair<CUpti_CallbackDomain, CUpti_CallbackId>, 4> k_profiler_range{{
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000},
}};

} // namespace

const std::vector<std::pair<CUpti_CallbackDomain, CUpti_CallbackId>>&
profiler_range_cbids(bool capture_range) {
    static const std::vector<std::pair<CUpti_CallbackDomain, CUpti_CallbackId>> s_cbids(
        k_profiler_range.begin(), k_profiler_range.end());
    static const std::vector<std::pair<CUpti_CallbackDomain, CUpti_CallbackId>> s_none;
    return capture_range ? s_cbids : s_none;
}

int profiler_range_change(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) noexcept {
    for (std::size_t i = 0; i < k_profiler_range.size(); ++i) {
        if (k_profiler_range[i].first == domain && k_profiler_range[i].second == cbid) {
            return i % 2 == 0 ? 1 : 0;
        }
    }
    return -1;
}

const std::vector<CUpti_CallbackId>& teardown_cbids() {
    static const std::vector<CUpti_CallbackId> s_cbids = {
        CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy,
        CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy_v2,
        CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRelease,
        CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRelease_v2,
        CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset,
        CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset_v2,
    };
    return s_cbids;
}

std::optional<StreamArg> capture_stream(CUpti_CallbackId cbid, const void* params) noexcept {
    if (params == nullptr) {
        return std::nullopt;
    }
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture:
        return StreamArg{as<cuStreamBeginCapture_params>(params).hStream, false};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz:
        return StreamArg{as<cuStreamBeginCapture_ptsz_params>(params).hStream, true};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2:
        return StreamArg{as<cuStreamBeginCapture_v2_params>(params).hStream, false};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz:
        return StreamArg{as<cuStreamBeginCapture_v2_ptsz_params>(params).hStream, true};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph:
        return StreamArg{as<cuStreamBeginCaptureToGraph_params>(params).hStream, false};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz:
        return StreamArg{as<cuStreamBeginCaptureToGraph_ptsz_params>(params).hStream, true};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture:
        return StreamArg{as<cuStreamEndCapture_params>(params).hStream, false};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz:
        return StreamArg{as<cuStreamEndCapture_ptsz_params>(params).hStream, true};
    default:
        return std::nullopt;
    }
}

std::optional<EventOnStream> event_record(CUpti_CallbackId cbid, const void* params) noexcept {
    if (params == nullptr) {
        return std::nullopt;
    }
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecord: {
        const auto& p = as<cuEventRecord_params>(params);
        return EventOnStream{p.hEvent, {p.hStream, false}};
    }
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz: {
        const auto& p = as<cuEventRecord_ptsz_params>(params);
        return EventOnStream{p.hEvent, {p.hStream, true}};
    }
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags: {
        const auto& p = as<cuEventRecordWithFlags_params>(params);
        return EventOnStream{p.hEvent, {p.hStream, false}};
    }
    case CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz: {
        const auto& p = as<cuEventRecordWithFlags_ptsz_params>(params);
        return EventOnStream{p.hEvent, {p.hStream, true}};
    }
    default:
        return std::nullopt;
    }
}

std::optional<EventOnStream> stream_wait_event(CUpti_CallbackId cbid, const void* params) noexcept {
    if (params == nullptr) {
        return std::nullopt;
    }
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent: {
        const auto& p = as<cuStreamWaitEvent_params>(params);
        return EventOnStream{p.hEvent, {p.hStream, false}};
    }
    case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent_ptsz: {
        const auto& p = as<cuStreamWaitEvent_ptsz_params>(params);
        return EventOnStream{p.hEvent, {p.hStream, true}};
    }
    default:
        return std::nullopt;
    }
}

std::optional<DecodedLaunch> decode_launch(CUpti_CallbackId cbid, const void* params) noexcept {
    if (params == nullptr) {
        return std::nullopt;
    }
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
        return decode_direct(as<cuLaunchKernel_params>(params), false);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
        return decode_direct(as<cuLaunchKernel_ptsz_params>(params), true);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
        return decode_ex(as<cuLaunchKernelEx_params>(params), false);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
        return decode_ex(as<cuLaunchKernelEx_ptsz_params>(params), true);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
        return decode_direct(as<cuLaunchCooperativeKernel_params>(params), false);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        return decode_direct(as<cuLaunchCooperativeKernel_ptsz_params>(params), true);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice:
        return decode_multi_device(as<cuLaunchCooperativeKernelMultiDevice_params>(params));
    case CUPTI_DRIVER_TRACE_CBID_cuLaunch: {
        DecodedLaunch d;
        d.function = as<cuLaunch_params>(params).f;
        return d;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid:
        return decode_grid(as<cuLaunchGrid_params>(params));
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync: {
        DecodedLaunch d = decode_grid(as<cuLaunchGridAsync_params>(params));
        d.stream = as<cuLaunchGridAsync_params>(params).hStream;
        return d;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch: { // generated_cuda_meta.h names the CUgraphExec
                                                  // hGraph here and hGraphExec in _ptsz
        const auto& p = as<cuGraphLaunch_params>(params);
        return decode_graph(p.hGraph, p.hStream, false);
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz: {
        const auto& p = as<cuGraphLaunch_ptsz_params>(params);
        return decode_graph(p.hGraphExec, p.hStream, true);
    }
    default:
        return std::nullopt;
    }
}

const std::vector<CUpti_CallbackId>& graph_exec_change_cbids() {
    static const std::vector<CUpti_CallbackId> k_cbids = {
        CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate,
        CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2,
        CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams,
        CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2,
        CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams,
        CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams,
        CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled,
        CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy,
    };
    return k_cbids;
}

std::optional<CUgraphExec> changed_graph_exec(CUpti_CallbackId cbid, const void* params) noexcept {
    if (params == nullptr) {
        return std::nullopt;
    }
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate:
        return as<cuGraphExecUpdate_params>(params).hGraphExec;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2:
        return as<cuGraphExecUpdate_v2_params>(params).hGraphExec;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams:
        return as<cuGraphExecKernelNodeSetParams_params>(params).hGraphExec;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2:
        return as<cuGraphExecKernelNodeSetParams_v2_params>(params).hGraphExec;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams:
        return as<cuGraphExecNodeSetParams_params>(params).hGraphExec;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams:
        return as<cuGraphExecChildGraphNodeSetParams_params>(params).hGraphExec;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled:
        return as<cuGraphNodeSetEnabled_params>(params).hGraphExec;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy:
        return as<cuGraphExecDestroy_params>(params).hGraphExec;
    default:
        return std::nullopt;
    }
}

} // namespace irf::intercept::cupti
