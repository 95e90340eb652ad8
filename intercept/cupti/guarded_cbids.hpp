// SPDX-License-Identifier: Apache-2.0
// Driver calls other than kernel launches that the sampled path watches: device writes (held
// off during a sample's window) and stream captures (no sample while one is open).
#pragma once

#include <cstdint>
#include <vector>

#include <cuda.h>
#include <cupti_callbacks.h>

namespace irf::intercept::cupti {

/// What a watched driver call means to the sampled path.
enum class GuardedCall : std::uint8_t {
    none,          ///< not watched here
    device_write,  ///< copies, sets, host functions, stream memory ops: held off during a sample
    capture_begin, ///< cuStreamBeginCapture* (and ToGraph): a capture opens at a successful EXIT
    capture_end,   ///< cuStreamEndCapture: the capture closes (see capture_ended)
    event_record,  ///< cuEventRecord*: an event recorded in a capturing stream carries it
    stream_wait,   ///< cuStreamWaitEvent: waiting for such an event joins the capture
};

/// The class of `cbid` (driver domain).
[[nodiscard]] GuardedCall guarded_call(CUpti_CallbackId cbid) noexcept;

/// True for a call of a device-writing family that writes nothing a replay restores (waits,
/// prefetches): deliberately not guarded.
[[nodiscard]] bool listed_harmless(CUpti_CallbackId cbid) noexcept;

/// The driver cbids guarded_call() classifies, enabled at start: all of them, or without the
/// device writes when no sample can start (they only keep writes out of a sample's window).
[[nodiscard]] std::vector<CUpti_CallbackId> guarded_cbids(bool device_writes = true);

/// True when cuStreamEndCapture's `result` means the capture is over.
[[nodiscard]] bool capture_ended(CUresult result) noexcept;

/// True when a cuStreamIsCapturing answer means a launch there does not run now.
[[nodiscard]] bool means_capturing(CUresult result, CUstreamCaptureStatus status) noexcept;

} // namespace irf::intercept::cupti
