// SPDX-License-Identifier: Apache-2.0
// NVTX range capture. Paths live in fixed-size chunks that are never freed (application threads
// may push while the process exits), found through a bucket table whose chains are published with
// release stores: readers never lock, writers (a path seen for the first time) do.
#include "intercept/nvtx_stack.hpp"

#include <pthread.h>

#include <algorithm>
#include <deque>
#include <mutex>
#include <new>
#include <unordered_map>
#include <unordered_set>

#include "common/log.hpp"
#include "model/roofline/region_tree.hpp"

namespace irf::intercept::nvtx {
namespace {

constexpr std::uint32_t k_chunk = 4096;
constexpr std::uint32_t k_bucket_bits = 16;

/// One interned range path: its innermost range's name and domain below `parent`.
struct Node {
    std::uint32_t parent = k_root;
    std::uint32_t domain = k_default_domain;
    std::uint64_t hash = 0;
    std::uint32_t next = 0; ///< next id in the bucket chain (0 = end); set before publishing
    std::string name;
    std::atomic<std::uint32_t> cache{0};
};

std::atomic<Node*> s_chunks[k_max_paths / k_chunk];
std::atomic<std::uint32_t> s_buckets[1u << k_bucket_bits];
std::atomic<std::uint64_t> s_unbalanced{0}, s_too_deep{0}, s_dropped{0}, s_open_dropped{0};

/// Slow-path state, leaked on purpose so that no destructor races a late application thread.
struct Registry {
    std::mutex mutex;
    std::uint32_t paths = 1; ///< ids handed out; id 0 is the root
    std::deque<std::string> domains{""};
    /// Name -> index of `domains`: a linear search made 100,000 domain names take 11.5 s.
    std::unordered_map<std::string, std::uint32_t> domain_index;
    std::unordered_set<std::string> strings;
    std::unordered_map<std::uint64_t, std::string> open;
    std::uint64_t next_range = 1;
};
Registry* s_registry = nullptr;

// A child forked while another thread held the registry's lock would hang at its first new path
// or start/end range (irf's NVTX callbacks stay installed in it): the lock is taken around
// fork() and made anew in the child (issue 51 A10, the review's L1).
void lock_for_fork() {
    s_registry->mutex.lock();
}
void unlock_after_fork() {
    s_registry->mutex.unlock();
}
void reset_in_child() {
    new (&s_registry->mutex) std::mutex();
}

Registry& registry() {
    static Registry* r = [] {
        s_registry = new Registry;
        (void)pthread_atfork(lock_for_fork, unlock_after_fork, reset_in_child);
        return s_registry;
    }();
    return *r;
}

} // namespace

void with_registry_locked_for_test(const std::function<void()>& fn) {
    const std::lock_guard<std::mutex> lock(registry().mutex);
    fn();
}

namespace {

/// The calling thread's open ranges; trivially constructed, so reading it needs no guard.
struct ThreadStack {
    std::uint32_t ids[k_max_depth];
    int depth;
};
thread_local ThreadStack t_stack;

Node* node_at(std::uint32_t id) noexcept {
    Node* chunk = s_chunks[id / k_chunk].load(std::memory_order_acquire);
    return chunk == nullptr ? nullptr : &chunk[id % k_chunk];
}

std::uint64_t hash_of(std::uint32_t parent, std::uint32_t domain, std::string_view name) noexcept {
    std::uint64_t h = 1469598103934665603ull; // FNV-1a
    for (const char c : name) {
        h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    }
    return (h ^ (std::uint64_t{parent} << 20) ^ domain) * 0x9E3779B97F4A7C15ull;
}

std::uint32_t find(std::uint32_t parent, std::uint32_t domain, std::string_view name,
                   std::uint64_t hash) noexcept {
    for (std::uint32_t id = s_buckets[hash >> (64 - k_bucket_bits)].load(std::memory_order_acquire);
         id != 0;) {
        const Node* n = node_at(id);
        if (n->hash == hash && n->parent == parent && n->domain == domain && n->name == name) {
            return id;
        }
        id = n->next;
    }
    return 0;
}

/// Interns a new path under the registry lock; the parent on failure (counted).
std::uint32_t add(std::uint32_t parent, std::uint32_t domain, std::string_view name,
                  std::uint64_t hash) noexcept {
    try {
        Registry& r = registry();
        const std::lock_guard<std::mutex> lock(r.mutex);
        if (const std::uint32_t id = find(parent, domain, name, hash)) {
            return id;
        }
        if (r.paths >= k_max_paths) {
            if (s_dropped.fetch_add(1, std::memory_order_relaxed) == 0) {
                common::log_line(common::LogLevel::warn,
                                 std::to_string(k_max_paths) +
                                     " distinct NVTX range paths reached; new ones are counted "
                                     "and attributed to their enclosing range");
            }
            return parent;
        }
        const std::uint32_t id = r.paths;
        if (node_at(id) == nullptr) {
            s_chunks[id / k_chunk].store(new Node[k_chunk], std::memory_order_release);
        }
        Node* n = node_at(id);
        n->parent = parent;
        n->domain = domain;
        n->hash = hash;
        n->name.assign(name.data(), name.size());
        std::atomic<std::uint32_t>& bucket = s_buckets[hash >> (64 - k_bucket_bits)];
        n->next = bucket.load(std::memory_order_relaxed);
        bucket.store(id, std::memory_order_release);
        ++r.paths;
        return id;
    } catch (...) {
        s_dropped.fetch_add(1, std::memory_order_relaxed);
        return parent;
    }
}

/// The domain of path `id`'s innermost range (the default one for the root or an unknown id).
std::uint32_t domain_of(std::uint32_t id) noexcept {
    const Node* n = id == k_root ? nullptr : node_at(id);
    return n == nullptr ? k_default_domain : n->domain;
}

std::string label(const std::string& domain, const std::string& name) {
    return domain.empty() ? name : domain + "@" + name;
}

/// `text` with '\' and '/' written as "\\" and "\/": a range named "a/b" and the ranges a, b
/// nested are different paths and must not print as one (docs/regions.md).
std::string escape_separator(const std::string& text) {
    if (text.find_first_of("/\\") == std::string::npos) {
        return text;
    }
    std::string out;
    for (const char c : text) {
        if (c == '/' || c == '\\') {
            out += '\\';
        }
        out += c;
    }
    return out;
}

} // namespace

int push(std::uint32_t domain, std::string_view name) noexcept {
    // emit_nvtx numbers every operator call (seq, op_id): kept, the paths grew with the steps
    // and a 4-layer model's 21 steps passed k_max_paths (tests/data/gpu/h100/torch/irf-1.txt).
    name = model::plain_range_view(name);
    ThreadStack& s = t_stack;
    if (s.depth >= k_max_depth) {
        s_too_deep.fetch_add(1, std::memory_order_relaxed);
        return s.depth++;
    }
    const std::uint32_t parent = s.depth == 0 ? k_root : s.ids[s.depth - 1];
    const std::uint64_t hash = hash_of(parent, domain, name);
    std::uint32_t id = find(parent, domain, name, hash);
    if (id == 0) {
        id = add(parent, domain, name, hash);
    }
    s.ids[s.depth] = id;
    return s.depth++;
}

int pop() noexcept {
    ThreadStack& s = t_stack;
    if (s.depth == 0) {
        s_unbalanced.fetch_add(1, std::memory_order_relaxed);
        return -1;
    }
    return --s.depth;
}

int pop_domain(std::uint32_t domain) noexcept {
    ThreadStack& s = t_stack;
    if (s.depth == 0 || s.depth > k_max_depth) {
        return pop(); // nothing open, or past the kept depth: only the count moves
    }
    // NVTX keeps one stack per domain: the innermost range of `domain` may sit below another
    // domain's (NCCL's ranges interleave with the application's). It is taken out and the
    // ranges above it are found again under their new parents.
    int at = s.depth - 1;
    while (at >= 0 && domain_of(s.ids[at]) != domain) {
        --at;
    }
    if (at < 0) {
        s_unbalanced.fetch_add(1, std::memory_order_relaxed);
        return -1;
    }
    int level = 0;
    for (int i = 0; i < at; ++i) {
        level += domain_of(s.ids[i]) == domain ? 1 : 0;
    }
    const int above = s.depth - at - 1;
    std::uint32_t moved[k_max_depth];
    for (int i = 0; i < above; ++i) {
        moved[i] = s.ids[at + 1 + i];
    }
    s.depth = at;
    for (int i = 0; i < above; ++i) {
        const Node* n = moved[i] == k_root ? nullptr : node_at(moved[i]);
        if (n != nullptr) {
            push(n->domain, n->name);
        } else {
            s.ids[s.depth++] = current_path(); // a path that was never kept (limit reached)
        }
    }
    return level;
}

std::uint32_t current_path() noexcept {
    const ThreadStack& s = t_stack;
    return s.depth == 0 ? k_root : s.ids[std::min(s.depth, k_max_depth) - 1];
}

int depth() noexcept {
    return t_stack.depth;
}

void set_stack(const std::vector<std::string>& names) noexcept {
    t_stack.depth = 0;
    for (const std::string& name : names) {
        push(k_default_domain, name);
    }
}

std::vector<PathElement> path_elements(std::uint32_t path) {
    std::vector<PathElement> out;
    const Registry& r = registry();
    for (const Node* n = path == k_root ? nullptr : node_at(path); n != nullptr;
         n = n->parent == k_root ? nullptr : node_at(n->parent)) {
        out.push_back({n->domain < r.domains.size() ? r.domains[n->domain] : "", n->name});
    }
    std::reverse(out.begin(), out.end());
    return out;
}

std::string path_name(std::uint32_t path) {
    std::string out;
    for (const PathElement& e : path_elements(path)) {
        out +=
            (out.empty() ? "" : "/") + label(escape_separator(e.domain), escape_separator(e.name));
    }
    return out;
}

std::atomic<std::uint32_t>* path_cache(std::uint32_t path) noexcept {
    Node* n = path == k_root ? nullptr : node_at(path);
    return n == nullptr ? nullptr : &n->cache;
}

std::uint32_t domain(std::string_view name) noexcept {
    try {
        Registry& r = registry();
        const std::lock_guard<std::mutex> lock(r.mutex);
        const auto [it, added] =
            r.domain_index.emplace(std::string(name), static_cast<std::uint32_t>(r.domains.size()));
        if (added) {
            r.domains.emplace_back(name);
        }
        return it->second;
    } catch (...) {
        return k_default_domain;
    }
}

const std::string* register_string(std::string_view text) noexcept {
    try {
        Registry& r = registry();
        const std::lock_guard<std::mutex> lock(r.mutex);
        return &*r.strings.emplace(text).first;
    } catch (...) {
        return nullptr;
    }
}

std::uint64_t start_range(std::uint32_t domain, std::string_view name) noexcept {
    try {
        Registry& r = registry();
        const std::lock_guard<std::mutex> lock(r.mutex);
        const std::uint64_t id = r.next_range++;
        if (r.open.size() >= k_max_open_ranges) {
            // Starts without ends (a leak in the application) grew this map without bound:
            // 20 million took 1.45 GB. The range is not tracked; its end is then ignored.
            if (s_open_dropped.fetch_add(1, std::memory_order_relaxed) == 0) {
                common::log_line(common::LogLevel::warn,
                                 "more than " + std::to_string(k_max_open_ranges) +
                                     " NVTX start/end ranges open at once (starts without "
                                     "ends?); further ones are counted, not tracked");
            }
            return id;
        }
        const std::string d = domain < r.domains.size() ? r.domains[domain] : "";
        r.open.emplace(id, label(d, std::string(name)));
        return id;
    } catch (...) {
        return 0;
    }
}

void end_range(std::uint64_t id) noexcept {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    r.open.erase(id);
}

std::vector<std::string> open_ranges() {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    std::vector<std::string> out;
    for (const auto& [id, name] : r.open) {
        (void)id;
        out.push_back(name);
    }
    return out;
}

NvtxStats stats() noexcept {
    return {s_unbalanced.load(std::memory_order_relaxed),
            s_too_deep.load(std::memory_order_relaxed), s_dropped.load(std::memory_order_relaxed),
            s_open_dropped.load(std::memory_order_relaxed)};
}

} // namespace irf::intercept::nvtx
