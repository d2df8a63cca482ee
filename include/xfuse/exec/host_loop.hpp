// SPDX-License-Identifier: Apache-2.0
// Host evaluation of a fused plan: the same evaluator functor as the kernel, walked with an
// odometer over the collapsed dimensions (innermost loop contiguous where the layout is).
#pragma once

#include "plan.hpp"
#include "point.hpp"

namespace xf::detail {

template <class Plan>
void run_host(const Plan& p) {
  constexpr int L = Plan::L;
  constexpr int MR = layout<Plan::rank, L>::max_rank;
  const auto& lay = p.lay;
  if (lay.size == 0) return;
  index_t idx[MR] = {};
  index_t row[L > 0 ? L : 1] = {};
  for (int k = 0; k < L; ++k) row[k] = lay.base[k];
  index_t out_row = lay.out_base;
  const index_t inner = lay.extent[0];
  const index_t rows = lay.size / inner;
  constexpr auto seq = std::make_integer_sequence<int, L>{};
  for (index_t r = 0; r < rows; ++r) {
    index_t pos[L > 0 ? L : 1];
    for (int k = 0; k < L; ++k) pos[k] = row[k];
    index_t o = out_row;
    for (index_t i = 0; i < inner; ++i) {
      p.out[o] = value_at_positions(p.fn, p.leaves, pos, seq);
      for (int k = 0; k < L; ++k) pos[k] += lay.stride[k][0];
      o += lay.out_stride[0];
    }
    for (int d = 1; d < lay.rank; ++d) {  // next row: odometer over the outer dimensions
      for (int k = 0; k < L; ++k) row[k] += lay.stride[k][d];
      out_row += lay.out_stride[d];
      if (++idx[d] < lay.extent[d]) break;
      for (int k = 0; k < L; ++k) row[k] -= lay.extent[d] * lay.stride[k][d];
      out_row -= lay.extent[d] * lay.out_stride[d];
      idx[d] = 0;
    }
  }
}

}  // namespace xf::detail
