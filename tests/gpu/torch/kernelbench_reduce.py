# SPDX-License-Identifier: Apache-2.0
"""KernelBench level-1 problems 33-53: normalisations, pooling and reductions over a dimension.

Modules stay in their default training mode, as the published timing left them: BatchNorm uses
the batch's statistics and updates its running ones on every call.
"""
from kernelbench_spec import Problem, randn

NCHW = (16, 64, 256, 256)  # problems 33-40


def _batch_norm(device, num_features):
    import torch

    return torch.nn.BatchNorm2d(num_features, device=device)


def _instance_norm(device, num_features):
    import torch

    return torch.nn.InstanceNorm2d(num_features, device=device)


def _group_norm(device, num_features, num_groups):
    import torch

    return torch.nn.GroupNorm(num_groups, num_features, device=device)


def _layer_norm(device, normalized_shape):
    import torch

    return torch.nn.LayerNorm(normalized_shape, device=device)


def _rms_norm(device, num_features, eps=1e-5):
    import torch

    return lambda x: x / torch.sqrt(torch.mean(x**2, dim=1, keepdim=True) + eps)


def _frobenius(device):
    import torch

    return lambda x: x / torch.norm(x, p="fro")


def _l1(device):
    import torch

    return lambda x: x / torch.sum(torch.abs(x), dim=1, keepdim=True)


def _l2(device):
    import torch

    return lambda x: x / torch.norm(x, p=2, dim=1, keepdim=True)


def _pool(name):
    """A maker for torch.nn.<name> with the problem's init arguments (pools have no parameters)."""

    def make(device, **init):
        import torch

        return getattr(torch.nn, name)(**init)

    return make


def _reduce(name, keepdim=None, first=False):
    """x -> torch.<name>(x, dim) (or its values, element 0, for max and min)."""

    def make(device, dim):
        import torch

        fn = getattr(torch, name)
        extra = {} if keepdim is None else {"keepdim": keepdim}
        if first:
            return lambda x: fn(x, dim=dim, **extra)[0]
        return lambda x: fn(x, dim=dim, **extra)

    return make


def _bhw(stem, make):
    """Problems 47-53: one 16 x 256 x 256 tensor reduced over dim 1."""
    return Problem(stem, (randn(16, 256, 256),), make, {"dim": 1})


PROBLEMS = [
    Problem("33_BatchNorm", (randn(*NCHW),), _batch_norm, {"num_features": 64}),
    Problem("34_InstanceNorm", (randn(*NCHW),), _instance_norm, {"num_features": 64}),
    Problem("35_GroupNorm_", (randn(*NCHW),), _group_norm, {"num_features": 64, "num_groups": 8}),
    Problem("36_RMSNorm_", (randn(*NCHW),), _rms_norm, {"num_features": 64}),
    Problem("37_FrobeniusNorm_", (randn(*NCHW),), _frobenius),
    Problem("38_L1Norm_", (randn(16, 16384),), _l1),
    Problem("39_L2Norm_", (randn(16, 16384),), _l2),
    Problem("40_LayerNorm", (randn(*NCHW),), _layer_norm, {"normalized_shape": (64, 256, 256)}),
    Problem("41_Max_Pooling_1D", (randn(16, 64, 128),), _pool("MaxPool1d"),
            {"kernel_size": 4, "stride": 2, "padding": 2, "dilation": 3,
             "return_indices": False}),
    Problem("42_Max_Pooling_2D", (randn(16, 32, 128, 128),), _pool("MaxPool2d"),
            {"kernel_size": 2, "stride": 2, "padding": 1, "dilation": 3}),
    Problem("43_Max_Pooling_3D", (randn(16, 32, 64, 64, 64),), _pool("MaxPool3d"),
            {"kernel_size": 3, "stride": 2, "padding": 1, "dilation": 3}),
    Problem("44_Average_Pooling_1D", (randn(16, 32, 128),), _pool("AvgPool1d"),
            {"kernel_size": 4, "stride": 2, "padding": 1}),
    Problem("45_Average_Pooling_2D", (randn(16, 64, 256, 256),), _pool("AvgPool2d"),
            {"kernel_size": 3}),
    Problem("46_Average_Pooling_3D", (randn(16, 32, 64, 64, 64),), _pool("AvgPool3d"),
            {"kernel_size": 3, "stride": 2, "padding": 1}),
    _bhw("47_Sum_reduction_over_a_dimension", _reduce("sum", keepdim=True)),
    _bhw("48_Mean_reduction_over_a_dimension", _reduce("mean")),
    _bhw("49_Max_reduction_over_a_dimension", _reduce("max", first=True)),
    _bhw("50_Product_reduction_over_a_dimension", _reduce("prod")),
    _bhw("51_Argmax_over_a_dimension", _reduce("argmax")),
    _bhw("52_Argmin_over_a_dimension", _reduce("argmin")),
    _bhw("53_Min_reduction_over_a_dimension", _reduce("min", first=True)),
]
