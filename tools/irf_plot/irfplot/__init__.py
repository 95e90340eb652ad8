# SPDX-License-Identifier: Apache-2.0
"""irf-plot: figures of irf profiles (Instruction Roofline, memory walls, FLOP roofline,
projection) drawn with matplotlib."""
