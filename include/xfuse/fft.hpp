// SPDX-License-Identifier: Apache-2.0
// Fourier transforms (numpy.fft / cupy.fft) and scipy.signal.fftconvolve on host and device
// arrays: CMake target xfuse::fft (cuFFT, and NVRTC for the optional LTO callbacks).
//
//   auto spectrum = xf::rfft(x);            // np.fft.rfft(x): cuFFT on the current stream
//   auto y = xf::irfft(xf::rfft(x) * H);    // the product written by one kernel as cuFFT's input
//   xf::array<double, 1> f = xf::fftfreq(n, 1.0 / rate);
//
// With cuFFTDx (XFUSE_WITH_MATHDX, the nvidia-mathdx package) covered one-axis transforms run in
// xfuse's own kernel, fused with their operand and consumer (fft/line_kernel.cuh).
// fft/transforms.hpp: the transforms; fft/frequencies.hpp: fftfreq, rfftfreq, fftshift, ifftshift;
// fft/plan_cache.hpp: cuFFT plans kept per (device, thread), xf::fft_plan_cache(); fft/convolve.hpp:
// xf::fftconvolve.
#pragma once

#include "core.hpp"
#include "complex.hpp"
#include "fft/frequencies.hpp"
#include "fft/convolve.hpp"
#include "fft/transforms.hpp"
