# SPDX-License-Identifier: Apache-2.0
"""KernelBench level-1 problems 89-100: scans along a dimension and loss functions."""
from kernelbench_spec import Problem, randint, randn

SCAN = (128, 4000)  # problems 89-93
LOSS = (128, 4096)  # problems 94, 96-99


def _cumsum(device, dim):
    import torch

    return lambda x: torch.cumsum(x, dim=dim)


def _cumprod(device, dim):
    import torch

    return lambda x: torch.cumprod(x, dim=dim)


def _cumsum_reverse(device, dim):
    import torch

    return lambda x: torch.cumsum(x.flip(dim), dim=dim).flip(dim)


def _cumsum_exclusive(device, dim):
    """A zero slice prepended along `dim`, then the published `[:-1]`, which drops the last entry
    of dim 0 (not of `dim`): the output is 127 x 4001, as the reference's is."""
    import torch

    def run(x):
        zeros = torch.zeros_like(x.select(dim, 0).unsqueeze(dim))
        return torch.cumsum(torch.cat((zeros, x), dim=dim)[:-1], dim=dim)

    return run


def _masked_cumsum(device, dim):
    import torch

    return lambda x, mask: torch.cumsum(x * mask, dim=dim)


def _mse(device):
    import torch

    return lambda p, t: torch.mean((p - t) ** 2)


def _cross_entropy(device):
    import torch.nn.functional as F

    return F.cross_entropy


def _huber(device):
    import torch.nn.functional as F

    return F.smooth_l1_loss


def _cosine(device):
    import torch
    import torch.nn.functional as F

    return lambda p, t: torch.mean(1 - F.cosine_similarity(p, t, dim=1))


def _kl_div(device):
    import torch
    import torch.nn.functional as F

    return lambda p, t: F.kl_div(torch.log(p), t, reduction="batchmean")


def _triplet(device, margin):
    import torch

    return torch.nn.TripletMarginLoss(margin=margin)


def _hinge(device):
    import torch

    return lambda p, t: torch.mean(torch.clamp(1 - p * t, min=0))


PROBLEMS = [
    Problem("89_cumsum", (randn(*SCAN),), _cumsum, {"dim": 1}),
    Problem("90_cumprod", (randn(*SCAN),), _cumprod, {"dim": 1}),
    Problem("91_cumsum_reverse", (randn(*SCAN),), _cumsum_reverse, {"dim": 1}),
    Problem("92_cumsum_exclusive", (randn(*SCAN),), _cumsum_exclusive, {"dim": 1},
            note="published [:-1] slices dim 0: output 127 x 4001"),
    Problem("93_masked_cumsum", (randn(*SCAN), randint(*SCAN, high=2, dtype="bool")),
            _masked_cumsum, {"dim": 1}),
    Problem("94_MSELoss", (randn(*LOSS), randn(*LOSS)), _mse),
    Problem("95_CrossEntropyLoss", (randn(4096, 10), randint(4096, high=10)), _cross_entropy),
    Problem("96_HuberLoss", (randn(*LOSS), randn(*LOSS)), _huber),
    Problem("97_CosineSimilarityLoss", (randn(*LOSS), randn(*LOSS)), _cosine),
    Problem("98_KLDivLoss", (randn(*LOSS, prep="softmax_last"), randn(*LOSS, prep="softmax_last")),
            _kl_div),
    Problem("99_TripletMarginLoss", (randn(*LOSS), randn(*LOSS), randn(*LOSS)), _triplet,
            {"margin": 1.0}),
    Problem("100_HingeLoss", (randn(128, 1), randint(128, 1, high=2, dtype="float32",
                                             prep="plus_minus_one")),
            _hinge),
]
