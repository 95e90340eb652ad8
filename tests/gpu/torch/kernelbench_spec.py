# SPDX-License-Identifier: Apache-2.0
"""The vocabulary of the KernelBench level-1 table (issue 57): input specs, problems, builders.

Importable without torch: the table (kernelbench_ops.PROBLEMS) is plain data that CI checks; torch
is imported only when a problem is built. Inputs are drawn on the target device from a seeded
generator (values differ from KernelBench's CPU draws after seed 42; shapes, dtypes and value kinds
match, and none of these operators' run time depends on the values beyond those kinds).
"""
from dataclasses import dataclass, field

DTYPES = ("float32", "int64", "bool")
FILLS = ("randn", "randint", "scalar")
# Post-draw transforms the published get_inputs() applies to one tensor.
PREPS = ("", "symmetric", "triu", "tril", "softmax_last", "plus_minus_one")


@dataclass(frozen=True)
class Input:
    """One forward() argument: a tensor drawn by `fill` (randn, randint in [0, high)), or a scalar.

    `dtype` is the tensor's type as the operator receives it, after `prep`.
    """

    shape: tuple = ()
    dtype: str = "float32"
    fill: str = "randn"
    high: int = 0
    value: float = 0.0
    prep: str = ""


@dataclass(frozen=True)
class Problem:
    """A level-1 problem: its stem, forward() inputs, published init arguments and a module maker.

    `make(device, **init)` returns the callable the problem times (an nn.Module or a function).
    `note` records where our operator follows the published code's actual behaviour over its name.
    """

    stem: str
    inputs: tuple
    make: object
    init: dict = field(default_factory=dict)
    note: str = ""


def scalar(value):
    """A Python float argument (KernelBench passes it as is, not as a tensor)."""
    return Input(fill="scalar", value=value)


def randn(*shape, prep=""):
    """A float32 tensor of standard normal values, optionally transformed by `prep`."""
    return Input(shape=tuple(shape), prep=prep)


def randint(*shape, high, dtype="int64", prep=""):
    """Integers uniform in [0, high), transformed by `prep`, as `dtype` (int64, bool, float32)."""
    return Input(shape=tuple(shape), dtype=dtype, fill="randint", high=high, prep=prep)


def element_count(spec):
    """Elements of one input (1 for a scalar)."""
    count = 1
    for extent in spec.shape:
        count *= extent
    return count


def _prepare(torch, tensor, prep):
    if prep == "symmetric":
        return (tensor + tensor.T) / 2
    if prep == "triu":
        return torch.triu(tensor)
    if prep == "tril":
        return torch.tril(tensor)
    if prep == "softmax_last":
        return tensor.softmax(dim=-1)
    if prep == "plus_minus_one":
        return tensor.float() * 2 - 1
    return tensor


def make_input(torch, spec, device, generator):
    """One input on `device`, drawn from `generator`."""
    if spec.fill == "scalar":
        return spec.value
    if spec.fill == "randn":
        tensor = torch.randn(spec.shape, generator=generator, device=device, dtype=torch.float32)
    else:
        tensor = torch.randint(0, spec.high, spec.shape, generator=generator, device=device,
                               dtype=torch.int64)
    dtype = {"float32": torch.float32, "int64": torch.int64, "bool": torch.bool}[spec.dtype]
    return _prepare(torch, tensor, spec.prep).to(dtype)


def build(problem, device="cuda", seed=42):
    """(callable, inputs) for `problem` on `device`; parameters and inputs seeded by `seed`."""
    import torch

    torch.manual_seed(seed)
    if str(device).startswith("cuda"):
        torch.cuda.manual_seed(seed)
    generator = torch.Generator(device=device)
    generator.manual_seed(seed)
    inputs = [make_input(torch, spec, device, generator) for spec in problem.inputs]
    return problem.make(device, **problem.init), inputs
