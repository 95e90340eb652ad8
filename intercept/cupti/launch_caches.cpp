// SPDX-License-Identifier: Apache-2.0
// What a launch needs to know about its context, function and stream, asked of CUPTI and the
// driver once and then kept in the launching thread: a warmed-up launch makes no query and
// takes no lock (issue 55 item 2; docs/performance.md, "Overhead against its goals").
#include <array>
#include <memory>
#include <new>

#include "intercept/cupti/launch_caches.hpp"

#include "intercept/cupti/cupti_backend_impl.hpp"

namespace irf::intercept::cupti {
namespace {

std::atomic<std::uint64_t> s_instances{0};
std::atomic<std::uint64_t> s_attribute_table_misses{0};

/// A context's ids, valid for one backend and one context epoch (a destroyed context's handle
/// may come back for a new one).
struct CachedContext {
    std::uint64_t instance = 0; ///< 0: empty
    ContextIds ids;
};
thread_local CachedContext t_context;

/// One function's attributes, as the driver gave them.
struct CachedAttributes {
    CUfunction function = nullptr; ///< null: empty
    FunctionAttributes attributes;
};

/// A launching thread's attributes by function handle, valid for one backend and one module
/// epoch (emptied when either changes). Open addressing that grows, so a thread that cycles over
/// thousands of kernels still finds each here without a lock (issue 55 item 2: 4,096 kernels
/// fell past a fixed 256 entries into the shared map): 24 bytes a slot, at most half full.
class AttributeTable {
public:
    /// The attributes kept for `function`, or null.
    [[nodiscard]] const FunctionAttributes* find(std::uint64_t instance, std::uint64_t epoch,
                                                 CUfunction function) noexcept {
        if (instance != m_instance || epoch != m_epoch) {
            clear(instance, epoch);
            return nullptr;
        }
        const CachedAttributes* slot = probe(m_slots.get(), m_bits, function);
        return slot != nullptr && slot->function == function ? &slot->attributes : nullptr;
    }

    /// Keeps `attributes` for `function` (nothing when memory runs out).
    void keep(CUfunction function, const FunctionAttributes& attributes) noexcept {
        if ((m_used + 1) * 2 > capacity() && !grow()) {
            return;
        }
        CachedAttributes* slot = probe(m_slots.get(), m_bits, function);
        if (slot == nullptr) {
            return;
        }
        m_used += slot->function == nullptr ? 1 : 0;
        *slot = {function, attributes};
    }

private:
    static constexpr int k_first_bits = 8;

    [[nodiscard]] std::size_t capacity() const noexcept {
        return m_slots ? std::size_t{1} << m_bits : 0;
    }

    /// The slot holding `function`, or the empty one where it would go; null without slots.
    static CachedAttributes* probe(CachedAttributes* slots, int bits,
                                   CUfunction function) noexcept {
        if (slots == nullptr) {
            return nullptr;
        }
        // Fibonacci hashing: handles are allocations, equal in their low bits.
        const auto key = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(function));
        const std::size_t mask = (std::size_t{1} << bits) - 1;
        std::size_t i = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> (64 - bits));
        while (slots[i].function != nullptr && slots[i].function != function) {
            i = (i + 1) & mask; // at most half full: an empty slot comes
        }
        return &slots[i];
    }

    bool grow() noexcept {
        const int bits = m_slots ? m_bits + 1 : k_first_bits;
        std::unique_ptr<CachedAttributes[]> larger(new (std::nothrow)
                                                       CachedAttributes[std::size_t{1} << bits]);
        if (!larger) {
            return false;
        }
        for (std::size_t i = 0; i < capacity(); ++i) {
            if (m_slots[i].function != nullptr) {
                *probe(larger.get(), bits, m_slots[i].function) = m_slots[i];
            }
        }
        m_slots = std::move(larger);
        m_bits = bits;
        return true;
    }

    void clear(std::uint64_t instance, std::uint64_t epoch) noexcept {
        m_slots.reset();
        m_bits = 0;
        m_used = 0;
        m_instance = instance;
        m_epoch = epoch;
    }

    std::unique_ptr<CachedAttributes[]> m_slots;
    int m_bits = 0;
    std::size_t m_used = 0;
    std::uint64_t m_instance = 0;
    std::uint64_t m_epoch = 0;
};

/// One stream's CUPTI id, valid for one backend and one stream and context epoch (a destroyed
/// stream's handle may come back for a new stream). The per-thread default stream is each
/// thread's own, which a per-thread cache keeps apart by itself.
struct CachedStream {
    std::uint64_t instance = 0; ///< 0: empty
    std::uint64_t epoch = 0;    ///< stream epoch + context epoch
    CUcontext context = nullptr;
    CUstream stream = nullptr;
    bool per_thread = false;
    std::uint32_t id = 0;
};
/// Most threads launch on a handful of streams; replaced round-robin.
constexpr std::size_t k_stream_entries = 8;
struct StreamCache {
    std::array<CachedStream, k_stream_entries> entries;
    std::size_t next = 0;
};

/// A launching thread's attribute and stream caches, on the heap: libirf's thread-local block is
/// static TLS (an initial-exec variable, common/inside_irf.hpp, marks the whole library so),
/// of which a library that is loaded late gets little, so kilobytes there fail its dlopen.
struct ThreadCaches {
    AttributeTable attributes;
    StreamCache streams;
};

/// Frees its thread's caches at thread exit.
struct ThreadCachesOwner {
    ThreadCaches* caches = nullptr;
    ThreadCachesOwner() = default;
    ThreadCachesOwner(const ThreadCachesOwner&) = delete;
    ThreadCachesOwner& operator=(const ThreadCachesOwner&) = delete;
    ~ThreadCachesOwner() {
        delete caches;
        caches = nullptr; // a launch from a later thread-exit handler allocates them again
    }
};
thread_local ThreadCachesOwner t_caches;

/// This thread's caches, allocated at its first launch; null when memory ran out (no cache).
ThreadCaches* thread_caches() noexcept {
    if (t_caches.caches == nullptr) {
        t_caches.caches = new (std::nothrow) ThreadCaches();
    }
    return t_caches.caches;
}

} // namespace

std::uint64_t attribute_table_misses() noexcept {
    return s_attribute_table_misses.load(std::memory_order_relaxed);
}

std::uint64_t CuptiBackend::next_instance() noexcept {
    return ++s_instances;
}

ContextIds CuptiBackend::context_ids(CUcontext context) noexcept {
    const std::uint64_t epoch = m_context_epoch.load(std::memory_order_relaxed);
    if (t_context.instance != m_instance || t_context.ids.context != context ||
        t_context.ids.epoch != epoch) {
        ContextIds ids;
        ids.context = context;
        ids.epoch = epoch;
        static_cast<void>(cuptiGetContextId(context, &ids.context_id));
        ids.device = m_platform->device_of(context);
        t_context = {m_instance, ids};
    }
    return t_context.ids;
}

FunctionAttributes CuptiBackend::attributes(CUfunction function, CUdevice device) noexcept {
    const std::uint64_t epoch = m_module_epoch.load(std::memory_order_acquire);
    ThreadCaches* caches = thread_caches();
    if (caches != nullptr) {
        if (const FunctionAttributes* kept = caches->attributes.find(m_instance, epoch, function)) {
            return *kept;
        }
    }
    s_attribute_table_misses.fetch_add(1, std::memory_order_relaxed);
    FunctionAttributes found;
    bool known = false;
    {
        std::shared_lock<std::shared_mutex> lock(m_attribute_lock);
        const auto it = m_attributes.find(function);
        if (it != m_attributes.end()) {
            found = it->second;
            known = true;
        }
    }
    if (!known) {
        // First launch of this handle (since the last module unload): two driver queries.
        found = function_attributes(function, device);
        if (m_fast_on.load(std::memory_order_acquire)) {
            found.name = m_platform->function_name(function);
        }
        try {
            std::unique_lock<std::shared_mutex> lock(m_attribute_lock);
            m_attributes.emplace(function, found);
        } catch (...) {
        }
    }
    if (caches != nullptr) {
        caches->attributes.keep(function, found);
    }
    return found;
}

bool CuptiBackend::over_budget(CUfunction function) noexcept {
    std::shared_lock<std::shared_mutex> lock(m_attribute_lock);
    return m_over_budget.count(function) != 0;
}

void CuptiBackend::on_module_unload() noexcept {
    // A later module may put a new kernel at a freed CUfunction address (issue 17 item 5).
    std::unique_lock<std::shared_mutex> lock(m_attribute_lock);
    m_attributes.clear();
    m_over_budget.clear();
    m_module_epoch.fetch_add(1, std::memory_order_release);
}

bool CuptiBackend::stream_id(CUcontext context, CUstream stream, bool per_thread,
                             std::uint32_t& id) noexcept {
    ThreadCaches* caches = thread_caches();
    if (caches == nullptr || !m_stream_destroys_seen.load(std::memory_order_relaxed)) {
        // Without the stream-destroy callback a reused handle could keep a dead stream's id.
        return m_platform->stream_id(context, stream, per_thread, id);
    }
    const std::uint64_t epoch = m_stream_epoch.load(std::memory_order_acquire) +
                                m_context_epoch.load(std::memory_order_acquire);
    StreamCache& streams = caches->streams;
    for (const CachedStream& entry : streams.entries) {
        if (entry.instance == m_instance && entry.epoch == epoch && entry.context == context &&
            entry.stream == stream && entry.per_thread == per_thread) {
            id = entry.id;
            return true;
        }
    }
    if (!m_platform->stream_id(context, stream, per_thread, id)) {
        return false; // not kept: asked again next time
    }
    streams.entries[streams.next] = {m_instance, epoch, context, stream, per_thread, id};
    streams.next = (streams.next + 1) % k_stream_entries;
    return true;
}

void CuptiBackend::on_stream_destroy() noexcept {
    m_stream_epoch.fetch_add(1, std::memory_order_release);
}

} // namespace irf::intercept::cupti
