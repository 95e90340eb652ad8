// SPDX-License-Identifier: Apache-2.0
// The host of the test programs' precompiled header (tests/CMakeLists.txt): no tests of its own.
