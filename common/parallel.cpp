// SPDX-License-Identifier: Apache-2.0
#include "common/parallel.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace irf::common {

void for_each_range(std::size_t count, unsigned threads, std::size_t min_per_worker,
                    const std::function<void(std::size_t begin, std::size_t end)>& work) {
    const std::size_t workers = std::clamp<std::size_t>(
        count / std::max<std::size_t>(min_per_worker, 1), 1, std::max(threads, 1u));
    std::mutex error_lock;
    std::exception_ptr error;
    const auto run = [&](std::size_t w) {
        try {
            work(count * w / workers, count * (w + 1) / workers);
        } catch (...) {
            const std::lock_guard<std::mutex> hold(error_lock);
            if (!error) {
                error = std::current_exception();
            }
        }
    };
    std::vector<std::thread> helpers;
    std::vector<std::size_t> left; // ranges whose thread could not be started
    helpers.reserve(workers);
    left.reserve(workers);
    for (std::size_t w = 1; w < workers; ++w) {
        try {
            helpers.emplace_back(run, w);
        } catch (const std::system_error&) {
            left.push_back(w);
        }
    }
    run(0);
    for (const std::size_t w : left) {
        run(w);
    }
    for (std::thread& t : helpers) {
        t.join();
    }
    if (error) {
        std::rethrow_exception(error);
    }
}

} // namespace irf::common
