# SPDX-License-Identifier: Apache-2.0
"""Names that would meet inside one unity source (docs/reliability.md, "Where CI's time goes").

The CI presets compile a target's files in batches (CMAKE_UNITY_BUILD): every file of a batch
shares one anonymous namespace, so two files' helpers of one name become overloads of each other
and a call may pick the other file's without a word. Two rules keep that from happening:
- a test source (tests/, with test cases and no main) opens each anonymous namespace directly inside a namespace of
  its own, named once among the test sources, so no other file's helpers are visible from it;
- in the other sources (a folder is one CMake target), no two files define a function of one
  name in their anonymous namespaces.
Used by scripts/check-sources.py; `findings()` returns one line per breach."""
import collections
import os
import re

ANONYMOUS = re.compile(r"^namespace\s*\{\s*$")
NAMED = re.compile(r"^namespace\s+([\w:]+)\s*\{\s*$")
CLOSING = re.compile(r"^\}\s*//\s*namespace")
# A column-0 function definition: return type, name, parameters, then its body on this line.
FUNCTION = re.compile(r"^(?:template\s*<[^>]*>\s*)?(?:static\s+|inline\s+|constexpr\s+|\[\[nodiscard\]\]\s+)*"
                      r"[A-Za-z_][\w:<>,\s\*&]*?[\s\*&]+(\w+)\s*\([^;{]*\)\s*(?:const\s*)?"
                      r"(?:noexcept\s*)?(?:->\s*[\w:<>]+\s*)?\{", re.M)
# PrintTo is GoogleTest's printer hook: one overload per type of its own, by design.
NOT_NAMES = {"if", "for", "while", "switch", "return", "main", "TEST", "TEST_F", "TEST_P",
             "PrintTo"}
TEST_CASE = re.compile(r"^\s*(TEST|TEST_F|TEST_P|TYPED_TEST|BENCHMARK)\(", re.M)


def anonymous_blocks(lines):
    """(index of the line before, lines inside) of each column-0 anonymous namespace."""
    blocks, stack = [], []
    for i, line in enumerate(lines):
        if ANONYMOUS.match(line) or NAMED.match(line):
            stack.append((i, bool(ANONYMOUS.match(line))))
        elif CLOSING.match(line) and stack:
            start, anonymous = stack.pop()
            if anonymous:
                blocks.append((start, lines[start + 1:i]))
    return blocks


def previous_code_line(lines, i):
    """The nearest non-blank line before index `i` ("" when none)."""
    for j in range(i - 1, -1, -1):
        if lines[j].strip():
            return lines[j]
    return ""


def own_names(path):
    """The names a test source's own namespace may take: its file name without extension, or
    its folder's name, an underscore and that (when two folders hold one file name)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    return [stem, os.path.basename(os.path.dirname(path)) + "_" + stem]


def test_findings(path, code, owners):
    """A test source's anonymous namespaces not inside a namespace of its own; records the
    names it uses in `owners` (name -> paths)."""
    if re.search(r"^\s*int\s+main\s*\(", code, re.M):
        return []
    lines = code.split("\n")
    found = []
    for start, _ in anonymous_blocks(lines):
        outer = NAMED.match(previous_code_line(lines, start))
        if not outer or outer.group(1) not in own_names(path):
            found.append(f"{path}:{start + 1}: an anonymous namespace of a test not directly "
                         f"inside namespace {own_names(path)[0]} (unity batches share it)")
        else:
            owners[outer.group(1)].add(path)
    return found


def helper_names(code):
    """Names of the functions defined at column 0 in the anonymous namespaces of `code`."""
    names = set()
    for _, inside in anonymous_blocks(code.split("\n")):
        for m in FUNCTION.finditer("\n".join(inside)):
            if m.group(1) not in NOT_NAMES:
                names.add(m.group(1))
    return names


def findings(sources):
    """One line per breach of the two rules, over `sources`: (relative path, text) of every C++
    source, comments kept (a namespace's end is found by its `} // namespace` comment)."""
    found = []
    tests_seen = tests_with_blocks = 0
    owners = collections.defaultdict(set)
    helpers = collections.defaultdict(set)
    for path, code in sources:
        if not path.endswith(".cpp"):
            continue
        if path.startswith("tests" + os.sep) and TEST_CASE.search(code):
            found += test_findings(path, code, owners)
            tests_seen += 1
            tests_with_blocks += 1 if anonymous_blocks(code.split("\n")) else 0
            continue
        for name in helper_names(code):
            helpers[(os.path.dirname(path), name)].add(path)
    if tests_seen and not tests_with_blocks:
        # Guards the rule against text whose namespace comments were stripped (it saw nothing).
        found.append("no anonymous namespace found in any test source: were comments stripped?")
    for name, paths in sorted(owners.items()):
        if len(paths) > 1:
            found.append(f"test namespace {name} is used by {len(paths)} files: "
                         + ", ".join(sorted(paths)))
    for (_, name), paths in sorted(helpers.items()):
        if len(paths) > 1:
            found.append(f"helper {name}() is defined in the anonymous namespaces of "
                         + ", ".join(sorted(paths)) + " (one unity batch may join them)")
    return found


def self_test():
    """The rules find what they look for and pass what is right."""
    wrapped = ("namespace irf {\nnamespace a {\nnamespace {\nint f() { return 1; }\n"
               "TEST(A, B) {}\n} // namespace\n} // namespace a\n} // namespace irf\n")
    bare = ("namespace irf {\nnamespace {\nint f() { return 1; }\nTEST(A, B) {}\n"
            "} // namespace\n} // namespace irf\n")
    assert not findings([("tests/a.cpp", wrapped)]), "a wrapped test is flagged"
    stripped = wrapped.replace(" // namespace a", "").replace(" // namespace irf", "") \
        .replace(" // namespace", "")
    assert len(findings([("tests/a.cpp", stripped)])) == 1, "text without comments passes"
    assert len(findings([("tests/b.cpp", bare)])) == 1, "a bare anonymous namespace is missed"
    assert len(findings([("tests/a.cpp", wrapped), ("tests/x/a.cpp", wrapped)])) == 1, \
        "one test namespace in two files is missed"
    lib = "namespace irf {\nnamespace {\nstd::string why(const K& k) {\n}\n} // namespace\n}\n"
    assert len(findings([("tools/x/a.cpp", lib), ("tools/x/b.cpp", lib)])) == 1, \
        "one helper name in two files is missed"
    assert len(findings([("tests/s/a.cpp", lib), ("tests/s/b.cpp", lib)])) == 1, \
        "a test folder's support sources are not checked as a library's"
    assert not findings([("config/a.cpp", lib), ("tools/y/b.cpp", lib)]), \
        "two folders are two targets"
