#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Source lint (docs/reliability.md, security rows), run by ctest as `check_sources` (label
unit). The code that runs inside the application (inject, intercept, config, model) never
shells out or starts programs, and every printf-style call has a literal format, so nothing
read from the environment can become a format string. model/ includes no config/ header but
config/ceilings.hpp (docs/architecture.md, "Arrows"), a room of model/ includes no higher room
(profile <- roofline <- projection <- summary <- analyze), and no source file of the repository is
over 400 lines. Exit 0 when clean, 1 with one line per
finding. `--self-test` checks the argument extractor itself."""
import os
import re
import sys

import unity_names

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IN_PROCESS = ("inject", "intercept", "config", "model")
EXTENSIONS = (".cpp", ".hpp", ".cu", ".cuh")
FORMAT_ARG = {"printf": 0, "fprintf": 1, "dprintf": 1, "sprintf": 1, "snprintf": 2,
              "vprintf": 0, "vfprintf": 1, "vsnprintf": 2, "syslog": 1, "vsyslog": 1}
SPAWN = re.compile(r"\b(system|popen|execv|execvp|execvpe|execve|execl|execlp|execle|"
                   r"posix_spawn|posix_spawnp|vfork|fork|wordexp)\s*\(")
WRAPPER = re.compile(r"(\w+)\s*\(([^()]*)\)\s*__attribute__\(\(format\(printf,\s*(\d+)")


def strip_comments(text):
    """`text` without // and /* */ comments (string literals kept, line breaks kept)."""
    out, i, in_string = [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < len(text):
                i += 1
                out.append(text[i])
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                break
            out.append("\n")
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                break
            out.append("\n" * text.count("\n", i, end))
            i = end + 1
        else:
            out.append(c)
        i += 1
    return "".join(out)


def repository_sources(extensions, under=""):
    """Relative paths of the files under folder `under` (default: the whole repository) ending
    in `extensions`, build trees and hidden folders left out (.git, and the ignored .kit and
    .devcarry that a GPU session stages: docs/validation/README.md)."""
    for base, dirs, files in os.walk(os.path.join(ROOT, under)):
        dirs[:] = [d for d in dirs if d != "build" and not d.startswith(("build-", "."))]
        for name in sorted(files):
            if name.endswith(extensions):
                yield os.path.relpath(os.path.join(base, name), ROOT)


def in_process_sources():
    """(path, code without comments) of every C++/CUDA file under the in-process folders."""
    for folder in IN_PROCESS:
        for path in repository_sources(EXTENSIONS, folder):
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                yield path, strip_comments(f.read())


def line_of(code, offset):
    return code.count("\n", 0, offset) + 1


def argument(code, open_paren, n):
    """The argument at index `n` of the call whose '(' is at `open_paren`, left-trimmed."""
    depth, index, arg, in_string, i = 0, 0, [], False, open_paren + 1
    while i < len(code):
        c = code[i]
        if in_string:
            arg.append(c)
            if c == "\\":
                i += 1
                arg.append(code[i])
            elif c == '"':
                in_string = False
            i += 1
            continue
        if c == '"':
            in_string = True
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            if index == n:
                break
            index += 1
            arg = []
            i += 1
            continue
        arg.append(c)
        i += 1
    return "".join(arg).lstrip(" \t\n")


def format_wrappers(code):
    """printf-style wrappers declared in `code`: name -> (format index, format parameter)."""
    out = {}
    for m in WRAPPER.finditer(code):
        index = int(m.group(3)) - 1
        params = m.group(2).split(",")
        param = ""
        if index < len(params):
            name = re.search(r"(\w+)\s*$", params[index])
            param = name.group(1) if name else ""
        out[m.group(1)] = (index, param)
    return out


def spawn_findings(path, code):
    return [f"{path}:{line_of(code, m.start())}: starts a program: {m.group(0)}"
            for m in SPAWN.finditer(code)]


def format_findings(path, code):
    """Non-literal formats of printf-style calls; also returns how many calls were checked."""
    wrappers = format_wrappers(code)
    names = "|".join(list(FORMAT_ARG) + list(wrappers))
    findings, calls = [], 0
    for m in re.finditer(r"\b(" + names + r")\s*\(", code):
        function = m.group(1)
        if code[:m.start()].endswith("__attribute__(("):
            continue  # format(printf, 1, 2) in a wrapper's attribute, not a call
        index = wrappers[function][0] if function in wrappers else FORMAT_ARG[function]
        open_paren = m.end() - 1
        arg = argument(code, open_paren, index)
        if arg.startswith("const char"):
            continue  # the wrapper's own declaration
        if function.startswith("v") and any(arg == w[1] for w in wrappers.values()):
            continue  # vsnprintf(buf, n, fmt, args) inside a checked wrapper
        calls += 1
        if not arg.startswith('"'):
            findings.append(f"{path}:{line_of(code, open_paren)}: format is not a literal: "
                            f"{arg}")
    return findings, calls


def arrow_findings():
    """model/ includes from config/ only the ceilings types (docs/architecture.md)."""
    findings = []
    include = re.compile(r'#include "(config/[^"]+)"')
    for path in repository_sources(EXTENSIONS, "model"):
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                m = include.search(line)
                if m and m.group(1) != "config/ceilings.hpp":
                    findings.append(f"{path}:{number}: model/ includes {m.group(1)}")
    return findings


# model/'s rooms, lowest first (docs/architecture.md, "model/ rooms"); analyze.* sits above all.
MODEL_ROOMS = ("profile", "roofline", "projection", "summary")
MODEL_INCLUDE = re.compile(r'#\s*include\s*"model/([^"]+)"')


def model_rank(relative):
    """The rank of a path under model/: its room's index, len(MODEL_ROOMS) for the top (analyze),
    None for a file in no room."""
    room = relative.split("/", 1)[0] if "/" in relative else None
    if room is None:
        return len(MODEL_ROOMS)
    return MODEL_ROOMS.index(room) if room in MODEL_ROOMS else None


def room_findings(path, code):
    """An include from a lower room of model/ up to a higher one (profile <- roofline <-
    projection <- summary <- analyze), or a file of model/ outside the rooms."""
    if not path.startswith("model/") or not path.endswith(EXTENSIONS):
        return []
    own = model_rank(path[len("model/"):])
    if own is None:
        return [f"{path}: in no room of model/ ({', '.join(MODEL_ROOMS)})"]
    findings = []
    for m in MODEL_INCLUDE.finditer(code):
        target = model_rank(m.group(1))
        if target is None or target > own:
            findings.append(f"{path}:{line_of(code, m.start())}: includes model/{m.group(1)}, "
                            f"a higher room (docs/architecture.md, \"model/ rooms\")")
    return findings


CUDA_HEADER = re.compile(r'#\s*include\s*[<"]((cuda|cupti|nvperf|nvtx|nvToolsExt)[^>"]*)[>"]')
CUDA_FOLDERS = ("intercept/cupti/", "calibrate/", "tests/")


def cuda_findings(path, code):
    """CUDA or CUPTI outside the folders that may use it (docs/architecture.md): libirf's only
    CUDA client is intercept/cupti/; calibrate/ and the tests' apps and fakes are programs."""
    if path.startswith(CUDA_FOLDERS):
        return []
    if path.endswith((".cu", ".cuh")):
        return [f"{path}: CUDA source outside {', '.join(CUDA_FOLDERS)}"]
    return [f"{path}:{line_of(code, m.start())}: includes {m.group(1)} outside "
            f"{', '.join(CUDA_FOLDERS)}" for m in CUDA_HEADER.finditer(code)]


STD_REGEX = re.compile(r"\bstd::(w?regex|regex_\w+|w?[cs]match|w?s?sub_match)\b|#\s*include\s*<regex>")


def regex_findings(path, code):
    """std::regex anywhere (DESIGN.md section 7): libstdc++'s recurses once per character and
    backtracks without bound, so a long name or key crashed the application (issue #39)."""
    return [f"{path}:{line_of(code, m.start())}: uses {m.group(0)} (use RE2 or plain "
            f"character checks)" for m in STD_REGEX.finditer(code)]


def cuda_placement_findings():
    """CUDA placement, std::regex and unity-batch names, one pass over every C++/CUDA source."""
    findings, sources = [], []
    for path in repository_sources(EXTENSIONS):
        with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        code = strip_comments(text)
        findings += cuda_findings(path, code) + regex_findings(path, code)
        findings += room_findings(path, code)
        sources.append((path, text))  # with comments: namespaces close with `} // namespace`
    return findings + unity_names.findings(sources)


def length_findings(limit=400):
    """Source files (C++, CUDA, Python, shell) over `limit` lines, build trees left out."""
    findings = []
    for path in repository_sources(EXTENSIONS + (".py", ".sh")):
        with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
            lines = sum(1 for _ in f)
        if lines > limit:
            findings.append(f"{path}: {lines} lines (> {limit})")
    return findings


def self_test():
    """The checker itself: it must find a non-literal format where one is."""
    assert argument("fprintf(stderr, name.c_str(), f(a, b))", 7, 1) == "name.c_str()"
    assert argument('snprintf(buf, sizeof(buf), "%s, %d", x)', 8, 2) == '"%s, %d"'
    bad = 'void f() { fprintf(stderr, user); system("x"); } // printf(s)\n'
    code = strip_comments(bad)
    assert len(format_findings("t.cpp", code)[0]) == 1, "a non-literal format is missed"
    assert len(spawn_findings("t.cpp", code)) == 1, "a system() call is missed"
    wrapped = ('void say(const char* fmt, ...) __attribute__((format(printf, 1, 2)));\n'
               'void g() { say(msg); say("%d", 1); }\n')
    assert len(format_findings("t.cpp", wrapped)[0]) == 1, "a wrapper's caller is not checked"
    assert len(cuda_findings("tools/x.cpp", "#include <cuda_runtime.h>\n")) == 1, \
        "a CUDA header outside its folders is missed"
    assert len(cuda_findings("tools/demo.cu", "")) == 1, "a .cu file outside its folders is missed"
    assert not cuda_findings("calibrate/k.cu", "#include <cuda.h>\n"), "calibrate/ may use CUDA"
    assert len(regex_findings("t.cpp", "#include <regex>\nstd::regex r; std::smatch m;\n")) == 3, \
        "std::regex is missed"
    assert not regex_findings("t.cpp", strip_comments("RE2 re; // std::regex\n")), \
        "a comment is not a use"
    assert len(room_findings("model/profile/a.cpp", '#include "model/roofline/b.hpp"\n')) == 1, \
        "an include up from a lower room is missed"
    assert len(room_findings("model/summary/a.cpp", '#include "model/analyze.hpp"\n')) == 1, \
        "an include of analyze from a room is missed"
    assert not room_findings("model/analyze.cpp", '#include "model/summary/t.hpp"\n'), \
        "analyze may include every room"
    assert not room_findings("model/projection/a.hpp", '#include "model/profile/p.hpp"\n'), \
        "an include down is allowed"
    assert len(room_findings("model/stray.hpp", "")) == 0 and \
        len(room_findings("model/misc/x.hpp", "")) == 1, "a file outside the rooms is missed"
    unity_names.self_test()
    print("check-sources: self-test ok")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return 0
    sources = list(in_process_sources())
    findings, calls = [], 0
    if len(sources) <= 20:  # guards the checks against scanning nothing
        findings.append(f"only {len(sources)} in-process sources found under {ROOT}")
    for path, code in sources:
        findings += spawn_findings(path, code)
        more, n = format_findings(path, code)
        findings += more
        calls += n
    findings += arrow_findings() + length_findings() + cuda_placement_findings()
    for line in findings:
        print(f"check-sources: {line}", file=sys.stderr)
    print(f"check-sources: {len(sources)} files, {calls} printf-style calls checked")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
