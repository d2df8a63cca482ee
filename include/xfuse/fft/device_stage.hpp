// SPDX-License-Identifier: Apache-2.0
// One cuFFT call over up to three distinct axes of a device array or expression: where the input
// is read from (the array itself, when cuFFT's advanced layout can read it and nothing about it
// changes; otherwise one fused pass that casts, pads or truncates, scales and reorders it into a
// contiguous block, the transformed axes last), where the output goes (C order when cuFFT can
// write it so, else the transformed axes last, returned as a view in the input's axis order, as
// numpy.fft returns for axes other than the last), and the cached plan that joins them.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "../exec/as_array.hpp"
#include "../manip/views.hpp"
#include "callback_arguments.cuh"
#include "geometry.hpp"
#include "line_transform.hpp"
#include "load_callback.hpp"
#include "lto_compile.hpp"
#include "plan_cache.hpp"

namespace xf::detail {

template <class T>
using fft_real_of = std::conditional_t<std::is_same_v<real_t<T>, float> || is_low_precision<real_t<T>>, float, double>;
// numpy.fft's result type: complex64 for float32 (and half) inputs, complex128 for the rest.
template <class T>
using fft_complex_of = complex<fft_real_of<T>>;

template <class Real>
cufftType cufft_type_of(fft_kind kind) {
  constexpr bool single = std::is_same_v<Real, float>;
  switch (kind) {
    case fft_kind::real_to_complex: return single ? CUFFT_R2C : CUFFT_D2Z;
    case fft_kind::complex_to_real: return single ? CUFFT_C2R : CUFFT_Z2D;
    default: return single ? CUFFT_C2C : CUFFT_Z2Z;
  }
}

// The axes of one call: the others in order, then the transformed ones in the order given.
template <int R>
struct fft_order {
  dims<R> perm{}, inverse{};
  int rank = 0;
  fft_order(const std::vector<int>& axes) : rank(static_cast<int>(axes.size())) {
    int at = 0;
    for (int d = 0; d < R; ++d)
      if (std::find(axes.begin(), axes.end(), d) == axes.end()) perm[at++] = d;
    for (int a : axes) perm[at++] = a;
    for (int d = 0; d < R; ++d) inverse[perm[d]] = d;
  }
  dims<R> apply(const dims<R>& v) const {
    dims<R> out{};
    for (int d = 0; d < R; ++d) out[d] = v[perm[d]];
    return out;
  }
};

// The extents the input must have along the call's axes (the output's for complex_to_real:
// n // 2 + 1 points are read along the last axis).
template <int R>
dims<R> fft_input_extents(dims<R> shape, fft_kind kind, const std::vector<int>& axes, const std::vector<index_t>& lengths) {
  for (std::size_t i = 0; i < axes.size(); ++i)
    shape[axes[i]] = (kind == fft_kind::complex_to_real && i + 1 == axes.size()) ? lengths[i] / 2 + 1 : lengths[i];
  return shape;
}
template <int R>
dims<R> fft_output_extents(dims<R> shape, fft_kind kind, const std::vector<int>& axes, const std::vector<index_t>& lengths) {
  for (std::size_t i = 0; i < axes.size(); ++i)
    shape[axes[i]] = (kind == fft_kind::real_to_complex && i + 1 == axes.size()) ? lengths[i] / 2 + 1 : lengths[i];
  return shape;
}

// `src` (an array or an expression) cast to In, scaled, zero-padded or truncated to `need`, in a
// new contiguous block whose transformed axes come last; returned as a view in src's axis order.
template <class In, int R, class Src>
array<In, R, device> fft_staged_copy(const Src& src, const dims<R>& need, const fft_order<R>& order, double scale) {
  array<In, R, device> block(order.apply(need));
  const array<In, R, device> whole_block = block.transpose(order.inverse);
  array<In, R, device> region = whole_block;
  const auto have = src.shape();
  bool pads = false, truncates = false;
  for (int d = 0; d < R; ++d) {
    pads = pads || have[d] < need[d];
    truncates = truncates || have[d] > need[d];
  }
  if (block.size() == 0) return whole_block;
  if (pads) XF_CUDA_CHECK(cudaMemsetAsync(block.data(), 0, block.nbytes(), current_stream().handle()));
  for (int d = 0; d < R; ++d)
    if (have[d] < need[d]) region = axis_slice(region, d, 0, have[d]);
  auto write = [&](const auto& source) {
    if (scale == 1.0) region.assign(source.template astype<In>());
    else region.assign(source.template astype<In>() * static_cast<real_t<In>>(scale));
  };
  if (!truncates) {
    write(src);
  } else {
    auto whole = as_array(src);
    for (int d = 0; d < R; ++d)
      if (have[d] > need[d]) whole = axis_slice(whole, d, 0, need[d]);
    write(whole);
  }
  return whole_block;
}

// The layout cuFFT reads `a` with, its transformed axes `order` puts last, if it can. cuFFT reads
// real data as pairs, so the first element must sit on a complex boundary (x[1:] of doubles does not).
template <class T, int R>
std::optional<fft_layout> fft_layout_of(const array<T, R, device>& a, const fft_order<R>& order) {
  if (reinterpret_cast<std::uintptr_t>(a.data()) % sizeof(complex<real_t<T>>) != 0) return std::nullopt;
  return advanced_layout(order.apply(a.shape()), order.apply(a.strides()), order.rank);
}

// The output of a call: C order when cuFFT can write it so (e.g. a transform along axis 0 of a
// matrix), else contiguous with the transformed axes last, seen in the input's axis order. Pool
// memory is aligned, so only the strides decide.
template <class Out, int R>
std::pair<array<Out, R, device>, fft_layout> fft_output_block(const dims<R>& shape, const fft_order<R>& order) {
  if (auto l = advanced_layout(order.apply(shape), order.apply(c_strides(shape)), order.rank)) return {array<Out, R, device>(shape), *l};
  const array<Out, R, device> block(order.apply(shape));
  const array<Out, R, device> view = block.transpose(order.inverse);
  return {view, *advanced_layout(order.apply(view.shape()), order.apply(view.strides()), order.rank)};
}

template <fft_kind Kind, class Real>
using fft_input_t = std::conditional_t<Kind == fft_kind::real_to_complex, Real, complex<Real>>;
template <fft_kind Kind, class Real>
using fft_output_t = std::conditional_t<Kind == fft_kind::complex_to_real, Real, complex<Real>>;

// The load callback's source for `src` read as the input block of a call (order.apply(need)
// extents, C order): coordinates from the offset, zeros past src's extents, the expression, the scale.
template <class In, int R, class Src>
std::string fft_load_source(const Src& src, const fft_order<R>& order, const dims<R>& need, double scale,
                            std::vector<const void*>& pointers) {
  const dims<R> block = order.apply(need);
  const dims<R> have = src.shape();
  fft_source_builder b;
  std::string head = "  unsigned long long rest = offset;\n";
  for (int j = R - 1; j >= 0; --j) {
    const std::string c = "c" + std::to_string(order.perm[j]);
    if (j > 0) {
      head += "  const long long " + c + " = (long long)(rest % " + std::to_string(block[j]) + "ull);\n";
      head += "  rest /= " + std::to_string(block[j]) + "ull;\n";
    } else {
      head += "  const long long " + c + " = (long long)rest;\n";
    }
  }
  std::string outside;
  for (int d = 0; d < R; ++d)
    if (have[d] < need[d]) outside += std::string(outside.empty() ? "" : " || ") + "c" + std::to_string(d) + " >= " + std::to_string(have[d]);
  const auto position = [](const index_t* strides) {
    std::string p;
    for (int d = 0; d < R; ++d)
      if (strides[d] != 0) p += std::string(p.empty() ? "" : " + ") + "c" + std::to_string(d) + " * " + std::to_string(strides[d]) + "ll";
    return p.empty() ? std::string("0") : p;
  };
  const std::string value = fft_convert<value_t<Src>, In>(fft_emit<R>(as_operand(src), src.shape(), b, position));
  constexpr bool single = std::is_same_v<real_t<In>, float>;
  const std::string s = fft_literal(scale, single);
  std::string result;
  if constexpr (is_complex<In>) {
    const char* make = single ? "make_float2" : "make_double2";
    result = scale == 1.0 ? value : std::string(make) + "(" + value + ".x * " + s + ", " + value + ".y * " + s + ")";
  } else {
    result = scale == 1.0 ? value : "(" + value + " * " + s + ")";
  }
  const std::string type = fft_source_name<In>();
  const std::string zero = is_complex<In> ? std::string(single ? "make_float2(0, 0)" : "make_double2(0, 0)") : "0";
  pointers = std::move(b.pointers);
  return "__device__ " + type + " xf_load(void* dataIn, unsigned long long offset, void* info, void* shared) {\n" +
         "  const void* const* leaves = (const void* const*)info;\n" + head +
         (outside.empty() ? "" : "  if (" + outside + ") return " + zero + ";\n") + b.body + "  return " + result + ";\n}\n";
}

// The callback reads the leaves directly: they must be memory of the current device.
template <class Src>
bool leaves_on_current_device(const Src& src) {
  const int dev = device::current_id();
  bool here = true;
  for_each_memory_record(src, [&](const auto& rec) { here = here && rec.device == dev; });
  return here;
}

template <class Src>
constexpr bool pointers_fit() {
  return leaf_count_of<Src> <= fft_max_leaves;
}

template <fft_kind Kind, class Real>
cufftXtCallbackType fft_load_callback_type() {
  constexpr bool single = std::is_same_v<Real, float>;
  if constexpr (Kind == fft_kind::real_to_complex) return single ? CUFFT_CB_LD_REAL : CUFFT_CB_LD_REAL_DOUBLE;
  else return single ? CUFFT_CB_LD_COMPLEX : CUFFT_CB_LD_COMPLEX_DOUBLE;
}

// The call with `src` (an expression, or an array cuFFT cannot read as it is) evaluated in cuFFT's
// loads (load_callback.hpp). cuFFT still takes an input
// buffer (a complex-to-real plan uses it as scratch): one from the pool, never read or written by us.
template <fft_kind Kind, class Real, int R, class Src>
array<fft_output_t<Kind, Real>, R, device> fft_device_call_fused(const Src& src, const fft_order<R>& order, const dims<R>& need,
                                                                const dims<R>& out_shape, const std::vector<index_t>& lengths,
                                                                bool inverse, double scale) {
  using In = fft_input_t<Kind, Real>;
  using Out = fft_output_t<Kind, Real>;
  std::vector<const void*> pointers;
  const std::string source = fft_load_source<In, R>(src, order, need, scale, pointers);
  fft_leaf_pointers values{};
  values.count = static_cast<int>(pointers.size());
  for (std::size_t k = 0; k < pointers.size(); ++k) values.pointer[k] = pointers[k];
  const dims<R> block = order.apply(need);
  long long n[3];
  for (int j = 0; j < order.rank; ++j) n[j] = block[R - order.rank + j];
  long long batch = 1;
  for (int j = 0; j < R - order.rank; ++j) batch *= block[j];
  auto [out, out_layout] = fft_output_block<Out, R>(out_shape, order);
  fft_plan_key key{cufft_type_of<Real>(Kind), contiguous_layout(n, order.rank, batch), out_layout, current_stream().handle(),
                   capture_serial(), source};
  if constexpr (Kind == fft_kind::complex_to_real) key.in.n[order.rank - 1] = lengths.back();
  key.out.n[order.rank - 1] = key.in.n[order.rank - 1];
  const int dev = device::current_id();
  const auto plan = plan_for(dev, key, [&](cufftHandle handle, fft_plan& p) {
    p.callback_code = lto_ir_of(source, dev);
    void* block_pointer = nullptr;
    XF_CUDA_CHECK(cudaMalloc(&block_pointer, sizeof(void*) * fft_max_leaves));
    p.callback_arguments = buffer::owning(block_pointer, [](void* q) { XF_CUDA_CHECK_NOTHROW(cudaFree(q)); });
    void* info[1] = {block_pointer};
#if XF_FFT_LTO_CALLBACKS
    check_cufft(cufftXtSetJITCallback(handle, "xf_load", p.callback_code->data(), p.callback_code->size(),
                                      fft_load_callback_type<Kind, Real>(), info),
                "cufftXtSetJITCallback");
#else
    (void)handle;
    (void)info;
    throw error("xf::fft: cuFFT's LTO callbacks need CUDA 13 (cuFFT 12.0) or newer");
#endif
  });
  write_leaf_pointers(plan->callback_arguments.get(), values, key.stream);
  const array<In, R, device> scratch(block);  // cuFFT's input buffer; the callback reads the operands
  execute_plan(*plan, scratch.data(), out.data(), inverse ? CUFFT_INVERSE : CUFFT_FORWARD);
  return out;
}

// One cuFFT call of `Kind` over `axes` (distinct, at most 3) with `lengths`; the input `src` (an
// array or expression) times `scale`, which is applied to the input when it is copied anyway and
// to the output otherwise (the transform is linear). `scratch_input`: src is a temporary the
// caller gives up (complex_to_real overwrites its input, so anything else is copied first).
// Lines: whether a call that line_transform.hpp covers runs in xfuse's own kernel (false where the
// caller knows it does not apply, so that its kernels are not instantiated).
template <fft_kind Kind, class Real, int R, bool Lines = true, class Src>
array<fft_output_t<Kind, Real>, R, device> fft_device_call(const Src& src, const std::vector<int>& axes,
                                                          const std::vector<index_t>& lengths, bool inverse, double scale,
                                                          bool scratch_input) {
  using In = fft_input_t<Kind, Real>;
  using Out = fft_output_t<Kind, Real>;
  const fft_order<R> order(axes);
  const dims<R> need = fft_input_extents<R>(src.shape(), Kind, axes, lengths);
  const dims<R> out_shape = fft_output_extents<R>(src.shape(), Kind, axes, lengths);
  if (product(out_shape) == 0) return array<Out, R, device>(out_shape);
#if XF_CUDA_TU && defined(XFUSE_WITH_MATHDX)
  // One axis of a covered length: one kernel of xfuse's own reads src and writes the result.
  if (Lines && axes.size() == 1 && line_transform_applies<Real, R>(axes[0], lengths[0])) {
    array<Out, R, device> out(out_shape);
    if constexpr (Lines) run_line_fft<Kind, Real>(src, axes[0], lengths[0], inverse, scale, out, "xf::fft");
    return out;
  }
#endif

  // Read in place when cuFFT can and nothing needs changing; else evaluate in cuFFT's loads
  // (callbacks on) or copy (cast, pad, scale, reorder) into a block cuFFT reads.
  array<In, R, device> input;
  std::optional<fft_layout> in_layout;
  bool scaled = false;
  if constexpr (std::is_same_v<Src, array<In, R, device>>) {
    const bool may_overwrite = Kind != fft_kind::complex_to_real || scratch_input;
    if (src.shape() == need && may_overwrite && src.device_id() == device::current_id()) {
      in_layout = fft_layout_of<In, R>(src, order);
      if (in_layout) input = src;
    }
  }
  if constexpr (fft_source_expr<Src>) {
    if (XF_FFT_LTO_CALLBACKS && !in_layout && fft_callbacks() && pointers_fit<Src>() && leaves_on_current_device(src))
      return fft_device_call_fused<Kind, Real, R>(src, order, need, out_shape, lengths, inverse, scale);
  }
  if (!in_layout) {
    input = fft_staged_copy<In, R>(src, need, order, scale);
    in_layout = fft_layout_of<In, R>(input, order);
    scaled = true;
  }
  auto [out, out_layout] = fft_output_block<Out, R>(out_shape, order);
  // cuFFT describes a real-to-complex (complex-to-real) plan by its real side's lengths.
  fft_plan_key key{cufft_type_of<Real>(Kind), *in_layout, out_layout, current_stream().handle(), capture_serial(), {}};
  if constexpr (Kind == fft_kind::complex_to_real) {
    key.in.n[order.rank - 1] = lengths.back();
    key.out.n[order.rank - 1] = lengths.back();
  } else {
    key.out.n[order.rank - 1] = key.in.n[order.rank - 1];
  }
  const auto plan = plan_for(device::current_id(), key, [](cufftHandle, fft_plan&) {});
  execute_plan(*plan, const_cast<In*>(input.data()), out.data(), inverse ? CUFFT_INVERSE : CUFFT_FORWARD);
  if (!scaled && scale != 1.0) out.assign(out * static_cast<Real>(scale));
  return out;
}

}  // namespace xf::detail
