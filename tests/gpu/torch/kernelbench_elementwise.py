# SPDX-License-Identifier: Apache-2.0
"""KernelBench level-1 problems 19-32 and 88: activations and other elementwise operators."""
import math

from kernelbench_spec import Problem, randn


def _torch_fn(name):
    """A maker returning torch.<name> (looked up when built, so this module needs no torch)."""

    def make(device):
        import torch

        return getattr(torch, name)

    return make


def _functional(name, **kwargs):
    """A maker returning x -> torch.nn.functional.<name>(x, **kwargs)."""

    def make(device):
        import torch.nn.functional as F

        fn = getattr(F, name)
        return lambda x: fn(x, **kwargs)

    return make


def _softmax(device):
    import torch

    return lambda x: torch.softmax(x, dim=1)


def _log_softmax(device, dim=1):
    import torch

    return lambda x: torch.log_softmax(x, dim=dim)


def _swish(device):
    import torch

    return lambda x: x * torch.sigmoid(x)


def _softsign(device):
    import torch

    return lambda x: x / (1 + torch.abs(x))


def _elu(device, alpha):
    import torch.nn.functional as F

    return lambda x: F.elu(x, alpha=alpha)


def _tanh_gelu(device):
    """GELU's tanh approximation written out op by op, as the published problem 88 computes it."""
    import torch

    root = math.sqrt(2.0 / math.pi)
    return lambda x: 0.5 * x * (1.0 + torch.tanh(root * (x + 0.044715 * torch.pow(x, 3.0))))


def _row(stem, make, init=None):
    """Problems 19-32 all take one 16 x 16384 float32 tensor."""
    return Problem(stem, (randn(16, 16384),), make, init or {})


PROBLEMS = [
    _row("19_ReLU", _torch_fn("relu")),
    _row("20_LeakyReLU", _functional("leaky_relu", negative_slope=0.01)),
    _row("21_Sigmoid", _torch_fn("sigmoid")),
    _row("22_Tanh", _torch_fn("tanh")),
    _row("23_Softmax", _softmax),
    _row("24_LogSoftmax", _log_softmax),
    _row("25_Swish", _swish),
    _row("26_GELU_", _functional("gelu")),
    _row("27_SELU_", _torch_fn("selu")),
    _row("28_HardSigmoid", _functional("hardsigmoid")),
    _row("29_Softplus", _functional("softplus")),
    _row("30_Softsign", _softsign),
    _row("31_ELU", _elu, {"alpha": 1.0}),
    _row("32_HardTanh", _functional("hardtanh", min_val=-1.0, max_val=1.0)),
    Problem("88_MinGPTNewGelu", (randn(2000, 2000),), _tanh_gelu),
]
