# SPDX-License-Identifier: Apache-2.0
"""KernelBench level-1 problems 1-18: matrix products (our operators, the published shapes)."""
from kernelbench_spec import Problem, randn, scalar


def _matmul(device):
    import torch

    return torch.matmul


def _bmm(device):
    import torch

    return torch.bmm


def _scale(device):
    return lambda a, s: a * s


def _einsum_4d(device):
    import torch

    return lambda a, b: torch.einsum("bijl,lk->bijk", a, b)


def _diag_matmul(device):
    import torch

    return lambda a, b: torch.diag(a) @ b


def _triu_matmul(device):
    import torch

    return lambda a, b: torch.triu(torch.matmul(a, b))


def _tril_matmul(device):
    import torch

    return lambda a, b: torch.tril(torch.matmul(a, b))


def _matmul_at(device):
    import torch

    return lambda a, b: torch.matmul(a.T, b)


def _matmul_bt(device):
    import torch

    return lambda a, b: torch.matmul(a, b.T)


def _matmul_atbt(device):
    import torch

    return lambda a, b: torch.matmul(a.T, b.T)


PROBLEMS = [
    Problem("1_Square_matrix_multiplication_", (randn(2048, 2048), randn(2048, 2048)), _matmul),
    Problem("2_Standard_matrix_multiplication_", (randn(1024, 4096), randn(4096, 2048)), _matmul),
    Problem("3_Batched_matrix_multiplication", (randn(128, 128, 256), randn(128, 256, 512)), _bmm),
    Problem("4_Matrix_vector_multiplication_", (randn(256, 131072), randn(131072, 1)), _matmul),
    Problem("5_Matrix_scalar_multiplication", (randn(16384, 4096), scalar(3.14)), _scale),
    Problem("6_Matmul_with_large_K_dimension_", (randn(256, 131072), randn(131072, 256)),
            _matmul),
    Problem("7_Matmul_with_small_K_dimension_", (randn(16384, 32), randn(32, 16384)), _matmul),
    Problem("8_Matmul_with_irregular_shapes_", (randn(8205, 2949), randn(2949, 5921)), _matmul),
    Problem("9_Tall_skinny_matrix_multiplication_", (randn(16384, 16), randn(16, 16384)),
            _matmul),
    Problem("10_3D_tensor_matrix_multiplication", (randn(16, 1024, 2048), randn(2048, 768)),
            _matmul),
    Problem("11_4D_tensor_matrix_multiplication", (randn(16, 256, 512, 256), randn(256, 768)),
            _einsum_4d),
    Problem("12_Matmul_with_diagonal_matrices_", (randn(4096), randn(4096, 4096)), _diag_matmul),
    Problem("13_Matmul_for_symmetric_matrices",
            (randn(4096, 4096, prep="symmetric"), randn(4096, 4096, prep="symmetric")), _matmul),
    Problem("14_Matmul_for_upper_triangular_matrices",
            (randn(4096, 4096, prep="triu"), randn(4096, 4096, prep="triu")), _triu_matmul),
    Problem("15_Matmul_for_lower_triangular_matrices",
            (randn(4096, 4096, prep="tril"), randn(4096, 4096, prep="tril")), _tril_matmul),
    Problem("16_Matmul_with_transposed_A", (randn(4096, 1024), randn(4096, 2048)), _matmul_at),
    Problem("17_Matmul_with_transposed_B", (randn(1024, 4096), randn(2048, 4096)), _matmul_bt),
    Problem("18_Matmul_with_transposed_both", (randn(4096, 1024), randn(2048, 4096)),
            _matmul_atbt),
]
