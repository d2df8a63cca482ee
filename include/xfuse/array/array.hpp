// SPDX-License-Identifier: Apache-2.0
// xf::array<T, R, Space>: a shared handle to N-d data with static element type and rank, dynamic
// extents and strides (in elements; negative and zero allowed). Copying the handle shares the
// buffer (like cupy.ndarray); views share it and keep it alive; .copy() copies the data.
//
// Assignment follows Python: `a = expr` rebinds `a` to a new result, while `a.assign(expr)`,
// `a(...) = expr` (assigning to a temporary view) and `a += expr` write into a's memory.
#pragma once

#include <string>
#include <type_traits>
#include <utility>

#include "../base/convert.hpp"
#include "../base/memory.hpp"
#include "../expr/ops.hpp"
#include "slice.hpp"

namespace xf {

template <element T, int R, class Space = device>
class array;

namespace detail {

// Implemented in exec/evaluate.hpp.
template <class T, int R, class Space, class E>
void evaluate_into(array<T, R, Space>& dst, const E& e, const char* op);
template <class T, int R, class Space, class E>
void assign_into(const array<T, R, Space>& dst, const E& e, const char* op);
// Implemented in array/transfer.hpp.
template <class T, int R, class Space>
T read_item(const array<T, R, Space>& a);
template <class T, int R>
array<T, R, host> host_copy(const array<T, R, device>& a);
template <class T, int R>
array<T, R, device> copy_to_device(const array<T, R, device>& a, int target);

template <class T>
constexpr int kind_rank() {
  if constexpr (is_bool<T>) return 0;
  else if constexpr (is_integer<T>) return 1;
  else if constexpr (is_floating<T>) return 2;
  else return 3;
}
// NumPy's "same_kind" casting: implicit conversions never go down a kind (float to int, ...).
template <class From, class To>
inline constexpr bool same_kind_castable = kind_rank<From>() <= kind_rank<To>();

template <class Space>
inline constexpr bool is_space = std::is_same_v<Space, device> || std::is_same_v<Space, host>;

// An expression whose value a library call makes into an array of its own (xf::matmul's lazy
// product): materialising it runs that call into the new array, not a copy kernel, and assigning
// it may let the call write straight into the destination (GEMM's beta).
template <class E>
concept deferred = requires(const E& e) { e.xf_materialize(); };

// A bool operand that can index an array of rank R (a(mask), array/masked.hpp): rank 1 to R.
template <class M, int R>
concept boolean_mask = expression<M> && std::is_same_v<value_t<M>, bool> && rank_v<M> >= 1 && rank_v<M> <= R;
template <class T, int R, class S, class M>
class masked;

// An integer array as an index (a(idx), a(xf::all, idx): array/indexed.hpp), and an argument
// list of basic indices with exactly one of them.
template <class A>
inline constexpr bool is_index_array = false;
template <class I, int RI, class S>
inline constexpr bool is_index_array<array<I, RI, S>> = is_integer<I>;
template <class... A>
concept one_index_array = ((index_arg<A> || is_index_array<std::remove_cvref_t<A>>) && ...) &&
                          (0 + ... + (is_index_array<std::remove_cvref_t<A>> ? 1 : 0)) == 1;
// The basic index in the index array's place: its axis kept whole.
template <class A>
auto basic_part(const A& a) {
  if constexpr (is_index_array<A>) return xf::all_t{};
  else return a;
}
// The index array among the arguments.
template <class A, class... Rest>
const auto& index_array_of(const A& a, const Rest&... rest) {
  if constexpr (is_index_array<A>) return a;
  else return index_array_of(rest...);
}
// The axis of the basic view that the index array indexes: the axes kept before it.
template <class... A>
constexpr int index_array_axis() {
  int axis = 0;
  bool found = false;
  ((found = found || is_index_array<A>, axis += found ? 0 : keeps_axis<A>), ...);
  return axis;
}
// NumPy counts integers as index arrays too when one is present: when an integer and the index
// array are apart (a slice or newaxis between them, a[0, :, idx]), the indexed axes go first.
template <class... A>
constexpr bool index_axes_first() {
  constexpr bool integer[] = {std::integral<A>..., false};
  constexpr bool array[] = {is_index_array<A>..., false};
  constexpr int n = sizeof...(A);
  int at = 0;
  while (at < n && !array[at]) ++at;
  for (int q = 0; q < n; ++q) {
    if (!integer[q]) continue;
    const int lo = q < at ? q : at, hi = q < at ? at : q;
    for (int k = lo + 1; k < hi; ++k)
      if (!integer[k]) return true;
  }
  return false;
}
template <class T, int R, class S, class I, int RI>
class indexed;

}  // namespace detail

template <element V, int R, class Space>
class array {
  static_assert(R >= 0, "xf::array: the rank cannot be negative");
  static_assert(detail::is_space<Space>, "xf::array: the space is xf::device or xf::host");
  static_assert(!is_low_precision<V> || detail::low_precision_ops<V>::available,
                "xf::array of xf::half or xf::bfloat16 needs #include <xfuse/half.hpp> (or <xfuse/xfuse.hpp>)");

 public:
  using xf_expression_tag = void;
  using value_type = V;
  using space = Space;
  static constexpr int rank = R;
  static constexpr int leaf_count = 1;
  using shape_type = dims<R>;

  // An empty handle: no buffer, every extent 0.
  array() = default;

  // Uninitialised memory of the given shape, in the space's memory (device: the current device,
  // ordered on the current stream), like xf::empty.
  explicit array(const shape_type& shape)
      : shape_(shape), strides_(detail::checked_c_strides(shape, sizeof(V), "xf::array")) {
    const std::size_t bytes = static_cast<std::size_t>(size()) * sizeof(V);
    try {
      if constexpr (std::is_same_v<Space, device>) {
        device_ = device::current_id();
        buffer_ = detail::allocate_device(bytes);
      } else {
        buffer_ = detail::allocate_host(bytes);
      }
    } catch (const out_of_memory& e) {  // say what the memory was for
      throw out_of_memory(e.what() + (" for an array of shape " + to_string(shape) + " of " + dtype_name()),
                          e.requested_bytes(), e.used_bytes(), e.total_bytes(), e.limit_bytes(), e.device());
    }
    data_ = static_cast<V*>(buffer_.get());
  }
  explicit array(const index_t (&shape)[R > 0 ? R : 1])
    requires(R > 0)
      : array(to_dims(shape)) {}

  // Materialises an expression: one kernel, one allocation (device), or one host loop.
  template <expression E>
    requires(!std::is_same_v<std::remove_cvref_t<E>, array>)
  array(const E& e) {  // NOLINT: implicit, like `z = x + y` in NumPy
    check_convertible<E>();
    static_assert(rank_v<E> == R, "xf::array: the expression's rank differs from the array's");
    if constexpr (detail::deferred<E> && std::is_same_v<value_t<E>, V>) {
      *this = e.xf_materialize();
    } else {
      *this = array(e.shape());
      detail::evaluate_into(*this, e, "xf::array");
    }
  }

  array(const array&) = default;
  array(array&&) noexcept = default;

  // Rebinding (Python's `a = b`): the handle now shares b's buffer.
  array& operator=(const array&) & = default;
  array& operator=(array&&) & noexcept = default;
  // Rebinding to the result of an expression.
  template <expression E>
    requires(!std::is_same_v<std::remove_cvref_t<E>, array>)
  array& operator=(const E& e) & {
    return *this = array(e);
  }

  // Writing into a temporary view (`a(slice(1, _)) = b`) is in place, like NumPy's a[1:] = b.
  const array& operator=(const array& e) && { return assign(e); }
  template <class E>
    requires operand<E>
  const array& operator=(const E& e) && {
    return assign(e);
  }

  // Writes the (broadcast) right side into this array's memory. Correct when the right side
  // reads memory this array writes: the result is NumPy's.
  template <class E>
    requires operand<E>
  const array& assign(const E& e) const {
    if constexpr (expression<E>) {
      check_convertible<E>();
      static_assert(rank_v<E> <= R, "xf::array::assign: the right side has a higher rank than the array");
      if constexpr (detail::deferred<E> && std::is_same_v<value_t<E>, V>) e.xf_assign_into(*this);
      else detail::assign_into(*this, e, "xf::array::assign");
    } else {
      detail::assign_into(*this, detail::scalar_node<E>(e), "xf::array::assign");
    }
    return *this;
  }

  // `c += xf::matmul(a, b)` goes through the product's own operator+, which makes it one GEMM
  // with beta = 1 into c's memory.
#define XF_COMPOUND(SYMBOL, BINARY, OP)                                    \
  template <class E>                                                       \
    requires operand<E>                                                    \
  const array& operator SYMBOL(const E& e) const {                         \
    if constexpr (detail::deferred<E>) return assign(*this BINARY e);      \
    detail::assign_into(*this, detail::make_node(detail::ops::OP{}, *this, e), "xf::array::operator" #SYMBOL); \
    return *this;                                                          \
  }
  XF_COMPOUND(+=, +, add)
  XF_COMPOUND(-=, -, subtract)
  XF_COMPOUND(*=, *, multiply)
  XF_COMPOUND(/=, /, divide)
#undef XF_COMPOUND

  // ---------------------------------------------------------------- properties
  const shape_type& shape() const noexcept { return shape_; }
  index_t shape(int axis) const { return shape_[normalize_axis(axis, "xf::array::shape")]; }
  const shape_type& strides() const noexcept { return strides_; }
  index_t size() const noexcept { return detail::product(shape_); }
  std::size_t nbytes() const noexcept { return static_cast<std::size_t>(size()) * sizeof(V); }
  static constexpr int ndim() noexcept { return R; }
  static constexpr std::size_t itemsize() noexcept { return sizeof(V); }
  static constexpr const char* dtype_name() noexcept { return xf::dtype_name<V>; }
  // Elements between the start of the buffer and this array's first element.
  index_t offset() const noexcept {
    return buffer_ ? static_cast<index_t>(data_ - static_cast<V*>(buffer_.get())) : 0;
  }
  V* data() const noexcept { return data_; }
  bool is_contiguous() const noexcept { return detail::is_c_contiguous(shape_, strides_); }
  bool empty() const noexcept { return size() == 0; }
  // Owning device (-1 for host arrays).
  int device_id() const noexcept { return device_; }
  // The shared block of memory under this array (and every view of it).
  const detail::buffer& buffer() const noexcept { return buffer_; }

  // The value of a size-1 array; for a device array, waits for the current stream.
  V item() const { return detail::read_item(*this); }

  // The values in a new host array (like cupy_array.get()); waits for the current stream.
  array<V, R, host> get() const
    requires std::is_same_v<Space, device>
  {
    return detail::host_copy(*this);
  }
  // A copy on another device (peer copy), like cupy_array.copy() under `with Device(d)`.
  array to(const xf::device& target) const
    requires std::is_same_v<Space, device>
  {
    return detail::copy_to_device(*this, target.id());
  }

  // A new contiguous array with the same values, in the same space.
  array copy() const { return array(detail::make_node(detail::ops::cast<V>{}, *this)); }

  // Element access for host arrays.
  template <std::integral... I>
    requires(sizeof...(I) == R && std::is_same_v<Space, host>)
  V& at(I... i) const {
    index_t idx[] = {static_cast<index_t>(i)..., 0};
    index_t off = 0;
    for (int d = 0; d < R; ++d) off += detail::resolve_index(idx[d], shape_[d], d) * strides_[d];
    return data_[off];
  }

  // ---------------------------------------------------------------- views
  // a(slice(...), 3, xf::newaxis, xf::all): NumPy basic indexing. Integers remove a dimension;
  // missing trailing indices mean "all".
  template <class... A>
    requires(detail::index_arg<A> && ...)
  auto operator()(const A&... args) const {
    constexpr int consumed = (0 + ... + detail::consumes_axis<A>);
    static_assert(consumed <= R, "xf::array: more indices than dimensions");
    constexpr int out_rank = (0 + ... + detail::keeps_axis<A>) + (R - consumed);
    array<V, out_rank, Space> v;
    v.share_from(*this);
    index_t off = 0;
    int in = 0, out = 0;
    auto one = [&](const auto& a) {
      using X = std::remove_cvref_t<decltype(a)>;
      if constexpr (std::is_same_v<X, newaxis_t>) {
        v.shape_[out] = 1;
        v.strides_[out] = 0;
        ++out;
      } else if constexpr (std::integral<X>) {
        off += detail::resolve_index(static_cast<index_t>(a), shape_[in], in) * strides_[in];
        ++in;
      } else {
        const detail::resolved_slice s = detail::resolve(a, shape_[in], in);
        off += s.length > 0 ? s.start * strides_[in] : 0;
        v.shape_[out] = s.length;
        v.strides_[out] = s.step * strides_[in];
        ++in;
        ++out;
      }
    };
    (one(args), ...);
    for (; in < R; ++in, ++out) {
      v.shape_[out] = shape_[in];
      v.strides_[out] = strides_[in];
    }
    v.data_ = data_ ? data_ + off : data_;  // an empty handle stays null
    return v;
  }

  // a(mask): NumPy's boolean-mask indexing, read or written (array/masked.hpp).
  template <class M>
    requires detail::boolean_mask<M, R>
  detail::masked<V, R, Space, M> operator()(const M& mask) const {
    return {*this, mask};
  }

  // a(..., idx, ...): integer-array indexing along one axis, read or written (array/indexed.hpp).
  template <class... A>
    requires detail::one_index_array<A...>
  auto operator()(const A&... args) const {
    auto view = (*this)(detail::basic_part(args)...);
    const auto& idx = detail::index_array_of(args...);
    using Idx = std::remove_cvref_t<decltype(idx)>;
    using View = decltype(view);
    static_assert(std::is_same_v<typename Idx::space, Space>, "xf::array: the index array lives in another space (host vs device)");
    int axis = detail::index_array_axis<std::remove_cvref_t<A>...>();
    if constexpr (detail::index_axes_first<std::remove_cvref_t<A>...>()) {
      typename View::shape_type order{};  // the indexed axis first, the others after it in order
      order[0] = axis;
      for (int d = 1; d < View::rank; ++d) order[d] = d <= axis ? d - 1 : d;
      view = view.transpose(order);
      axis = 0;
    }
    return detail::indexed<V, View::rank, Space, typename Idx::value_type, Idx::rank>(view, idx, axis);
  }

  // Reversed dimensions (a view).
  array T() const { return transpose(); }
  array transpose() const {
    array v = *this;
    for (int d = 0; d < R; ++d) {
      v.shape_[d] = shape_[R - 1 - d];
      v.strides_[d] = strides_[R - 1 - d];
    }
    return v;
  }
  // Dimensions in the given order (a view), like np.transpose(a, axes).
  array transpose(const shape_type& axes) const {
    array v = *this;
    bool seen[R > 0 ? R : 1] = {};
    for (int d = 0; d < R; ++d) {
      const int a = normalize_axis(static_cast<int>(axes[d]), "xf::transpose");
      if (seen[a]) throw shape_error("xf::transpose: axes " + to_string(axes) + " repeat an axis");
      seen[a] = true;
      v.shape_[d] = shape_[a];
      v.strides_[d] = strides_[a];
    }
    return v;
  }
  array permute(const shape_type& axes) const { return transpose(axes); }
  array swapaxes(int a, int b) const {
    array v = *this;
    a = normalize_axis(a, "xf::swapaxes");
    b = normalize_axis(b, "xf::swapaxes");
    std::swap(v.shape_[a], v.shape_[b]);
    std::swap(v.strides_[a], v.strides_[b]);
    return v;
  }

  // Reversed along one axis (a view with a negative stride).
  array flip(int axis) const {
    array v = *this;
    const int a = normalize_axis(axis, "xf::flip");
    if (shape_[a] > 0) v.data_ = data_ + (shape_[a] - 1) * strides_[a];
    v.strides_[a] = -strides_[a];
    return v;
  }
  // Reversed along every axis.
  array flip() const {
    array v = *this;
    for (int d = 0; d < R; ++d) v = v.flip(d);
    return v;
  }

  // A view with the new shape when the strides allow it (NumPy's rule), otherwise a contiguous
  // copy reshaped. One extent may be -1.
  template <std::size_t N>
  array<V, static_cast<int>(N), Space> reshape(const std::array<index_t, N>& new_shape) const {
    constexpr int R2 = static_cast<int>(N);
    dims<R2> target = infer_reshape(new_shape);
    array<V, R2, Space> v;
    dims<R2> new_strides{};
    if (reshape_strides(target, new_strides)) {
      v.share_from(*this);
      v.data_ = data_;
    } else {
      const array c = copy();
      v.share_from(c);
      v.data_ = c.data_;
      new_strides = detail::c_strides(target);
    }
    v.shape_ = target;
    v.strides_ = new_strides;
    return v;
  }
  template <std::size_t N>
  array<V, static_cast<int>(N), Space> reshape(const index_t (&new_shape)[N]) const {
    std::array<index_t, N> s{};
    for (std::size_t i = 0; i < N; ++i) s[i] = new_shape[i];
    return reshape(s);
  }
  // One dimension; a view when possible.
  array<V, 1, Space> ravel() const { return reshape(std::array<index_t, 1>{-1}); }
  // One dimension; always a copy.
  array<V, 1, Space> flatten() const { return copy().reshape(std::array<index_t, 1>{-1}); }

  // The diagonal of axes (axis1, axis2) with an offset, as the last dimension (a view).
  array<V, (R >= 2 ? R - 1 : 0), Space> diagonal(index_t offset = 0, int axis1 = 0, int axis2 = 1) const
    requires(R >= 2)
  {
    axis1 = normalize_axis(axis1, "xf::diagonal");
    axis2 = normalize_axis(axis2, "xf::diagonal");
    if (axis1 == axis2) throw shape_error("xf::diagonal: axis1 and axis2 cannot be the same");
    array<V, R - 1, Space> v;
    v.share_from(*this);
    index_t n1 = shape_[axis1], n2 = shape_[axis2];
    index_t off = 0;
    if (offset >= 0) {
      n2 -= offset;
      off = offset * strides_[axis2];
    } else {
      n1 += offset;
      off = -offset * strides_[axis1];
    }
    const index_t len = n1 < n2 ? (n1 > 0 ? n1 : 0) : (n2 > 0 ? n2 : 0);
    int o = 0;
    for (int d = 0; d < R; ++d) {
      if (d == axis1 || d == axis2) continue;
      v.shape_[o] = shape_[d];
      v.strides_[o] = strides_[d];
      ++o;
    }
    v.shape_[R - 2] = len;
    v.strides_[R - 2] = strides_[axis1] + strides_[axis2];
    v.data_ = len > 0 ? data_ + off : data_;
    return v;
  }

  // Removes an axis of extent 1 (a view).
  array<V, (R >= 1 ? R - 1 : 0), Space> squeeze(int axis) const
    requires(R >= 1)
  {
    const int a = normalize_axis(axis, "xf::squeeze");
    if (shape_[a] != 1)
      throw shape_error("xf::squeeze: cannot select axis " + std::to_string(axis) + " of shape " +
                        to_string(shape_) + ": its extent is not 1");
    array<V, R - 1, Space> v;
    v.share_from(*this);
    for (int d = 0, o = 0; d < R; ++d) {
      if (d == a) continue;
      v.shape_[o] = shape_[d];
      v.strides_[o] = strides_[d];
      ++o;
    }
    v.data_ = data_;
    return v;
  }

  // Inserts an axis of extent 1 at `axis` (a view); axis counts in the result, -1 is last.
  array<V, R + 1, Space> expand_dims(int axis) const {
    const int given = axis;
    if (axis < 0) axis += R + 1;
    if (axis < 0 || axis > R)
      throw shape_error("xf::expand_dims: axis " + std::to_string(given) + " is out of bounds for the result's rank " +
                        std::to_string(R + 1));
    array<V, R + 1, Space> v;
    v.share_from(*this);
    for (int d = 0, i = 0; d <= R; ++d) {
      if (d == axis) {
        v.shape_[d] = 1;
        v.strides_[d] = 0;
      } else {
        v.shape_[d] = shape_[i];
        v.strides_[d] = strides_[i];
        ++i;
      }
    }
    v.data_ = data_;
    return v;
  }

  // A read-only-in-spirit view repeating size-1 dimensions (zero strides). Writing into it throws.
  template <std::size_t N>
  array<V, static_cast<int>(N), Space> broadcast_to(const std::array<index_t, N>& target) const {
    constexpr int R2 = static_cast<int>(N);
    static_assert(R2 >= R, "xf::broadcast_to: the target rank is lower than the array's");
    detail::checked_size(target, sizeof(V), "xf::broadcast_to");
    array<V, R2, Space> v;
    v.share_from(*this);
    for (int i = 0; i < R2; ++i) {
      const int d = i - (R2 - R);
      const index_t e = d >= 0 ? shape_[d] : 1;
      if (e != target[i] && e != 1)
        throw shape_error("xf::broadcast_to: cannot broadcast " + to_string(shape_) + " to " + to_string(target));
      v.shape_[i] = target[i];
      v.strides_[i] = (d >= 0 && e == target[i]) ? strides_[d] : 0;
    }
    v.data_ = data_;
    return v;
  }
  template <std::size_t N>
  array<V, static_cast<int>(N), Space> broadcast_to(const index_t (&target)[N]) const {
    std::array<index_t, N> s{};
    for (std::size_t i = 0; i < N; ++i) s[i] = target[i];
    return broadcast_to(s);
  }

  // NumPy's astype, lazily: materialise it to get an array (`xf::array<float, 2> f = a.astype<float>();`).
  template <element To>
  auto astype() const {
    return detail::make_node(detail::ops::cast<To>{}, *this);
  }

  // ---------------------------------------------------------------- wrapping caller memory
  // An array over memory the caller owns (no copy). `keep_alive`, if given (any copyable object,
  // e.g. the std::shared_ptr that owns the memory), is held as long as any view of the array lives.
  // Device pointers are checked with cudaPointerGetAttributes.
  template <class KeepAlive = std::nullptr_t>
  static array wrap(V* ptr, const shape_type& shape, const shape_type& strides, KeepAlive keep_alive = nullptr) {
    constexpr const char* op = "xf::array::wrap";
    array a;
    const index_t count = detail::checked_size(shape, sizeof(V), op);
    detail::check_span(shape, strides, sizeof(V), op);
    if (count > 0 && ptr == nullptr)
      throw error(std::string(op) + ": a null pointer cannot hold shape " + to_string(shape) + " of " + dtype_name());
    a.shape_ = shape;
    a.strides_ = strides;
    a.data_ = ptr;
    if constexpr (std::is_same_v<Space, device>) {
      if (ptr == nullptr) {  // empty: no memory to check; it belongs to the current device
        a.device_ = device::current_id();
      } else {
        cudaPointerAttributes attr{};
        XF_CUDA_CHECK(cudaPointerGetAttributes(&attr, ptr));
        if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
          throw device_error("xf::array::wrap: the pointer is not device memory (use xf::array<V, R, xf::host>::wrap)");
        a.device_ = attr.device;
      }
    }
    a.buffer_ = detail::buffer::borrowing(ptr, std::move(keep_alive));
    return a;
  }
  template <class KeepAlive = std::nullptr_t>
  static array wrap(V* ptr, const shape_type& shape, KeepAlive keep_alive = nullptr) {
    return wrap(ptr, shape, detail::checked_c_strides(shape, sizeof(V), "xf::array::wrap"), std::move(keep_alive));
  }

  // ---------------------------------------------------------------- expression protocol
  auto leaves() const {
    return detail::make_tuple(detail::leaf_record<detail::memory_leaf<V>, R>{{data_}, shape_, strides_, 0, device_});
  }
  template <int First>
  detail::slot<First, V> evaluator() const {
    return {};
  }

 private:
  template <element, int, class>
  friend class array;

  template <int R2>
  void share_from(const array<V, R2, Space>& o) {
    buffer_ = o.buffer_;
    device_ = o.device_;
  }

  template <class E>
  static constexpr void check_convertible() {
    static_assert(std::is_same_v<space_t<E>, any_space> || std::is_same_v<space_t<E>, Space>,
                  "xfuse: the expression lives in another space (host vs device) than the array");
    static_assert(detail::same_kind_castable<value_t<E>, V>,
                  "xfuse: this conversion goes down a kind (NumPy's same_kind rule, e.g. float to int); "
                  "write .astype<V>() to ask for it");
  }

  static shape_type to_dims(const index_t (&s)[R > 0 ? R : 1]) {
    shape_type d{};
    for (int i = 0; i < R; ++i) d[i] = s[i];
    return d;
  }

  int normalize_axis(int axis, const char* op) const { return detail::normalize_axis_of(axis, shape_, op); }

  template <std::size_t N>
  dims<static_cast<int>(N)> infer_reshape(const std::array<index_t, N>& s) const {
    dims<static_cast<int>(N)> t{};
    int unknown = -1;
    for (std::size_t i = 0; i < N; ++i) {
      t[i] = s[i];
      if (s[i] == -1) {
        if (unknown >= 0) throw shape_error("xf::reshape: can only specify one unknown dimension");
        unknown = static_cast<int>(i);
        t[i] = 1;  // for the product of the known extents
      }
    }
    const index_t known = detail::checked_size(t, sizeof(V), "xf::reshape");
    if (unknown >= 0) {
      if (known == 0 || size() % known != 0)
        throw shape_error("xf::reshape: cannot reshape array of size " + std::to_string(size()) + " into shape " +
                          to_string(s));
      t[unknown] = size() / known;
      detail::checked_size(t, sizeof(V), "xf::reshape");
    } else if (known != size()) {
      throw shape_error("xf::reshape: cannot reshape array of size " + std::to_string(size()) + " into shape " +
                        to_string(s));
    }
    return t;
  }

  // NumPy's attempt at a copy-free reshape (C order): true and the new strides when the old
  // layout can be described with the new shape.
  template <std::size_t N>
  bool reshape_strides(const std::array<index_t, N>& new_shape, std::array<index_t, N>& new_strides) const {
    constexpr int R2 = static_cast<int>(N);
    if (size() == 0 || is_contiguous()) {
      new_strides = detail::c_strides(new_shape);
      return true;
    }
    // Drop extent-1 dimensions of the old shape, then match groups of old and new extents.
    index_t od[R > 0 ? R : 1], os[R > 0 ? R : 1];
    int on = 0;
    for (int i = 0; i < R; ++i)
      if (shape_[i] != 1) {
        od[on] = shape_[i];
        os[on] = strides_[i];
        ++on;
      }
    int oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < R2 && oi < on) {
      index_t np = new_shape[ni], op = od[oi];
      while (np != op) {
        if (np < op) np *= new_shape[nj++];
        else op *= od[oj++];
      }
      for (int ok = oi; ok < oj - 1; ++ok)
        if (os[ok] != od[ok + 1] * os[ok + 1]) return false;
      new_strides[nj - 1] = os[oj - 1];
      for (int nk = nj - 1; nk > ni; --nk) new_strides[nk - 1] = new_strides[nk] * new_shape[nk];
      ni = nj++;
      oi = oj++;
    }
    const index_t last = ni >= 1 ? new_strides[ni - 1] : 1;
    for (int nk = ni; nk < R2; ++nk) new_strides[nk] = last;  // trailing extent-1 dimensions
    return true;
  }

  detail::buffer buffer_;
  V* data_ = nullptr;
  shape_type shape_{};
  shape_type strides_{};
  int device_ = -1;
};

// Free-function spellings of the views, as in NumPy.
template <element T, int R, class S>
array<T, R, S> transpose(const array<T, R, S>& a) {
  return a.transpose();
}
template <element T, int R, class S>
array<T, R, S> transpose(const array<T, R, S>& a, const dims<R>& axes) {
  return a.transpose(axes);
}
template <element T, int R, class S, std::size_t N>
auto reshape(const array<T, R, S>& a, const index_t (&shape)[N]) {
  return a.reshape(shape);
}
template <element T, int R, class S, std::size_t N>
auto reshape(const array<T, R, S>& a, const std::array<index_t, N>& shape) {
  return a.reshape(shape);
}
template <element T, int R, class S>
auto ravel(const array<T, R, S>& a) {
  return a.ravel();
}
template <element T, int R, class S>
auto flip(const array<T, R, S>& a, int axis) {
  return a.flip(axis);
}
template <element T, int R, class S>
auto flip(const array<T, R, S>& a) {
  return a.flip();
}
template <element T, int R, class S>
auto diagonal(const array<T, R, S>& a, index_t offset = 0, int axis1 = 0, int axis2 = 1) {
  return a.diagonal(offset, axis1, axis2);
}
template <element T, int R, class S>
auto squeeze(const array<T, R, S>& a, int axis) {
  return a.squeeze(axis);
}
template <element T, int R, class S>
auto expand_dims(const array<T, R, S>& a, int axis) {
  return a.expand_dims(axis);
}
template <element T, int R, class S, std::size_t N>
auto broadcast_to(const array<T, R, S>& a, const index_t (&shape)[N]) {
  return a.broadcast_to(shape);
}
template <element T, int R, class S>
auto swapaxes(const array<T, R, S>& a, int x, int y) {
  return a.swapaxes(x, y);
}

}  // namespace xf

#include "indexed.hpp"
#include "masked.hpp"
