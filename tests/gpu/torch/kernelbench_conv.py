# SPDX-License-Identifier: Apache-2.0
"""KernelBench level-1 problems 54-87: convolutions, transposed, depthwise and pointwise.

Every convolution is built without bias, as the published problems construct theirs. `init` is
the published get_init_inputs() bound to the reference's parameter names.
"""
from kernelbench_spec import Problem, randn


def _conv(name, kernel=None):
    """A maker for torch.nn.<name>(in, out, kernel, **rest); `kernel` reshapes an int size."""

    def make(device, in_channels, out_channels, kernel_size, **rest):
        import torch

        size = kernel(kernel_size) if kernel else kernel_size
        return getattr(torch.nn, name)(in_channels, out_channels, size, bias=False,
                                       device=device, **rest)

    return make


def _transposed_3d_no_output_padding(device, in_channels, out_channels, kernel_size, stride,
                                     padding, output_padding):
    """Problem 73: its init list binds 4 (meant as groups) to output_padding, which the
    reference never passes on; the module it times is ungrouped, without output padding."""
    import torch

    return torch.nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride,
                                    padding=padding, groups=1, bias=False, device=device)


def _depthwise(kernel=None):
    """Conv2d with groups = channels = in_channels (problems 82 and 83)."""

    def make(device, in_channels, kernel_size, **rest):
        import torch

        size = kernel(kernel_size) if kernel else kernel_size
        return torch.nn.Conv2d(in_channels, in_channels, size, groups=in_channels, bias=False,
                               device=device, **rest)

    return make


def _depthwise_in_out(device, in_channels, out_channels, kernel_size, stride, padding):
    """Problem 84: groups = in_channels (out_channels equals it here)."""
    import torch

    return torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                           groups=in_channels, bias=False, device=device)


def _depthwise_hw(device, in_channels, out_channels, kernel_size_h, kernel_size_w, stride_h,
                  stride_w, padding_h, padding_w, dilation_h, dilation_w, groups):
    """Problem 85: the reference uses in_channels for outputs and groups, whatever is passed."""
    import torch

    return torch.nn.Conv2d(in_channels, in_channels, (kernel_size_h, kernel_size_w),
                           stride=(stride_h, stride_w), padding=(padding_h, padding_w),
                           dilation=(dilation_h, dilation_w), groups=in_channels, bias=False,
                           device=device)


def _separable(device, in_channels, out_channels, kernel_size, stride, padding, dilation):
    """Problem 86: a depthwise convolution, then a 1x1 one."""
    import torch

    depthwise = torch.nn.Conv2d(in_channels, in_channels, kernel_size, stride=stride,
                                padding=padding, dilation=dilation, groups=in_channels,
                                bias=False, device=device)
    pointwise = torch.nn.Conv2d(in_channels, out_channels, 1, bias=False, device=device)
    return torch.nn.Sequential(depthwise, pointwise)


def _pointwise(device, in_channels, out_channels):
    import torch

    return torch.nn.Conv2d(in_channels, out_channels, 1, bias=False, device=device)


def _io(in_channels, out_channels, kernel_size, **rest):
    return dict(in_channels=in_channels, out_channels=out_channels, kernel_size=kernel_size,
                **rest)


C1, C2, C3 = _conv("Conv1d"), _conv("Conv2d"), _conv("Conv3d")
T1, T2, T3 = _conv("ConvTranspose1d"), _conv("ConvTranspose2d"), _conv("ConvTranspose3d")
P = Problem

PROBLEMS = [
    P("54_conv_standard_3D__square_input__square_kernel", (randn(16, 3, 64, 64, 64),), C3,
      _io(3, 64, 3)),
    P("55_conv_standard_2D__asymmetric_input__square_kernel", (randn(16, 3, 128, 256),), C2,
      _io(3, 64, 3)),
    P("56_conv_standard_2D__asymmetric_input__asymmetric_kernel", (randn(16, 3, 256, 128),), C2,
      _io(3, 64, (3, 5))),
    P("57_conv_transposed_2D__square_input__square_kernel", (randn(16, 32, 128, 128),), T2,
      _io(32, 64, 3)),
    P("58_conv_transposed_3D__asymmetric_input__asymmetric_kernel",
      (randn(16, 32, 16, 32, 64),), T3, _io(32, 16, (3, 5, 7))),
    P("59_conv_standard_3D__asymmetric_input__square_kernel", (randn(16, 3, 256, 256, 10),),
      _conv("Conv3d", kernel=lambda k: (k, k, 1)), _io(3, 64, 3),
      note="kernel (k, k, 1), as the reference builds it"),
    P("60_conv_standard_3D__square_input__asymmetric_kernel", (randn(16, 3, 64, 64, 64),), C3,
      _io(3, 64, (3, 5, 7))),
    P("61_conv_transposed_3D__square_input__square_kernel", (randn(16, 3, 32, 32, 32),), T3,
      _io(3, 64, 3)),
    P("62_conv_standard_2D__square_input__asymmetric_kernel", (randn(16, 3, 256, 256),), C2,
      _io(3, 64, (3, 5))),
    P("63_conv_standard_2D__square_input__square_kernel", (randn(16, 3, 256, 256),), C2,
      _io(3, 64, 3)),
    P("64_conv_transposed_1D", (randn(16, 64, 128),), T1, _io(64, 3, 3)),
    P("65_conv_transposed_2D__square_input__asymmetric_kernel", (randn(16, 32, 128, 128),), T2,
      _io(32, 64, (3, 5))),
    P("66_conv_standard_3D__asymmetric_input__asymmetric_kernel", (randn(16, 3, 16, 256, 256),),
      C3, _io(3, 64, (3, 5, 7))),
    P("67_conv_standard_1D", (randn(16, 3, 512),), C1, _io(3, 64, 3)),
    P("68_conv_transposed_3D__square_input__asymmetric_kernel", (randn(16, 32, 64, 64, 64),),
      T3, _io(32, 64, (3, 5, 5))),
    P("69_conv_transposed_2D__asymmetric_input__asymmetric_kernel", (randn(16, 32, 16, 32),), T2,
      _io(32, 64, (3, 5))),
    P("70_conv_transposed_3D__asymmetric_input__square_kernel", (randn(16, 32, 16, 32, 64),), T3,
      _io(32, 16, 3)),
    P("71_conv_transposed_2D__asymmetric_input__square_kernel", (randn(16, 32, 128, 256),), T2,
      _io(32, 64, 3)),
    P("72_conv_transposed_3D_asymmetric_input_asymmetric_kernel___strided_padded_grouped_",
      (randn(16, 32, 16, 32, 64),), T3,
      _io(32, 64, (3, 5, 7), stride=(2, 2, 2), padding=(1, 2, 3), output_padding=(1, 1, 1),
          groups=4)),
    P("73_conv_transposed_3D_asymmetric_input_square_kernel__strided_padded__grouped",
      (randn(16, 32, 16, 32, 32),), _transposed_3d_no_output_padding,
      _io(32, 64, 3, stride=2, padding=3, output_padding=4),
      note="published init [32, 64, 3, 2, 3, 4] binds 4 to output_padding (unused): groups 1"),
    P("74_conv_transposed_1D_dilated", (randn(16, 3, 256),), T1,
      _io(3, 64, 5, stride=1, padding=0, dilation=3)),
    P("75_conv_transposed_2D_asymmetric_input_asymmetric_kernel_strided__grouped____padded____"
      "dilated__", (randn(16, 32, 128, 256),), T2,
      _io(32, 64, (3, 5), stride=(2, 3), padding=(1, 2), dilation=(2, 1), groups=4)),
    P("76_conv_standard_1D_dilated_strided__", (randn(16, 3, 256),), C1,
      _io(3, 64, 3, stride=3, dilation=4)),
    P("77_conv_transposed_3D_square_input_square_kernel___padded____dilated____strided__",
      (randn(16, 32, 16, 32, 32),), T3, _io(32, 64, 3, stride=2, padding=1, dilation=2)),
    P("78_conv_transposed_2D_asymmetric_input_asymmetric_kernel___padded__",
      (randn(16, 32, 128, 256),), T2, _io(32, 64, (3, 5), stride=(1, 1), padding=(1, 2))),
    P("79_conv_transposed_1D_asymmetric_input_square_kernel___padded____strided____dilated__",
      (randn(16, 32, 128),), T1, _io(32, 64, 3, stride=2, padding=1, dilation=2)),
    P("80_conv_standard_2D_square_input_asymmetric_kernel___dilated____padded__",
      (randn(16, 3, 256, 256),), C2,
      _io(3, 64, (3, 5), stride=1, padding=(1, 2), dilation=(2, 1))),
    P("81_conv_transposed_2D_asymmetric_input_square_kernel___dilated____padded____strided__",
      (randn(16, 32, 64, 128),), T2, _io(32, 64, 3, stride=5, padding=1, dilation=2)),
    P("82_conv_depthwise_2D_square_input_square_kernel", (randn(16, 3, 256, 256),), _depthwise(),
      {"in_channels": 3, "kernel_size": 3, "stride": 1, "padding": 0}),
    P("83_conv_depthwise_2D_square_input_asymmetric_kernel", (randn(16, 3, 256, 256),),
      _depthwise(kernel=lambda k: (k, 1)),
      {"in_channels": 3, "kernel_size": 3, "stride": 1, "padding": 0, "dilation": 1},
      note="kernel (k, 1), as the reference builds it"),
    P("84_conv_depthwise_2D_asymmetric_input_square_kernel", (randn(16, 3, 128, 256),),
      _depthwise_in_out, _io(3, 3, 3, stride=1, padding=0)),
    P("85_conv_depthwise_2D_asymmetric_input_asymmetric_kernel", (randn(16, 3, 128, 256),),
      _depthwise_hw,
      {"in_channels": 3, "out_channels": 3, "kernel_size_h": 3, "kernel_size_w": 5,
       "stride_h": 1, "stride_w": 1, "padding_h": 0, "padding_w": 0, "dilation_h": 1,
       "dilation_w": 1, "groups": 3}),
    P("86_conv_depthwise_separable_2D", (randn(16, 3, 256, 256),), _separable,
      _io(3, 64, 3, stride=1, padding=0, dilation=1)),
    P("87_conv_pointwise_2D", (randn(16, 3, 256, 256),), _pointwise,
      {"in_channels": 3, "out_channels": 64}),
]
