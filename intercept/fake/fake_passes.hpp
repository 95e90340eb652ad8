// SPDX-License-Identifier: Apache-2.0
// The fake backend's model of samples taken one pass per launch (CUPTI user replay, IRF_REPLAY):
// a sample's pass k runs on the k-th launch of its configuration from the one that began it,
// each counter is read in one pass from the launch that ran it, and a sample is given up when a
// pass is refused or its configuration does not recur within a bound (docs/configuration.md,
// "Fake backend").
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "intercept/backend.hpp"
#include "intercept/fake/fake_script.hpp"

namespace irf::intercept::fake {

/// What one launch did for a sample by launches; the backend tells the sink.
struct PassOutcome {
    enum class Kind : std::uint8_t {
        none,      ///< no sample of its configuration is open: an ordinary launch
        pass,      ///< it ran a pass (on_sample_pass), and maybe completed the sample
        abandoned, ///< its pass was refused: the sample is given up (no pass ran)
    };
    Kind kind = Kind::none;
    /// A profile_launches launch while a sample of its configuration was open: the sample it
    /// was to begin waits (on_sample_deferred), and it runs the open one's next pass instead.
    bool deferred = false;
    std::uint64_t sample_id = 0; ///< the launch that began the sample
    /// The sample's counters when this launch completed it (correlation_id = sample_id).
    std::optional<CounterSample> completed;
    const char* discard = nullptr; ///< set with `completed` empty: the completed sample's fault
};

/// What a tensor-types sample of `launch` counts (fake_script.hpp, tensor_counters).
[[nodiscard]] model::Counters tensor_types_sample(const ScriptLaunch& launch);

/// Open samples by configuration. Thread-safe.
class FakePasses {
public:
    /// `passes` per sample; a sample whose configuration has not recurred within `bound`
    /// launches (all kernels) is given up.
    FakePasses(int passes, std::uint64_t bound) noexcept;

    /// A launch answered profile_launches: begins its sample and runs pass 0 on it (or, while
    /// one of its configuration is open, that one's next pass).
    PassOutcome begin(const LaunchEvent& event, const ScriptLaunch& launch);
    /// True while any sample is open: a tensor-types sample then waits (switching the metric
    /// set would tear down the profiler the samples run on, as in the CUPTI backend).
    [[nodiscard]] bool any_open();
    /// Any other launch: the next pass when a sample of its configuration is open.
    PassOutcome next(const LaunchEvent& event, const ScriptLaunch& launch);
    /// Samples whose configuration has not recurred within the bound (each given up: the
    /// backend reports on_sample_abandoned with not_recurred).
    [[nodiscard]] std::vector<std::uint64_t> overdue();
    /// Every open sample, given up (at flush: no launch will complete it).
    [[nodiscard]] std::vector<std::uint64_t> close_all();

private:
    using Key = std::array<std::uint64_t, 9>; ///< function and launch configuration
    struct Open {
        std::uint64_t sample_id = 0;
        int next_pass = 0;
        std::uint64_t seen = 0; ///< launches played when its last pass ran
        bool extra_ranges = false;
        model::Counters counters;
    };
    static Key key_of(const LaunchEvent& event) noexcept;
    /// The next pass of the open sample of `event`'s configuration, if any (m_mutex held).
    PassOutcome next_locked(const LaunchEvent& event, const ScriptLaunch& launch);
    PassOutcome run_pass(Open& open, const ScriptLaunch& launch, const Key& key);

    std::mutex m_mutex;
    const int m_passes;
    const std::uint64_t m_bound;
    std::uint64_t m_launches = 0; ///< launches offered to begin/next
    std::map<Key, Open> m_open;
};

} // namespace irf::intercept::fake
