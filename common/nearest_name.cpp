// SPDX-License-Identifier: Apache-2.0
#include "common/nearest_name.hpp"

#include <algorithm>
#include <cctype>

namespace irf::common {
std::string lowercase(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return s;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) {
        row[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                              std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string did_you_mean(const std::string& item, const std::vector<std::string>& known) {
    std::vector<std::string> extended;
    for (const std::string& name : known) {
        if (!item.empty() && lowercase(name).rfind(lowercase(item), 0) == 0) {
            extended.push_back(name);
        }
    }
    if (!extended.empty() && extended.size() <= 3) {
        std::string list;
        for (std::size_t i = 0; i < extended.size(); ++i) {
            list += (i == 0 ? "" : i + 1 == extended.size() ? " or " : ", ") + extended[i];
        }
        return "; did you mean " + list + "?";
    }
    const std::size_t allowed = std::max<std::size_t>(2, item.size() / 3);
    std::size_t best = allowed + 1;
    std::string nearest;
    for (const std::string& name : known) {
        const std::size_t distance = edit_distance(item, name);
        if (distance < best) {
            best = distance;
            nearest = name;
        }
    }
    return nearest.empty() ? "" : "; did you mean " + nearest + "?";
}

} // namespace irf::common
