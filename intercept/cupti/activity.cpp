// SPDX-License-Identifier: Apache-2.0
// Kernel activity: buffer request/complete callbacks and record decoding (docs/cupti-notes.md F9).
#include "intercept/cupti/activity.hpp"

#include <atomic>
#include <mutex>

#include "common/inside_irf.hpp"
#include "intercept/cupti/activity_pool.hpp"
#include "intercept/cupti/cupti_errors.hpp"

namespace irf::intercept::cupti {
namespace {

// 4 MiB per buffer: CUPTI recommends 1-10 MB; about 20k kernel records each.
constexpr std::size_t k_buffer_bytes = 4u << 20;
// Up to 32 MiB of returned buffers wait for reuse: a launch burst's requests are then answered
// without an allocation on the launching thread.
constexpr std::size_t k_kept_buffers = 8;
constexpr std::uint32_t k_flush_period_ms = 500;

// CUPTI's buffer callbacks carry no user pointer, so the receiver is process-wide.
std::mutex s_receiver_mutex;
KernelRecordFn s_receiver = nullptr;
void* s_receiver_user = nullptr;
std::atomic<std::uint64_t> s_dropped{0};

std::uint32_t dim(std::int32_t value) noexcept {
    return value > 0 ? static_cast<std::uint32_t>(value) : 0;
}

/// Never destroyed: CUPTI may complete a buffer during exit, after static destructors ran.
ActivityBufferPool& buffer_pool() noexcept {
    static auto* s_pool = new ActivityBufferPool(k_buffer_bytes, k_kept_buffers);
    return *s_pool;
}

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size,
                               std::size_t* max_records) noexcept {
    *buffer = buffer_pool().take(); // zeroed: CUPTI need not zero it on this (launching) thread
    *size = *buffer != nullptr ? k_buffer_bytes : 0; // 0: CUPTI drops records, never crashes
    *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext context, std::uint32_t stream_id, std::uint8_t* buffer,
                               std::size_t /*size*/, std::size_t valid_size) noexcept {
    if (buffer == nullptr) {
        return;
    }
    {
        const common::InsideIrf inside; // a signal here must not wait for these locks
        std::lock_guard<std::mutex> lock(s_receiver_mutex);
        CUpti_Activity* record = nullptr;
        while (s_receiver != nullptr &&
               cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
            if (const auto kernel = decode_kernel_record(record)) {
                s_receiver(s_receiver_user, *kernel);
            }
        }
    }
    std::size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, stream_id, &dropped) == CUPTI_SUCCESS) {
        s_dropped += dropped;
    }
    buffer_pool().give_back(buffer); // zeroed here, on the completing thread
}

} // namespace

namespace {

KernelActivity decode_graph_record(const CUpti_ActivityGraphTrace2& g) noexcept {
    KernelActivity a;
    a.correlation_id = g.correlationId;
    a.start_ns = g.start;
    a.end_ns = g.end;
    a.device = g.deviceId;
    a.context = g.contextId;
    a.stream = g.streamId;
    a.graph_id = g.graphId;
    a.graph_level = true;
    return a;
}

} // namespace

std::optional<KernelActivity> decode_kernel_record(const CUpti_Activity* record) noexcept {
    if (record != nullptr && record->kind == CUPTI_ACTIVITY_KIND_GRAPH_TRACE) {
        return decode_graph_record(*reinterpret_cast<const CUpti_ActivityGraphTrace2*>(record));
    }
    if (record == nullptr || (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
                              record->kind != CUPTI_ACTIVITY_KIND_KERNEL)) {
        return std::nullopt;
    }
    // Both kinds use CUpti_ActivityKernel10 in CUDA 13 (cupti_activity.h).
    // Records without timestamps (start == end == 0: no device memory for them) still go
    // to the sink, which counts them as invalid durations.
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    KernelActivity a;
    a.correlation_id = k->correlationId;
    a.start_ns = k->start;
    a.end_ns = k->end;
    a.device = k->deviceId;
    a.context = k->contextId;
    a.stream = k->streamId;
    a.graph_id = k->graphId;
    a.name = k->name;
    a.launch.grid = {dim(k->gridX), dim(k->gridY), dim(k->gridZ)};
    a.launch.block = {dim(k->blockX), dim(k->blockY), dim(k->blockZ)};
    a.launch.smem_bytes = dim(k->staticSharedMemory) + dim(k->dynamicSharedMemory);
    a.launch.regs = k->registersPerThread;
    a.device_launched = k->isDeviceLaunched != 0;
    return a;
}

bool activity_start(KernelRecordFn fn, void* user, std::string& error) noexcept {
    {
        std::lock_guard<std::mutex> lock(s_receiver_mutex);
        s_receiver = fn;
        s_receiver_user = user;
    }
    // Every buffer irf hands CUPTI is zeroed (the pool), so CUPTI need not zero it again "in the
    // main thread" (cupti_activity.h); refused, CUPTI zeroes it as before.
    std::uint8_t zeroed = 1;
    std::size_t zeroed_bytes = sizeof zeroed;
    static_cast<void>(cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER,
                                                &zeroed_bytes, &zeroed));
    CUptiResult r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (r == CUPTI_SUCCESS) {
        r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        if (r != CUPTI_SUCCESS) {
            error = call_error("cuptiActivityEnable(CONCURRENT_KERNEL)", r);
        } else {
            // CUPTI's worker returns full buffers "based on certain heuristics"
            // (cupti_activity.h); on the H100 it returned none for a million launches of a
            // loop that never synchronised. A period makes it return them; failing, the
            // timing check's flush still does.
            static_cast<void>(cuptiActivityFlushPeriod(k_flush_period_ms));
        }
    } else {
        error = call_error("cuptiActivityRegisterCallbacks", r);
    }
    if (r != CUPTI_SUCCESS) {
        std::lock_guard<std::mutex> lock(s_receiver_mutex);
        s_receiver = nullptr;
        return false;
    }
    return true;
}

void activity_flush(bool forced) noexcept {
    static_cast<void>(cuptiActivityFlushAll(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0));
}

void activity_stop() noexcept {
    static_cast<void>(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    static_cast<void>(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_GRAPH_TRACE));
    std::lock_guard<std::mutex> lock(s_receiver_mutex);
    s_receiver = nullptr;
    s_receiver_user = nullptr;
}

bool activity_graph_trace(bool on, std::string& error) noexcept {
    const CUptiResult r = on ? cuptiActivityEnable(CUPTI_ACTIVITY_KIND_GRAPH_TRACE)
                             : cuptiActivityDisable(CUPTI_ACTIVITY_KIND_GRAPH_TRACE);
    if (r != CUPTI_SUCCESS) {
        error = call_error(
            on ? "cuptiActivityEnable(GRAPH_TRACE)" : "cuptiActivityDisable(GRAPH_TRACE)", r);
        return false;
    }
    return true;
}

std::uint64_t activity_dropped() noexcept {
    return s_dropped.load();
}

} // namespace irf::intercept::cupti
