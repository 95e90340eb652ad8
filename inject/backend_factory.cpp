// SPDX-License-Identifier: Apache-2.0
// Backend selection. IRF_HAVE_CUPTI / IRF_HAVE_FAKE say what CMake linked in.
#include "inject/backend_factory.hpp"

#include "common/log.hpp"

#ifdef IRF_HAVE_CUPTI
#include "intercept/cupti/cupti_backend.hpp"
#endif
#ifdef IRF_HAVE_FAKE
#include "intercept/fake/fake_backend.hpp"
#endif

namespace irf::inject {

std::unique_ptr<intercept::Backend> make_backend(const config::Config& config) {
    using config::LogLevel;
    if (config.backend == "fake") {
#ifdef IRF_HAVE_FAKE
        intercept::FakeOptions options;
        if (config.graph_timing == config::GraphTiming::graphs) {
            options.graph_node_replays = config.graph_node_replays;
        }
        return intercept::make_fake_backend(config.backend_arg, options);
#else
        common::log_line(LogLevel::error, "IRF_BACKEND=fake:" + config.backend_arg +
                                              ": the fake backend exists only in test "
                                              "builds; irf disabled");
        return nullptr;
#endif
    }
#ifdef IRF_HAVE_CUPTI
    intercept::CuptiOptions options;
    options.collect_pipe_mix = config.metrics_pipe_mix;
    options.collect_tensor_types = config.metrics_tensor_types;
    options.samples = config.samples > 0;
    options.profiler_api_callbacks = config.capture_profiler_api;
    options.fast_intercept = config.fast_intercept;
    if (config.graph_timing == config::GraphTiming::graphs) {
        options.graph_node_replays = config.graph_node_replays;
    }
    return intercept::make_cupti_backend(options);
#else
    common::log_line(LogLevel::error,
                     "the CUPTI backend is not built into this libirf.so; irf disabled");
    return nullptr;
#endif
}

} // namespace irf::inject
