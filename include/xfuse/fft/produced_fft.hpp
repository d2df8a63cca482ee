// SPDX-License-Identifier: Apache-2.0
// What fft, ifft, rfft and irfft of device operands return when xfuse has its own transform kernel
// (built with cuFFTDx: line_kernel.cuh): the transform described, a producer (exec/producer.hpp),
// computed by the end of the statement that calls it unless that statement takes it first:
//
//   out.assign(xf::rfft(x));                         // straight into out: one kernel
//   p.assign(xf::square(xf::abs(xf::fft(x))));       // the power spectrum in the transform's store
//   auto y = xf::irfft(xf::rfft(x) * H);             // the round trip: one kernel, the line on chip
//   auto s = xf::rfft(x);                            // computed at the `;`, then read as an array
//
// The kernel takes the transform when line_transform.hpp says it applies (a covered length, the
// last axis, an sm_90 device) and the destination has unit stride along the axis; otherwise the
// description is computed as before (cuFFT) and every use reads its result. An irfft whose operand
// is an expression of one rfft's spectrum (same axis and length, the spectrum's shape) runs both
// transforms in one kernel, the expression applied to the spectrum between them.
#pragma once

#include <memory>
#include <type_traits>

#include "../exec/epilogue.hpp"
#include "../exec/produced.hpp"
#include "../expr/zip.hpp"
#include "device_stage.hpp"

namespace xf::detail {

template <fft_kind Kind, class E>
struct produced_fft;

template <class P>
struct forward_real_fft_kind : std::false_type {};
template <class E>
struct forward_real_fft_kind<produced_fft<fft_kind::real_to_complex, E>> : std::true_type {};

template <fft_kind Kind, class E>
struct produced_fft : produced_result<produced_fft<Kind, E>> {
  using Real = fft_real_of<value_t<E>>;
  using value_type = std::conditional_t<Kind == fft_kind::complex_to_real, Real, complex<Real>>;
  using space = device;
  static constexpr int rank = rank_v<E>;
  using result_type = array<value_type, rank, device>;

  E expr;  // arrays are shared handles: the description keeps its inputs alive
  int axis;
  index_t n;  // the transform's length
  bool inverse;
  double scale;
  const char* name;
  std::shared_ptr<produced_state<result_type>> state = std::make_shared<produced_state<result_type>>();

  dims<rank> shape() const {
    auto s = expr.shape();
    s[axis] = Kind == fft_kind::real_to_complex ? n / 2 + 1 : n;
    return s;
  }
  // The result, in the line kernel when it applies, else on cuFFT (produced_result::eval).
  static constexpr bool xf_fresh_result = true;
  result_type compute_fresh() const {
    if (product(shape()) > 0 && line_transform_applies<Real, rank>(axis, n)) {  // else cuFFT makes its own result
      result_type out(shape());
      if (run_into(out, no_epilogue{}, name)) return out;
    }
    return fft_device_call<Kind, Real, rank, false>(expr, {axis}, {n}, inverse, scale, false);
  }

  // The producer protocol (exec/producer.hpp): e is this description or an expression using it.
  template <class T, int R, class S, class Consumer>
  bool xf_feed(const array<T, R, S>& dst, const Consumer& e, const char* op) const {
    if constexpr (!std::is_same_v<S, device> || R != rank || rank_v<Consumer> != rank || holds_pending_reduction<Consumer> ||
                  holds_pending_scan<Consumer>) {
      return false;
    } else {
      if (state->value || dst.size() == 0 || dst.shape() != shape() || e.shape() != shape()) return false;
      if (dst.device_id() != device::current_id() || dst.strides()[axis] != 1) return false;
      bool done = false;
      if constexpr (std::is_same_v<Consumer, produced_fft>) {
        if (e.state == state && std::is_same_v<T, value_type>) done = run_into(dst, no_epilogue{}, op);
      } else if (one_producer(e)) {
        const in_kernel_mark mark(*state, dst.device_id());
        if (!reads_written_memory(dst.data(), dst.shape(), dst.strides(), e))
          done = run_into(dst, make_row_epilogue(e, dst.shape(), axis, dst.strides(), dst.device_id(), op), op);
      }
      if (done) state->consumed = true;
      return done;
    }
  }

  // The transform into dst (the result's shape, unit stride along the axis), each output through
  // `store`; false, having run nothing, where the line kernel does not apply or the operand reads
  // what dst holds. (The store's own reads are the caller's to check.)
  template <class T, class Store>
  bool run_into(const array<T, rank, device>& dst, const Store& store, const char* op) const {
    // An irfft of an rfft's spectrum runs as one kernel or on cuFFT (one kernel set per statement).
    if constexpr (Kind == fft_kind::complex_to_real && holds_kind<forward_real_fft_kind, E>) {
      return round_trip(dst, store, op);
    } else {
      if (!line_transform_applies<Real, rank>(axis, n)) return false;
#if XF_CUDA_TU && defined(XFUSE_WITH_MATHDX)
      if (reads_written_memory(dst.data(), dst.shape(), dst.strides(), expr)) return false;
      run_line_fft<Kind, Real>(expr, axis, n, inverse, scale, dst, op, no_middle{}, 1.0, store);
      return true;
#else
      return false;
#endif
    }
  }

 private:
  // irfft of an expression of one rfft's spectrum: both transforms in one kernel.
  template <class T, class Store>
  bool round_trip(const array<T, rank, device>& dst, const Store& store, const char* op) const {
    bool done = false;
    for_each_producer(expr, [&](const auto& p) {
      using P = std::remove_cvref_t<decltype(p)>;
      if constexpr (forward_real_fft_kind<P>::value && rank_v<P> == rank) {
        if (done || p.state->value || p.axis != axis || p.n != n || expr.shape() != p.shape() || !one_producer(expr)) return;
        if (!line_transform_applies<Real, rank>(axis, n)) return;
#if XF_CUDA_TU && defined(XFUSE_WITH_MATHDX)
        const in_kernel_mark mark(*p.state, dst.device_id());
        const zipped<void, E, decltype(p.expr)> all(expr, p.expr);
        if (reads_written_memory(dst.data(), dst.shape(), dst.strides(), all)) return;
        const auto middle = make_row_epilogue(expr, expr.shape(), axis, dst.strides(), dst.device_id(), op);
        run_line_fft<fft_kind::real_to_complex, Real>(p.expr, axis, n, false, scale, dst, op, middle, p.scale, store);
        p.state->consumed = true;
        done = true;
#endif
      }
    });
    return done;
  }
};

// The description of a one-axis transform of a device operand, checked already, computed at the
// end of the caller's statement unless taken first.
template <fft_kind Kind, class E>
auto describe_fft(const statement_end& end, const E& e, const fft_request& req, bool inverse, double scale) {
  return end.bind(produced_fft<Kind, E>{{}, e, req.axes[0], req.lengths[0], inverse, scale, req.op});
}

}  // namespace xf::detail
