// SPDX-License-Identifier: Apache-2.0
// Driver calls other than kernel launches on the sampled path (guarded_cbids.cpp): device writes
// and capture starts wait out another thread's sample, and open stream captures are counted.
#include <algorithm>
#include <string>

#include "common/log.hpp"
#include "common/string_printf.hpp"
#include "intercept/cupti/cupti_backend_impl.hpp"

namespace irf::intercept::cupti {
namespace {

std::chrono::milliseconds left_until(std::chrono::steady_clock::time_point deadline) noexcept {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    return std::max(left, std::chrono::milliseconds{0});
}

/// "250 ms" or "40 s".
std::string duration_text(std::chrono::milliseconds ms) {
    return ms.count() < 1000 ? std::to_string(ms.count()) + " ms"
                             : std::to_string(ms.count() / 1000) + " s";
}

} // namespace

void CuptiBackend::on_guarded_call(GuardedCall kind, CUpti_CallbackId cbid,
                                   const CUpti_CallbackData& data) noexcept {
    if (data.callbackSite == CUPTI_API_ENTER) {
        if (data.correlationData != nullptr) {
            *data.correlationData = 0;
        }
        if (kind == GuardedCall::device_write) {
            // A device write never lands inside another thread's sample window.
            hold_write(data, context_ids(data.context).device % k_lock_slots);
        } else if (kind == GuardedCall::capture_begin) {
            // A global-mode capture bans synchronisation in every thread, whatever its device:
            // no sample of any device may be open when it starts.
            hold_every_slot(data);
        }
        return;
    }
    const auto result = static_cast<const CUresult*>(data.functionReturnValue);
    const bool succeeded = result != nullptr && *result == CUDA_SUCCESS;
    if (kind == GuardedCall::capture_begin && succeeded) {
        ++m_open_captures; // before the shared lock is released: no sample starts in between
        note_capture(cbid, data, true);
    } else if (kind == GuardedCall::capture_end && result != nullptr && capture_ended(*result)) {
        std::uint32_t open = m_open_captures.load();
        while (open > 0 && !m_open_captures.compare_exchange_weak(open, open - 1)) {
        }
        note_capture(cbid, data, false);
    } else if ((kind == GuardedCall::event_record || kind == GuardedCall::stream_wait) &&
               succeeded && m_open_captures.load() > 0) {
        note_fork_or_join(kind, cbid, data);
    }
    on_launch_exit(data);
}

std::optional<std::uint64_t> CuptiBackend::stream_key(CUcontext context,
                                                      const StreamArg& stream) noexcept {
    // CUPTI's stream id is unique in its context and resolves a per-thread default stream to
    // the calling thread's own: a handle (NULL, CU_STREAM_PER_THREAD) is not.
    std::uint32_t id = 0;
    if (!m_platform->stream_id(context, stream.stream, stream.per_thread, id)) {
        return std::nullopt; // the driver's own answer (is_capturing) still stands
    }
    return (std::uint64_t{context_ids(context).context_id} << 32) | id;
}

void CuptiBackend::log_captured_launch(const CUpti_CallbackData& data, const StreamArg& stream,
                                       bool tracked) noexcept {
    try {
        const bool raw = m_platform->is_capturing(stream.stream, stream.per_thread);
        const std::optional<std::uint64_t> key = stream_key(data.context, stream);
        common::log_line(common::LogLevel::debug,
                         common::string_printf("launch %u captured, not run: tracked capture %s, "
                                               "cuStreamIsCapturing %s, CUPTI stream key %s",
                                               data.correlationId, tracked ? "yes" : "no",
                                               raw ? "yes" : "no",
                                               key ? std::to_string(*key).c_str() : "unknown"));
    } catch (...) {
    }
}

void CuptiBackend::note_capture(CUpti_CallbackId cbid, const CUpti_CallbackData& data,
                                bool begun) noexcept {
    const std::optional<StreamArg> stream = capture_stream(cbid, data.functionParams);
    const std::optional<std::uint64_t> found =
        stream ? stream_key(data.context, *stream) : std::nullopt;
    // A plain copy: GCC 12 at -O1 (the ThreadSanitizer build) takes the optional's value, once
    // inlined into CaptureSet::find, for possibly uninitialized.
    const std::uint64_t key = found.value_or(0);
    if (common::log_enabled(common::LogLevel::debug)) {
        common::log_line(common::LogLevel::debug,
                         common::string_printf("stream capture %s: CUPTI stream key %s",
                                               begun ? "begun" : "ended",
                                               found ? std::to_string(key).c_str() : "unknown"));
    }
    if (!found) {
        return;
    }
    try {
        const std::lock_guard<std::mutex> lock(m_capture_mutex);
        if (begun) {
            m_captures.begin(key);
        } else {
            m_captures.end(key);
        }
    } catch (...) { // out of memory: the driver's own answer (is_capturing) still stands
    }
}

void CuptiBackend::note_fork_or_join(GuardedCall kind, CUpti_CallbackId cbid,
                                     const CUpti_CallbackData& data) noexcept {
    const std::optional<EventOnStream> call = kind == GuardedCall::event_record
                                                  ? event_record(cbid, data.functionParams)
                                                  : stream_wait_event(cbid, data.functionParams);
    const std::optional<std::uint64_t> key =
        call ? stream_key(data.context, call->stream) : std::nullopt;
    if (!key) {
        return;
    }
    try {
        const std::lock_guard<std::mutex> lock(m_capture_mutex);
        if (kind == GuardedCall::event_record) {
            m_captures.record(call->event, *key);
        } else {
            m_captures.wait(*key, call->event);
        }
    } catch (...) {
    }
}

bool CuptiBackend::in_open_capture(CUcontext context, const StreamArg& stream) noexcept {
    if (m_open_captures.load() == 0) {
        return false; // the hot path: no capture open, no lock
    }
    const std::optional<std::uint64_t> key = stream_key(context, stream);
    if (!key) {
        return false;
    }
    const std::lock_guard<std::mutex> lock(m_capture_mutex);
    return m_captures.captured(*key);
}

bool CuptiBackend::hold_patiently(std::size_t slot,
                                  std::chrono::steady_clock::time_point deadline) noexcept {
    // A device write or a capture start must not land inside a sample: the replay's restore
    // would undo the write, and replay and decode would break the capture (docs/cupti-notes.md,
    // step 4). A sampler holds one slot and waits for no other irf lock, so waiting as long as
    // a sample may last forms no cycle; only a wait the application itself closes (work the
    // sample synchronises on waits for this very thread) would, hence the bound.
    SampleLock& lock = m_sample_locks[slot];
    if (lock.lock_shared_for(std::min(left_until(deadline), m_lock_wait))) {
        return true;
    }
    warn_once("patient", "a device write or stream capture start waited over " +
                             duration_text(m_lock_wait) +
                             " for another thread's sample (kernel replay) and waits on, up to " +
                             duration_text(m_sample_budget + m_lock_wait) +
                             ", rather than land inside it (docs/cupti-notes.md)");
    if (lock.lock_shared_for(left_until(deadline))) {
        return true;
    }
    ++m_breaches[slot];
    warn_once("went-inside", "a device write or stream capture start went on inside another "
                             "thread's sample after waiting " +
                                 duration_text(m_sample_budget + m_lock_wait) +
                                 " (does that sample wait for this thread?); the sample is "
                                 "discarded (docs/cupti-notes.md)");
    return false;
}

void CuptiBackend::hold_write(const CUpti_CallbackData& data, std::size_t slot) noexcept {
    if (data.correlationData == nullptr) {
        return;
    }
    const auto deadline = std::chrono::steady_clock::now() + m_sample_budget + m_lock_wait;
    if (hold_patiently(slot, deadline)) {
        *data.correlationData = k_holds_shared | (std::uint64_t{slot} << k_slot_shift);
    }
}

void CuptiBackend::hold_every_slot(const CUpti_CallbackData& data) noexcept {
    if (data.correlationData == nullptr) {
        return;
    }
    // One wait in all, as long as a sample may last; slots are taken in one order, and a
    // sampler holds one slot only, so no cycle can form.
    const auto deadline = std::chrono::steady_clock::now() + m_sample_budget + m_lock_wait;
    std::uint64_t held = 0;
    for (std::size_t slot = 0; slot < k_lock_slots; ++slot) {
        if (hold_patiently(slot, deadline)) {
            held |= std::uint64_t{1} << slot;
        }
    }
    *data.correlationData = k_holds_slots | (held << k_mask_shift);
}

} // namespace irf::intercept::cupti
