// SPDX-License-Identifier: Apache-2.0
// Where a sample's wall time goes (issue 55 item 2): the profiler's setup and Start, the sampled
// launch call with its replay passes, and Stop with DecodeData and evaluation, summed into the
// profile's coverage.sample_phases and logged per sample at IRF_LOG=debug.
#include <chrono>
#include <mutex>
#include <string>

#include "common/log.hpp"
#include "common/string_printf.hpp"
#include "intercept/cupti/cupti_backend_impl.hpp"

namespace irf::intercept::cupti {
namespace {

double ms_between(std::chrono::steady_clock::time_point from,
                  std::chrono::steady_clock::time_point to) noexcept {
    return to > from ? std::chrono::duration<double, std::milli>(to - from).count() : 0.0;
}

} // namespace

model::SamplePhases CuptiBackend::sample_phases() const noexcept {
    const std::lock_guard<std::mutex> lock(m_phases_mutex);
    return m_phases;
}

void CuptiBackend::note_sample_phases(std::chrono::steady_clock::time_point begun,
                                      std::chrono::steady_clock::time_point launched,
                                      std::chrono::steady_clock::time_point stopping) noexcept {
    const auto now = std::chrono::steady_clock::now();
    const double setup = ms_between(begun, launched);
    const double launch = ms_between(launched, stopping);
    const double decode = ms_between(stopping, now);
    {
        const std::lock_guard<std::mutex> lock(m_phases_mutex);
        ++m_phases.samples;
        m_phases.setup_ms += setup;
        m_phases.launch_ms += launch;
        m_phases.decode_ms += decode;
    }
    try {
        common::log_line(common::LogLevel::debug,
                         common::string_printf("sample: setup and Start %.3f ms, the launch with "
                                               "its replay passes %.3f ms, Stop, decode and "
                                               "evaluation %.3f ms",
                                               setup, launch, decode));
    } catch (...) {
    }
}

} // namespace irf::intercept::cupti
