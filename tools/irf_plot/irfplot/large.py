# SPDX-License-Identifier: Apache-2.0
"""Large analysed profiles (issue #34 item 4; docs/tools.md, "irf-plot"): irf-plot draws at most
20 kernels, yet reading a profile of 100,000 kernels whole took Python 48 s and 3.7 GB. A file of
at least LARGE_BYTES laid out as irf-report writes it (two-space indentation, one member per
line, sorted keys) is read in two steps instead: every kernel for the few values that choose the
drawn ones (name, total time, its shared-memory wall's bank-conflict ways), then the header and
the drawn kernels in full, parsed and checked as a whole file is. Anything laid out otherwise,
or odd in any way, gives None, and the caller reads the file whole (with its one-line errors)."""
import json
import mmap
import os
import re
import stat

from irf import SCHEMA, ProfileError
from irf.reader import MAX_DEPTH, MAX_PROFILE_BYTES, _finite_float, parse_json, printable

LARGE_BYTES = 64 << 20

KERNELS_OPEN = b'\n  "kernels": [\n    {'
KERNEL_CLOSE = b"\n    }"
KERNELS_END = b"\n  ]"
# Where a kernel ends: the next one opens, or the array closes (kernels sit at 4 spaces).
BOUNDARY = re.compile(rb"\n    \}(,\n    \{|\n  \])")
STRING = re.compile(rb'("(?:[^"\\\n]|\\.)*"),?\n')  # a string member's value, to its line end
_numbers = {}


def member_span(data, key, indent, start, end, last=False):
    """(first, last) offsets of the object value of `key`, a member at `indent` spaces within
    data[start:end], without its braces (first == last for `{}`); None when the member is
    absent or not an object. `last`: searched from the end (a member late in its object)."""
    pad = b"\n" + b" " * indent
    member = pad + b'"' + key + b'": {'
    at = data.rfind(member, start, end) if last else data.find(member, start, end)
    if at < 0:
        return None
    body = at + len(member)
    if data[body:body + 1] == b"}":
        return body, body
    close = data.find(pad + b"}", body, end)
    return None if close < 0 else (body, close)


def member_number(data, key, indent, span):
    """The number of `key` at `indent` spaces within `span` as json reads it (int or float);
    None for null or absence."""
    pattern = _numbers.get((key, indent))
    if pattern is None:
        pattern = re.compile(rb"\n" + b" " * indent + b'"' + key
                             + rb'": (-?[0-9][0-9.eE+-]*|null),?\n')
        _numbers[(key, indent)] = pattern
    m = pattern.search(data, span[0], span[1] + 1)  # the newline that closes the object
    if m is None or m.group(1) == b"null":
        return None
    text = m.group(1)
    whole = b"." not in text and b"e" not in text and b"E" not in text  # json reads an int
    return int(text) if whole else _finite_float(text.decode("ascii"))


def member_string(data, key, start, end):
    """The string value of the kernel member `key` in data[start:end]; None when absent or
    not a string (searched from the end: `name` and `display_name` come late)."""
    at = data.rfind(b'\n      "' + key + b'": "', start, end)
    m = None if at < 0 else STRING.match(data, at + len(key) + 11, end + 1)
    if m is None:
        return None
    literal = m.group(1)
    return (literal[1:-1].decode("utf-8") if b"\\" not in literal
            else json.loads(literal.decode("utf-8")))


def light_fields(data, start, end):
    """The choosing values of the kernel whose members are data[start:end] (its name, display
    name, total time and shared wall), or None. Keys are sorted: `analysis` comes first, the
    names and `time_ns` late, `walls` late in `analysis`, so each is searched from the nearer
    end (only `analysis` has an object member named `walls` at 8 spaces)."""
    name = member_string(data, b"name", start, end)
    if name is None:
        return None
    fields = {"name": name}
    display = member_string(data, b"display_name", start, end)
    if display is not None:
        fields["display_name"] = display
    time_ns = member_span(data, b"time_ns", 6, start, end, last=True)
    if time_ns is not None:
        fields["time_ns"] = {"total": member_number(data, b"total", 8, time_ns)}
    opening = b'\n      "analysis": {'
    if data[start:start + len(opening)] == opening:
        walls = member_span(data, b"walls", 8, start, end, last=True)
        shared = None if walls is None else member_span(data, b"shared", 10, *walls)
        if shared is not None:
            shared = ({"conflict_ways": member_number(data, b"conflict_ways", 12, shared)}
                      if shared[1] > shared[0] else {})
        fields["analysis"] = {"walls": {"shared": shared}}
    return fields


class LightKernel(dict):
    """A kernel as far as choosing it needs (name, display_name, time_ns.total and
    analysis.walls.shared); full() is the whole kernel record, parsed when it is drawn. Made
    without a Python __init__: a profile has 100,000 of them."""
    __slots__ = ("index", "source", "cached")  # its place in `kernels`; (file, span); full()

    def full(self, shown):
        """The record; ProfileError ("<shown>: kernels[i]: ...") when it is not valid JSON."""
        if getattr(self, "cached", None) is None:
            data, (first, last) = self.source
            text = b"{" + data[first:last] + KERNEL_CLOSE
            where = f"{shown}: kernels[{self.index}]"
            self.cached = parse_json(text, where, MAX_DEPTH - 2)  # kernels[i] is two deep
        return self.cached


def mapped(path):
    """The regular file `path` mapped read-only when it is large and within the size limit,
    else None (the whole read then refuses or reads it)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not LARGE_BYTES <= info.st_size <= MAX_PROFILE_BYTES:
            return None
        return mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)


def kernel_spans(data, first):
    """([(first, last) of each kernel's members], the offset just after the array), found in
    one pass from the opening of the first kernel; None when the array does not close as
    irf-report closes it."""
    spans = []
    for m in BOUNDARY.finditer(data, first):
        spans.append((first, m.start()))
        if m.group(1) == KERNELS_END:
            return spans, m.end()
        first = m.end()
    return None


def load_large(path):
    """The analysed profile at `path` with LightKernel records, or None when the two-step read
    does not apply (a small file, another layout, anything odd)."""
    data = mapped(path)
    if data is None:
        return None
    start = data.find(KERNELS_OPEN)
    found = None if start < 0 else kernel_spans(data, start + len(KERNELS_OPEN))
    if found is None:
        return None
    spans, close = found
    member = b'\n  "kernels": '
    if member in data[:start] or data.find(member, close) >= 0:
        return None  # "kernels" twice: a whole read keeps the last one
    shown = printable(path)
    try:
        header = parse_json(data[:start] + b'\n  "kernels": []' + data[close:], shown)
        kernels = []
        for i, span in enumerate(spans):
            fields = light_fields(data, *span)
            if fields is None:
                return None
            kernel = LightKernel(fields)
            kernel.index, kernel.source = i, (data, span)
            kernels.append(kernel)
    except (ProfileError, ValueError):  # UnicodeDecodeError among them
        return None  # the whole read says exactly what is wrong
    if not isinstance(header, dict) or header.get("schema") != SCHEMA \
            or header.get("kernels") != []:
        return None
    header["kernels"] = kernels
    return header
