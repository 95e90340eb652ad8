# SPDX-License-Identifier: Apache-2.0
"""Reads a JSON file the way irf-report does: a regular file of at most 1 GiB, valid UTF-8 JSON
of bounded depth. Every failure is a ProfileError whose message is one printable line."""
import json
import os
import stat

# The same limit as irf-report's profile loader (docs/reliability.md, "huge files").
MAX_PROFILE_BYTES = 1 << 30
# An irf profile nests about six levels (kernels[].analysis.projection[].time_ns.point);
# deeper documents are refused before anything recursive (json.dumps, the figures) sees them.
MAX_DEPTH = 64
MAX_SHOWN = 200


class ProfileError(ValueError):
    """Bad input: the message names the file and what is wrong, on one line."""


def printable(text, limit=MAX_SHOWN):
    """`text` with control characters escaped and at most `limit` characters, for one line."""
    text = str(text)
    if len(text) > limit:
        text = text[: limit - 1] + "\u2026"
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def size_text(limit):
    """A size limit as people write it: "1 GiB", "4 MiB", "4096 bytes" (as irf-report)."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= size and limit % size == 0:
            return f"{limit // size} {unit}"
    return f"{limit} bytes"


def read_bytes(path, limit=MAX_PROFILE_BYTES):
    """The content of the regular file `path`; refuses FIFOs, devices, directories (opened
    without blocking, so a FIFO cannot hang us) and anything over `limit` bytes."""
    shown = printable(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError) as e:
        raise ProfileError(f"{shown}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    # fstat before fdopen: fdopen raises IsADirectoryError on a directory (a traceback before).
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise ProfileError(f"{shown}: cannot read: {kind}")
    with os.fdopen(fd, "rb") as f:
        if info.st_size > limit:
            raise ProfileError(f"{shown}: cannot read: larger than {size_text(limit)}")
        try:
            data = f.read(limit + 1)
        except OSError as e:
            raise ProfileError(f"{shown}: cannot read: {e.strerror}") from None
        except MemoryError:
            raise ProfileError(f"{shown}: cannot read: out of memory") from None
    if len(data) > limit:
        raise ProfileError(f"{shown}: cannot read: larger than {size_text(limit)}")
    return data


def depth_exceeds(doc, limit):
    """True when `doc` nests containers more than `limit` deep (iterative: no recursion)."""
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > limit:
                return True
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return False


def _refuse_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text):
    """A JSON number as float; 1e400 would be inf, which irf-report refuses as out of range."""
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"number {text[:40]} is out of range")
    return value


def parse_json(data, shown, depth=MAX_DEPTH):
    """The JSON document in the bytes `data` (from the file `shown`), nested at most `depth`
    deep; ProfileError with read_json's one-line messages otherwise."""
    try:
        doc = json.loads(data.decode("utf-8"), parse_constant=_refuse_constant,
                         parse_float=_finite_float)
    except UnicodeDecodeError as e:
        raise ProfileError(f"{shown}: not valid UTF-8 at byte {e.start}") from None
    except RecursionError:
        raise ProfileError(f"{shown}: not valid JSON: nested more than {MAX_DEPTH} deep") from None
    except MemoryError:
        raise ProfileError(f"{shown}: cannot read: out of memory") from None
    except ValueError as e:  # JSONDecodeError, NaN/Infinity, integers too long to convert
        raise ProfileError(f"{shown}: not valid JSON: {printable(e, 120)}") from None
    try:
        too_deep = depth_exceeds(doc, depth)
    except MemoryError:
        raise ProfileError(f"{shown}: cannot read: out of memory") from None
    if too_deep:
        raise ProfileError(f"{shown}: not valid JSON: nested more than {MAX_DEPTH} deep")
    return doc


def read_json(path):
    """The JSON document in the file `path`."""
    return parse_json(read_bytes(path), printable(path))
