// SPDX-License-Identifier: Apache-2.0
// Fault matrix, security (source checks): the code that runs inside the application (inject,
// intercept, config, model) never shells out or starts programs, and every printf-style call
// has a literal format, so nothing read from the environment can become a format string.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

namespace irf::test {
namespace {

namespace fs = std::filesystem;

/// `text` without // and /* */ comments (string literals kept).
std::string strip_comments(const std::string& text) {
    std::string out;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            out += c;
            if (c == '\\' && i + 1 < text.size()) {
                out += text[++i];
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
            out += c;
        } else if (text.compare(i, 2, "//") == 0) {
            i = text.find('\n', i);
            if (i == std::string::npos) {
                break;
            }
            out += '\n';
        } else if (text.compare(i, 2, "/*") == 0) {
            i = text.find("*/", i + 2);
            if (i == std::string::npos) {
                break;
            }
            ++i;
        } else {
            out += c;
        }
    }
    return out;
}

struct Source {
    std::string path;
    std::string code;
};

/// Every .cpp/.hpp/.cu/.cuh under the in-process directories, comments stripped.
std::vector<Source> in_process_sources() {
    std::vector<Source> out;
    for (const char* dir : {"inject", "intercept", "config", "model"}) {
        for (const auto& e : fs::recursive_directory_iterator(fs::path(IRF_SOURCE_DIR) / dir)) {
            const std::string ext = e.path().extension().string();
            if (ext == ".cpp" || ext == ".hpp" || ext == ".cu" || ext == ".cuh") {
                std::ifstream in(e.path());
                std::stringstream text;
                text << in.rdbuf();
                out.push_back({e.path().string(), strip_comments(text.str())});
            }
        }
    }
    return out;
}

/// The line number of `offset` in `text`.
std::size_t line_of(const std::string& text, std::size_t offset) {
    return 1 + static_cast<std::size_t>(
                   std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

TEST(FaultSource, SourcesAreFound) {
    // Guards the other checks against scanning nothing.
    EXPECT_GT(in_process_sources().size(), 20u);
}

TEST(FaultSource, NoShellingOutOrStartingPrograms) {
    const std::regex call(R"(\b(system|popen|execv|execvp|execvpe|execve|execl|execlp|execle|)"
                          R"(posix_spawn|posix_spawnp|vfork|fork|wordexp)\s*\()");
    for (const Source& s : in_process_sources()) {
        for (auto it = std::sregex_iterator(s.code.begin(), s.code.end(), call);
             it != std::sregex_iterator(); ++it) {
            ADD_FAILURE() << s.path << ":"
                          << line_of(s.code, static_cast<std::size_t>(it->position())) << ": "
                          << it->str();
        }
    }
}

/// The argument at index `n` of the call whose '(' is at `open`, trimmed.
std::string argument(const std::string& code, std::size_t open, int n) {
    int depth = 0;
    int index = 0;
    std::string arg;
    bool in_string = false;
    for (std::size_t i = open + 1; i < code.size(); ++i) {
        const char c = code[i];
        if (in_string) {
            arg += c;
            if (c == '\\') {
                arg += code[++i];
            } else if (c == '"') {
                in_string = false;
            }
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '(' || c == '[' || c == '{') {
            ++depth;
        } else if ((c == ')' || c == ']' || c == '}') && depth-- == 0) {
            break;
        } else if (c == ',' && depth == 0) {
            if (index++ == n) {
                break;
            }
            arg.clear();
            continue;
        }
        arg += c;
    }
    const std::size_t first = arg.find_first_not_of(" \t\n");
    return first == std::string::npos ? "" : arg.substr(first);
}

TEST(FaultSource, FormatCheckerSeesTheFormatArgument) {
    // The checker itself: it must find a non-literal format where one is.
    const std::string code = "fprintf(stderr, name.c_str(), f(a, b))";
    EXPECT_EQ(argument(code, 7, 1), "name.c_str()");
    EXPECT_EQ(argument("snprintf(buf, sizeof(buf), \"%s, %d\", x)", 8, 2), "\"%s, %d\"");
}

/// printf-style wrappers declared in `code` (`__attribute__((format(printf, N, M)))`): name ->
/// index of the format argument. Their own v*printf call may pass the format parameter on;
/// their callers are checked like printf's.
std::map<std::string, std::pair<int, std::string>> format_wrappers(const std::string& code) {
    const std::regex decl(R"((\w+)\s*\(([^()]*)\)\s*__attribute__\(\(format\(printf,\s*(\d+))");
    std::map<std::string, std::pair<int, std::string>> out;
    for (auto it = std::sregex_iterator(code.begin(), code.end(), decl);
         it != std::sregex_iterator(); ++it) {
        const int index = std::stoi((*it)[3]) - 1;
        const std::string params = (*it)[2];
        std::smatch name;
        // The format parameter's name: the identifier before the index-th comma.
        std::string param;
        int commas = 0;
        std::string current;
        for (const char c : params + ",") {
            if (c == ',') {
                if (commas++ == index) {
                    std::regex_search(current, name, std::regex(R"((\w+)\s*$)"));
                    param = name[1];
                }
                current.clear();
            } else {
                current += c;
            }
        }
        out[(*it)[1]] = {index, param};
    }
    return out;
}

TEST(FaultSource, EveryFormatIsALiteral) {
    // Index of the format argument per function.
    const std::map<std::string, int> format_arg = {
        {"printf", 0},  {"fprintf", 1},  {"dprintf", 1},   {"sprintf", 1}, {"snprintf", 2},
        {"vprintf", 0}, {"vfprintf", 1}, {"vsnprintf", 2}, {"syslog", 1},  {"vsyslog", 1}};
    int calls = 0;
    for (const Source& s : in_process_sources()) {
        const auto wrappers = format_wrappers(s.code);
        std::string names = "printf|fprintf|dprintf|sprintf|snprintf|vprintf|vfprintf|vsnprintf|"
                            "syslog|vsyslog";
        for (const auto& w : wrappers) {
            names += "|" + w.first;
        }
        const std::regex call("\\b(" + names + ")\\s*\\(");
        for (auto it = std::sregex_iterator(s.code.begin(), s.code.end(), call);
             it != std::sregex_iterator(); ++it) {
            const std::string function = (*it)[1];
            const std::size_t at = static_cast<std::size_t>(it->position());
            const std::string attribute = "__attribute__((";
            if (at >= attribute.size() &&
                s.code.compare(at - attribute.size(), attribute.size(), attribute) == 0) {
                continue; // format(printf, 1, 2) in a wrapper's attribute, not a call
            }
            const auto wrapper = wrappers.find(function);
            const int index =
                wrapper != wrappers.end() ? wrapper->second.first : format_arg.at(function);
            const std::size_t open = static_cast<std::size_t>(it->position() + it->length() - 1);
            const std::string arg = argument(s.code, open, index);
            if (arg.rfind("const char", 0) == 0) {
                continue; // the wrapper's own declaration
            }
            bool passes_wrapper_format = false;
            for (const auto& w : wrappers) {
                passes_wrapper_format = passes_wrapper_format || arg == w.second.second;
            }
            if (passes_wrapper_format && function[0] == 'v') {
                continue; // vsnprintf(buf, n, fmt, args) inside a checked wrapper
            }
            ++calls;
            EXPECT_EQ(arg.rfind('"', 0), 0u)
                << s.path << ":" << line_of(s.code, open) << ": format is not a literal: " << arg;
        }
    }
    std::cout << calls << " printf-style calls checked\n";
}

} // namespace
} // namespace irf::test
