// SPDX-License-Identifier: Apache-2.0
// Random draws recorded in a graph (xf::capture): a replay draws what its statements would draw
// if they ran at launch, and advances the generator as they would. The recording keeps, per
// generator, a device word pair that each launch sets to the generator's count of draws then
// (graph::launch); a recorded draw's number is its place among the recording's draws plus that
// count.
#pragma once

#include <cstdint>
#include <string>

#include "../base/capture_state.hpp"
#include "../base/memory.hpp"
#include "philox.hpp"

namespace xf::detail {

// The entry of the generator whose count is `*generator_draws`, made on its first draw: the device
// count and the two memset nodes that write it, added after the work recorded so far.
inline recorded_draws& draws_of(capture_state& c, std::uint64_t* generator_draws) {
  for (recorded_draws& d : c.draws)
    if (d.generator_draws == generator_draws) return d;
  recorded_draws d;
  d.generator_draws = generator_draws;
  d.start = allocate_device(sizeof(std::uint64_t));  // kept by the graph
  cudaStreamCaptureStatus status{};
  cudaGraph_t g = nullptr;
  const cudaGraphNode_t* after = nullptr;
  std::size_t count = 0;
  XF_CUDA_CHECK(cudaStreamGetCaptureInfo(c.stream, &status, nullptr, &g, &after, nullptr, &count));
  const cudaMemsetParams low = d.start_word(false, 0), high = d.start_word(true, 0);
  XF_CUDA_CHECK(cudaGraphAddMemsetNode(&d.start_low, g, after, count, &low));
  XF_CUDA_CHECK(cudaGraphAddMemsetNode(&d.start_high, g, &d.start_low, 1, &high));
  XF_CUDA_CHECK(cudaStreamUpdateCaptureDependencies(c.stream, &d.start_high, nullptr, 1, cudaStreamSetCaptureDependencies));
  c.draws.push_back(std::move(d));
  return c.draws.back();
}

// The key of a draw recorded from the generator (seed, *generator_draws).
inline philox_key recorded_key(capture_state& c, std::uint64_t seed, std::uint64_t* generator_draws) {
  if (c.conditional_depth > 0)
    throw error("xf::random cannot draw inside the body of xf::while_ or xf::if_ in xf::capture: every pass of the loop "
                "would draw the same numbers (the capture is discarded; draw before the loop, or into an array the loop "
                "reads)");
  recorded_draws& d = draws_of(c, generator_draws);
  const std::uint64_t place = d.count++;
  return {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), static_cast<std::uint32_t>(place),
          static_cast<std::uint32_t>(place >> 32), static_cast<const std::uint64_t*>(d.start.get())};
}

}  // namespace xf::detail
