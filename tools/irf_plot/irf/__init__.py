# SPDX-License-Identifier: Apache-2.0
"""irf: read irf profiles from Python.

    import irf
    profile = irf.load("run.json")        # the irf.profile/v1 document (a dict)
    profile.kernels                       # list of kernel dicts
    profile.kernels_frame()               # pandas DataFrame, one row per kernel (needs pandas)
    profile.regions_frame()               # pandas DataFrame, one row per NVTX region

Without pandas the lists and `kernel_rows()` / `region_rows()` (flat dicts) still work; the
*_frame() accessors raise PandasMissing with a one-line explanation."""
from irf.reader import MAX_PROFILE_BYTES, ProfileError, printable, read_json

__all__ = ["load", "Profile", "ProfileError", "PandasMissing", "SCHEMA", "MAX_PROFILE_BYTES",
           "KERNEL_COLUMNS"]

SCHEMA = "irf.profile/v1"


class PandasMissing(ImportError):
    """A DataFrame accessor was called but pandas cannot be imported."""


def flatten(record, prefix=""):
    """{"time_ns": {"total": 1}} -> {"time_ns.total": 1}; lists stay as they are."""
    flat = {}
    for key, value in record.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(flatten(value, name + "."))
        else:
            flat[name] = value
    return flat


# kernels_frame()'s columns, the same for every profile (docs/tools.md, "irf.load"), so a
# notebook written for one profile runs on the next: NaN where a profile has no such value (an
# import without time, a timing-only kernel). kernel_rows() keeps every key.
KERNEL_COLUMNS = (
    "name", "launch.grid", "launch.block", "launches", "profiled_launches",
    "time_ns.total", "time_ns.mean", "time_ns.min", "time_ns.max",
    "analysis.irm.gips_warp", "analysis.irm.gips_thread",
    "analysis.irm.ii.l1", "analysis.irm.ii.l2", "analysis.irm.ii.hbm",
    "analysis.irm.bound", "analysis.irm.roofline_pct",
    "analysis.walls.global.intensity", "analysis.walls.global.pattern",
    "analysis.walls.shared.intensity", "analysis.walls.shared.conflict_ways",
    "analysis.predication",
    "analysis.flops.gflops", "analysis.flops.fp64", "analysis.flops.fp32",
    "analysis.flops.fp16", "analysis.flops.tensor",
)


def _data_frame(rows, frame, rows_name, columns=None):
    try:
        import pandas
    except ImportError:
        raise PandasMissing(f"{frame}() needs pandas, which this Python cannot import "
                            f"(apt-get install python3-pandas); {rows_name}() gives the same "
                            "rows as a list of dicts") from None
    if columns is None:
        return pandas.DataFrame(rows)
    nan = float("nan")
    table = [[nan if row.get(c) is None else row[c] for c in columns] for row in rows]
    return pandas.DataFrame(table, columns=list(columns))


class Profile(dict):
    """An irf.profile/v1 document: a dict with accessors for its kernels and regions."""

    @property
    def kernels(self):
        """The kernel records (list of dicts, as in the JSON)."""
        return self.get("kernels") or []

    @property
    def regions(self):
        """The NVTX region records (empty when the profile has none)."""
        return self.get("regions") or []

    def kernel_rows(self):
        """One flat dict per kernel: "name", "time_ns.total", "analysis.irm.gips_warp", ..."""
        return [flatten(k) for k in self.kernels if isinstance(k, dict)]

    def region_rows(self):
        """One flat dict per region: "path", "time_ns", "launches", ..."""
        return [flatten(r) for r in self.regions if isinstance(r, dict)]

    def kernels_frame(self):
        """kernel_rows() as a pandas DataFrame with the columns of KERNEL_COLUMNS, in that order,
        whatever the profile holds (NaN where a kernel has no such value)."""
        return _data_frame(self.kernel_rows(), "kernels_frame", "kernel_rows", KERNEL_COLUMNS)

    def regions_frame(self):
        """region_rows() as a pandas DataFrame."""
        return _data_frame(self.region_rows(), "regions_frame", "region_rows")


def load(path):
    """The irf profile at `path` (raw or analysed). Raises ProfileError, whose message is one
    line naming the file, for anything that is not an irf.profile/v1 JSON document."""
    doc = read_json(path)
    shown = printable(path)
    if not isinstance(doc, dict):
        raise ProfileError(f"{shown}: expected a JSON object at the top level")
    if doc.get("schema") != SCHEMA:
        raise ProfileError(f"{shown}: schema: {printable(repr(doc.get('schema')), 80)} "
                           f"is not \"{SCHEMA}\"")
    for key in ("kernels", "regions"):
        if not isinstance(doc.get(key, []), list):
            raise ProfileError(f"{shown}: {key}: expected an array")
    return Profile(doc)
