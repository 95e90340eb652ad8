// SPDX-License-Identifier: Apache-2.0
// Driver calls other than kernel launches that a sample must hold off (device writes) or count
// (stream captures), from CUDA 13's cupti_driver_cbid.h.
#include "intercept/cupti/guarded_cbids.hpp"

#include <algorithm>

#include <cupti_driver_cbid.h>

namespace irf::intercept::cupti {
namespace {

// Every cuMemcpy*, cuMemset* and cuLaunchHostFunc entry, synchronous ones included: a copy or
// a set that lands between kernel replay's save and restore of device memory is undone by the
// restore, and a host function may write mapped memory that replay cannot restore. So are the
// other calls that write or discard device memory from a stream: stream memory operations
// (write value, batch mem op), batch decompression, discards, and external semaphore signals
// (docs/cupti-notes.md, step 1). test_guarded_cbids scans cupti_driver_cbid.h for them.
constexpr CUpti_CallbackId k_device_writes[] = {
    CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_v2,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64_v2,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_v2,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemBatchDecompressAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemBatchDecompressAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemDiscardBatchAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemDiscardBatchAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemDiscardAndPrefetchBatchAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemDiscardAndPrefetchBatchAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuSignalExternalSemaphoresAsync,
    CUPTI_DRIVER_TRACE_CBID_cuSignalExternalSemaphoresAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeerAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeerAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD16,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD32,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD8,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2_ptds,
};

// Calls of the same families that write nothing a replay restores, so they are not held off:
// waits (the stream waits for a value or a semaphore) and prefetches (pages move, values do not).
constexpr CUpti_CallbackId k_harmless[] = {
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_v2,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_v2,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuWaitExternalSemaphoresAsync,
    CUPTI_DRIVER_TRACE_CBID_cuWaitExternalSemaphoresAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchBatchAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchBatchAsync_ptsz,
};

constexpr CUpti_CallbackId k_capture_begins[] = {
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz,
};

constexpr CUpti_CallbackId k_capture_ends[] = {
    CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture,
    CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz,
};

// Fork and join of a multi-stream capture: a side stream joins by waiting for an event recorded
// in a capturing stream (cuda.h, cuStreamBeginCapture), so both calls are watched while a
// capture is open.
constexpr CUpti_CallbackId k_event_records[] = {
    CUPTI_DRIVER_TRACE_CBID_cuEventRecord,
    CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags,
    CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz,
};

constexpr CUpti_CallbackId k_stream_waits[] = {
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent,
    CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent_ptsz,
};

template <std::size_t N> bool contains(const CUpti_CallbackId (&list)[N], CUpti_CallbackId cbid) {
    return std::find(std::begin(list), std::end(list), cbid) != std::end(list);
}

/// The device writes sorted once, so the per-callback lookup is a binary search.
const std::vector<CUpti_CallbackId>& sorted_device_writes() {
    static const std::vector<CUpti_CallbackId> s_sorted = [] {
        std::vector<CUpti_CallbackId> v(std::begin(k_device_writes), std::end(k_device_writes));
        std::sort(v.begin(), v.end());
        return v;
    }();
    return s_sorted;
}

} // namespace

GuardedCall guarded_call(CUpti_CallbackId cbid) noexcept {
    const auto& writes = sorted_device_writes();
    if (std::binary_search(writes.begin(), writes.end(), cbid)) {
        return GuardedCall::device_write;
    }
    if (contains(k_capture_begins, cbid)) {
        return GuardedCall::capture_begin;
    }
    if (contains(k_capture_ends, cbid)) {
        return GuardedCall::capture_end;
    }
    if (contains(k_event_records, cbid)) {
        return GuardedCall::event_record;
    }
    return contains(k_stream_waits, cbid) ? GuardedCall::stream_wait : GuardedCall::none;
}

bool listed_harmless(CUpti_CallbackId cbid) noexcept {
    return contains(k_harmless, cbid);
}

std::vector<CUpti_CallbackId> guarded_cbids(bool device_writes) {
    std::vector<CUpti_CallbackId> all;
    if (device_writes) {
        all.assign(std::begin(k_device_writes), std::end(k_device_writes));
    }
    all.insert(all.end(), std::begin(k_capture_begins), std::end(k_capture_begins));
    all.insert(all.end(), std::begin(k_capture_ends), std::end(k_capture_ends));
    all.insert(all.end(), std::begin(k_event_records), std::end(k_event_records));
    all.insert(all.end(), std::begin(k_stream_waits), std::end(k_stream_waits));
    return all;
}

bool capture_ended(CUresult result) noexcept {
    // cuda.h: an invalidated capture still ends (a NULL graph is returned); a call from the
    // wrong thread, on a stream not capturing, or before init leaves any capture open.
    return result == CUDA_SUCCESS || result == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED ||
           result == CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
}

bool means_capturing(CUresult result, CUstreamCaptureStatus status) noexcept {
    // cuda.h, cuStreamIsCapturing: on the legacy stream while another (blocking) stream
    // captures, the answer is CUDA_ERROR_STREAM_CAPTURE_IMPLICIT: a launch there would join or
    // break that capture, so it is treated as capturing, never as "not capturing".
    if (result == CUDA_ERROR_STREAM_CAPTURE_IMPLICIT) {
        return true;
    }
    return result == CUDA_SUCCESS && status != CU_STREAM_CAPTURE_STATUS_NONE;
}

} // namespace irf::intercept::cupti
