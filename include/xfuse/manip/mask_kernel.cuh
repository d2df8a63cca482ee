// SPDX-License-Identifier: Apache-2.0
// The device side of a(mask) (manip/mask.hpp): cub::DeviceSelect::Flagged over a's contiguous
// values, its flags the mask expression evaluated as CUB reads them (one mask element for every
// `row_length` values: a mask of a's leading axes picks whole sub-arrays). One pass over the
// values and the mask, no flag array.
#pragma once

#include "../scan.hpp"

#if XF_CUDA_TU
#include <cub/device/device_select.cuh>

#include "../exec/index_iterator.hpp"

namespace xf::detail {

// A plan's element as it is: the mask read through a scan plan's flat walk (C order).
template <class V>
struct read_as {
  using acc_type = V;
  using out_type = V;
  template <class In>
  XF_HD XF_FORCEINLINE V map(const In& v, index_t) const {
    return convert<V>(v);
  }
};

// Flag i of the values: mask element i / row_length.
template <class Plan>
struct flag_of_value {
  flat_input_of<Plan> mask;
  fast_divmod row_length;
  __device__ XF_FORCEINLINE bool operator()(index_t i) const { return mask(row_length.div(i)); }
};

template <class T, class M>
void select_flagged_device(const T* values, const M& mask, index_t row_length, index_t total, T* out, const char* op) {
  const auto p = make_scan_plan(mask, -1, read_as<bool>{}, static_cast<bool*>(nullptr), c_strides(mask.shape()));
  const int cur = device::current_id();
  require_leaf_access(p, mask, cur, op);
  flat_input_of<std::remove_cvref_t<decltype(p)>> element{p, {}};
  index_t unused;
  layout_positions(p.kept, false, 0, element.kept_pos, unused);
  const auto flags = make_index_iterator(flag_of_value<std::remove_cvref_t<decltype(p)>>{element, fast_divmod(row_length)});
  const cudaStream_t stream = current_slot(cur).handle;
  const buffer selected = allocate_device(sizeof(std::int64_t));  // CUB's count: known already
  temp_storage().run([&](void* temp, std::size_t& bytes) {
    return cub::DeviceSelect::Flagged(temp, bytes, values, flags, out, static_cast<std::int64_t*>(selected.get()), total, stream);
  });
}

}  // namespace xf::detail
#endif
