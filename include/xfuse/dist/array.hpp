// SPDX-License-Identifier: Apache-2.0
// xf::dist::array<T, R>: an N-d array over a Legate logical store, partitioned and moved by Legate
// across the GPUs (or CPUs) of every node. Like xf::array it is a shared handle: copying it shares
// the store. Views (slices with step 1, transposes) are views of the store, with no copy.
//
//   auto x = xf::dist::zeros<float>({n, m});            // a store of Legate's, filled by Legate
//   auto u = xf::dist::from_local(host_or_device_array); // import; x.to_local() exports
//   auto inner = u(xf::slice(1, -1), xf::slice(1, -1));  // a view, as u[1:-1, 1:-1]
//
// Statements over distributed arrays (z.assign(expr), z = expr) run as one Legate task each:
// dist/statement.hpp.
#pragma once

#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "runtime.hpp"
#include "sequence.hpp"

namespace xf::dist {

template <class V, int R>
class array {
  static_assert(R >= 1, "xf::dist::array: rank 1 or more (reductions to one value give xf::dist::scalar)");

 public:
  using value_type = V;
  using shape_type = dims<R>;
  static constexpr int rank = R;

  array() = default;
  // An array over an existing store of V and rank R. `view` names the view for the aliasing check
  // of statements; an array made from a store without one gets a name of its own, so two arrays
  // over one store are never taken for the same view.
  explicit array(legate::LogicalStore store, std::string view = {})
      : store_(std::move(store)), view_(view.empty() ? detail::fresh_view_name() : std::move(view)) {
    if (store_->dim() != static_cast<std::uint32_t>(R))
      throw shape_error("xf::dist::array: a store of rank " + std::to_string(store_->dim()) + " cannot be a rank-" +
                        std::to_string(R) + " array");
    if (store_->type() != detail::legate_type<V>())
      throw dtype_error("xf::dist::array: the store holds " + store_->type().to_string() + ", not " + std::string(dtype_name<V>));
  }

  // The Legate store (a view of one, for views): to pass to Legate tasks of your own.
  const legate::LogicalStore& store() const {
    if (!store_) throw error("xf::dist::array: an empty handle (default-constructed) has no store");
    return *store_;
  }
  // The global shape and number of elements, like ndarray.shape and .size.
  shape_type shape() const { return detail::shape_of_store<R>(store()); }
  index_t size() const { return detail::product(shape()); }
  // Names the view of the store this array is ("" for the whole store as created).
  const std::string& view() const { return view_; }

  // A view, as NumPy's basic indexing: xf::slice (step 1) or xf::all keep a dimension, an integer
  // removes it, xf::newaxis adds one of extent 1; missing trailing indices mean all. Like
  // u[1:-1, :], u[3], u[:, None].
  template <class... S>
    requires((detail::index_arg<S> || std::is_same_v<S, none_t>) && ...)
  auto operator()(const S&... s) const {
    constexpr int consumed = (0 + ... + detail::consumes_axis<S>);
    static_assert(consumed <= R, "xf::dist::array: more indices than dimensions");
    constexpr int out_rank = (0 + ... + detail::keeps_axis<S>) + (R - consumed);
    static_assert(out_rank >= 1, "xf::dist::array: an integer for every axis names one element: keep an axis with a slice, "
                                 "or read it with to_local");
    legate::LogicalStore view = store();
    std::string name = view_;
    const shape_type extents = shape();
    int in = 0;
    std::int32_t out = 0;  // the dimension of `view` that the next index applies to
    auto one = [&](const auto& a) {
      using X = std::remove_cvref_t<decltype(a)>;
      const std::string d = std::to_string(out);
      if constexpr (std::is_same_v<X, newaxis_t>) {
        view = view.promote(out++, 1);
        name += "[+" + d + "]";
      } else if constexpr (std::integral<X>) {
        const index_t n = extents[static_cast<std::size_t>(in)];
        const auto i = static_cast<index_t>(a);
        if (i < -n || i >= n)
          throw index_error("xf::dist::array: index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(in) +
                            " with size " + std::to_string(n));
        const index_t j = i < 0 ? i + n : i;
        view = view.project(out, static_cast<std::int64_t>(j));
        name += "[" + d + "=" + std::to_string(j) + "]";
        ++in;
      } else {
        const slice sl{a};
        if (!sl.step.none && sl.step.value != 1)
          throw index_error("xf::dist::array: slices of distributed arrays take step 1 (got " + std::to_string(sl.step.value) +
                            " along axis " + std::to_string(in) + ")");
        const index_t n = extents[static_cast<std::size_t>(in)];
        auto bound = [n](const slice_bound& b, index_t otherwise) {
          if (b.none) return otherwise;
          const index_t v = b.value < 0 ? b.value + n : b.value;
          return v < 0 ? index_t{0} : (v > n ? n : v);
        };
        const index_t start = bound(sl.start, 0);
        const index_t stop = std::max(start, bound(sl.stop, n));
        if (start != 0 || stop != n) {
          view = view.slice(out, legate::Slice{start, stop});
          name += "[" + d + ":" + std::to_string(start) + ":" + std::to_string(stop) + "]";
        }
        ++in;
        ++out;
      }
    };
    (one(s), ...);
    return array<V, out_rank>(view, name);
  }

  // The axes reversed (a.T in NumPy), or permuted: a view.
  array T() const {
    std::array<int, R> axes{};
    for (int d = 0; d < R; ++d) axes[static_cast<std::size_t>(d)] = R - 1 - d;
    return transpose(axes);
  }
  array transpose(const std::array<int, R>& axes) const {
    std::array<bool, R> seen{};
    for (int a : axes) {
      if (a < 0 || a >= R || seen[static_cast<std::size_t>(a)]) {
        dims<R> given{};
        for (int d = 0; d < R; ++d) given[static_cast<std::size_t>(d)] = axes[static_cast<std::size_t>(d)];
        throw shape_error("xf::dist::array::transpose: axes " + to_string(given) + " are not a permutation of the " +
                          std::to_string(R) + " axes of shape " + to_string(shape()));
      }
      seen[static_cast<std::size_t>(a)] = true;
    }
    std::vector<std::int32_t> order(axes.begin(), axes.end());
    std::string name = view_ + ".T(";
    for (int a : axes) name += std::to_string(a) + ",";
    return array(store().transpose(std::move(order)), name + ")");
  }

  // Statements (dist/statement.hpp): one Legate task writing this array's elements, like
  // numpy.copyto(a, e); a scalar is one Legate fill.
  template <class E>
  void assign(const E& e);
  // a += e and the like: assign(a + e), one task.
  template <class E>
  array& operator+=(const E& e);
  template <class E>
  array& operator-=(const E& e);
  template <class E>
  array& operator*=(const E& e);
  template <class E>
  array& operator/=(const E& e);

  // Export: the whole array as one local array (this process's copy; a materialisation point).
  // Like scalar::item, it throws the first error a task kept (an out-of-memory: dist/runtime.hpp).
  template <class Space = xf::device>
  xf::array<V, R, Space> to_local() const;

 private:
  std::optional<legate::LogicalStore> store_;
  std::string view_;
};

// A reduction to one value (NumPy's 0-d result): a one-element store Legate reduced into. It is
// an operand of later statements and reductions as NumPy's 0-d arrays are (its type counts in the
// result's type), read by each piece on the device: no value comes to the host.
template <class T>
class scalar {
 public:
  using value_type = T;
  explicit scalar(legate::LogicalStore store, std::string view = {})
      : store_(std::move(store)), view_(view.empty() ? detail::fresh_view_name() : std::move(view)) {}
  const legate::LogicalStore& store() const { return store_; }
  // Names the store's view, as array::view does (the aliasing checks of statements use it).
  const std::string& view() const { return view_; }
  // Waits for the reduction and returns its value; throws the first error a task kept (an
  // out-of-memory inside a task: dist/runtime.hpp), its own task's included.
  T item() const {
    (void)detail::ordered_runtime("xf::dist::scalar::item");
    const legate::PhysicalStore p = store_.get_physical_store(legate::mapping::StoreTarget::SYSMEM);
    detail::raise_task_errors();
    T value;
    std::memcpy(&value, p.get_inline_allocation().ptr, sizeof(T));
    return value;
  }

 private:
  legate::LogicalStore store_;
  std::string view_;
};

// ---------------------------------------------------------------- creation
// An uninitialised array (np.empty): Legate allocates its pieces where the first task runs.
template <class T, std::size_t N>
array<T, static_cast<int>(N)> empty(const std::array<index_t, N>& shape) {
  constexpr int R = static_cast<int>(N);
  detail::checked_size(shape, sizeof(T), "xf::dist::empty");
  auto* rt = detail::runtime("xf::dist::empty");
  return array<T, R>(rt->create_store(detail::legate_shape<R>(shape), detail::legate_type<T>()));
}
template <class T, std::size_t N>
array<T, static_cast<int>(N)> empty(const index_t (&shape)[N]) {
  return empty<T>(detail::to_dims(shape));
}

// np.full / np.zeros / np.ones: one Legate fill.
template <class T, std::size_t N>
array<T, static_cast<int>(N)> full(const std::array<index_t, N>& shape, T value) {
  auto out = empty<T>(shape);
  detail::runtime("xf::dist::full")->issue_fill(legate::LogicalArray{out.store()}, legate::Scalar{value});
  return out;
}
template <class T, std::size_t N>
array<T, static_cast<int>(N)> full(const index_t (&shape)[N], T value) {
  return full<T>(detail::to_dims(shape), value);
}
template <class T, std::size_t N>
array<T, static_cast<int>(N)> zeros(const index_t (&shape)[N]) {
  return full<T>(detail::to_dims(shape), T(0));
}
template <class T, std::size_t N>
array<T, static_cast<int>(N)> zeros(const std::array<index_t, N>& shape) {
  return full<T>(shape, T(0));
}
template <class T, std::size_t N>
array<T, static_cast<int>(N)> ones(const index_t (&shape)[N]) {
  return full<T>(detail::to_dims(shape), T(1));
}

// ---------------------------------------------------------------- import and export
// Import: a distributed array holding a copy of a local (host or device) array's values.
template <class T, int R, class Space>
array<T, R> from_local(const xf::array<T, R, Space>& local) {
  auto out = empty<T>(local.shape());
  if (local.size() == 0) return out;
  const legate::PhysicalStore p = out.store().get_physical_store(legate::mapping::StoreTarget::SYSMEM);
  auto whole = detail::local_piece<T, R, xf::host>(p, true);
  if constexpr (std::is_same_v<Space, xf::host>) {
    whole.assign(local);
  } else {
    whole.assign(xf::get(local));  // one transfer to a C-ordered host copy, then a strided host copy
  }
  return out;
}

template <class V, int R>
template <class Space>
xf::array<V, R, Space> array<V, R>::to_local() const {
  (void)detail::ordered_runtime("xf::dist::array::to_local");
  const legate::PhysicalStore p = store_->get_physical_store(legate::mapping::StoreTarget::SYSMEM);
  detail::raise_task_errors();
  auto whole = detail::local_piece<V, R, xf::host>(p, false);
  if constexpr (std::is_same_v<Space, xf::host>) {
    return whole.copy();
  } else {
    return xf::asarray(whole.copy());
  }
}

}  // namespace xf::dist
