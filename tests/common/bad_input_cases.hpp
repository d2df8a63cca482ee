// Bad input that must be refused at once with a clear exception, shared by the host suite (host
// arrays) and the GPU suite (device arrays): shapes whose element or byte counts overflow
// (NumPy's "array is too big"), negative extents, null and overflowing pointers, results past any
// memory, and the integer reductions whose sums must wrap as NumPy's do. Each case used to crash,
// hang, or give a wrong or empty array. Every error leaves the memory pool as it was.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <xfuse/xfuse.hpp>

#include "check.hpp"

namespace xf_test::bad_input {

using xf::index_t;
inline constexpr index_t two_32 = index_t{1} << 32;
inline constexpr index_t two_40 = index_t{1} << 40;
inline constexpr index_t two_50 = index_t{1} << 50;
inline constexpr index_t two_60 = index_t{1} << 60;
inline constexpr index_t two_62 = index_t{1} << 62;

// f() throws E, and its message names the operation and says what is wrong.
template <class E, class F>
void require_refused(F&& f, const std::string& op, const std::string& what) {
  std::string message;
  try {
    f();
  } catch (const E& e) {
    message = e.what();
  } catch (const std::exception& e) {  // shown in the failure; later checks still run
    message = std::string("another exception type: ") + e.what();
  }
  INFO("expected " << op << " to refuse with \"" << what << "\"");
  CHECK_THAT(message, XF_CONTAINS(op) && XF_CONTAINS(what));
}

// The device pool's bytes in use (0 for host arrays): errors must give back what they took.
template <class S>
std::size_t pool_in_use() {
  if constexpr (std::is_same_v<S, xf::device>) return xf::get_default_memory_pool().used_bytes();
  else return 0;
}

template <class T, int R, class S>
xf::array<T, R, S> filled(const xf::dims<R>& shape, T value) {
  return xf::full(shape, value);
}

// Shapes made from nothing: constructors, empty, generators, random draws.
template <class S>
void creation() {
  const std::size_t before = pool_in_use<S>();
  using F1 = xf::array<float, 1, S>;
  // 2^62 floats are 2^64 bytes: the byte count used to wrap to 0 and give a null buffer.
  require_refused<xf::shape_error>([] { (void)F1(xf::dims<1>{two_62}); }, "xf::array", "array is too big");
  // 2^32 * 2^32 elements used to wrap to size 0; reading row 1 then segfaulted.
  require_refused<xf::shape_error>([] { xf::empty<float, S>({two_32, two_32}); }, "xf::empty", "array is too big");
  // A zero extent does not excuse the others (NumPy's rule): their C-order strides would overflow.
  require_refused<xf::shape_error>([] { (void)xf::array<std::int8_t, 3, S>(xf::dims<3>{0, two_32, two_32}); },
                                   "xf::array", "array is too big");
  require_refused<xf::shape_error>([] { (void)xf::array<double, 1, S>(xf::dims<1>{two_60}); }, "xf::array",
                                   "array is too big");  // exactly 2^63 bytes
  require_refused<xf::shape_error>([] { (void)F1(xf::dims<1>{-1}); }, "xf::array", "negative extent");
  // What NumPy makes, xfuse makes: empty, with strides of the non-zero extents.
  const xf::array<std::int8_t, 2, S> wide(xf::dims<2>{0, two_40});
  CHECK(wide.size() == 0);
  CHECK(wide.strides()[0] == two_40);

  require_refused<xf::shape_error>([] { xf::full<float>({two_32, two_32}, 1.0f); }, "xf::full", "array is too big");
  require_refused<xf::shape_error>([] { xf::zeros<double>({-2, 3}); }, "xf::full", "negative extent");
  require_refused<xf::shape_error>([] { xf::eye<float>(two_32, two_32); }, "xf::eye", "array is too big");
  require_refused<xf::shape_error>([] { xf::tri<float>(two_32, two_32); }, "xf::tri", "array is too big");
  // 1e60 elements: the count used to be converted from a double out of int64's range.
  require_refused<xf::shape_error>([] { xf::arange(0.0, 1e30, 1e-30); }, "xf::arange", "array is too big");
  require_refused<xf::shape_error>([] { xf::arange(0.0, std::numeric_limits<double>::infinity()); }, "xf::arange",
                                   "array is too big");
  require_refused<xf::error>([] { xf::arange<std::int64_t>(-1e300, 1e300, 1e298); }, "xf::arange",
                             "outside the range of int64");
  xf::random::generator g(7);
  require_refused<xf::shape_error>([&] { xf::random::uniform<float>(std::array<index_t, 2>{two_32, two_32}, g); },
                                   "xf::random::uniform", "array is too big");
  // Large but sound generators are still lazy values of the right size.
  CHECK(xf::arange(0.0, 1e15, 1.0).size() == 1000000000000000);
  CHECK(pool_in_use<S>() == before);
}

// Shapes made from other shapes: reshape, broadcast_to, broadcasting in expressions, expand_dims.
template <class S>
void views() {
  const auto nothing = filled<float, 1, S>({0}, 0.0f);
  const auto six = filled<float, 1, S>({6}, 1.0f);
  const auto one = filled<float, 1, S>({1}, 2.0f);
  const auto m = filled<float, 2, S>({2, 3}, 1.0f);
  const std::size_t before = pool_in_use<S>();  // the operands are made; errors add nothing
  require_refused<xf::shape_error>([&] { nothing.reshape({0, two_32, two_32}); }, "xf::reshape", "array is too big");
  // The product of the known extents used to overflow (and wrap to 0) before the -1 was solved.
  require_refused<xf::shape_error>([&] { six.reshape({-1, two_62, 4}); }, "xf::reshape", "array is too big");
  require_refused<xf::shape_error>([&] { six.reshape({-1, -2}); }, "xf::reshape", "negative extent");

  // A negative target used to be accepted; reducing the view then never returned.
  require_refused<xf::shape_error>([&] { one.broadcast_to({-3}); }, "xf::broadcast_to", "negative extent");
  require_refused<xf::shape_error>([&] { one.broadcast_to({two_32, two_32}); }, "xf::broadcast_to",
                                   "array is too big");
  const auto column = one.reshape({1, 1}).broadcast_to({two_32, 1});
  const auto row = one.reshape({1, 1}).broadcast_to({1, two_32});
  CHECK(column.size() == two_32);
  // Two sound operands whose broadcast shape has 2^64 elements.
  require_refused<xf::shape_error>([&] { (void)(column + row); }, "xf::add", "array is too big");
  require_refused<xf::shape_error>([&] { (void)xf::maximum(column, row); }, "xf::maximum", "array is too big");

  // The axis the caller gave is the one named.
  require_refused<xf::shape_error>([&] { m.expand_dims(-4); }, "xf::expand_dims", "axis -4 is out of bounds");
  require_refused<xf::shape_error>([&] { m.expand_dims(3); }, "xf::expand_dims", "axis 3 is out of bounds");
  CHECK(m.expand_dims(-3).shape() == xf::dims<3>{1, 2, 3});
  CHECK(pool_in_use<S>() == before);
}

// Results whose extents are sums or products of the operands': tile, repeat, pad, concatenate.
template <class S>
void manipulation() {
  const auto three = filled<float, 1, S>({3}, 1.5f);
  const auto four = filled<float, 1, S>({4}, 2.5f);
  const auto bytes = filled<std::int8_t, 1, S>({3}, std::int8_t{7});
  const auto wide = filled<std::int8_t, 1, S>({1}, std::int8_t{1}).broadcast_to({two_62});
  const std::size_t before = pool_in_use<S>();  // the operands are made; errors add nothing
  require_refused<xf::shape_error>([&] { xf::tile(three, two_62); }, "xf::tile", "array is too big");
  require_refused<xf::shape_error>([&] { xf::tile(three, {two_32, two_32}); }, "xf::tile", "array is too big");
  // 4 * 2^62 elements used to wrap to an empty array.
  require_refused<xf::shape_error>([&] { xf::repeat(four, two_62); }, "xf::repeat", "array is too big");
  require_refused<xf::shape_error>([&] { xf::repeat(four, two_62, 0); }, "xf::repeat", "array is too big");
  require_refused<xf::shape_error>([&] { xf::repeat(three, std::vector<index_t>{1, 1, two_62}, 0); }, "xf::repeat",
                                   "array is too big");
  // A result of 2^50 bytes: refused by the allocator at once, before any per-element work (the
  // source positions used to be built on the host first, 8 bytes per element of the result).
  try {
    xf::repeat(bytes, std::vector<index_t>{1, 2, two_50}, 0);
    FAIL("xf::repeat of 2^50 bytes did not fail");
  } catch (const xf::out_of_memory& e) {
    CHECK(e.requested_bytes() == static_cast<std::size_t>(two_50 + 3));
    CHECK_THAT(std::string(e.what()), XF_CONTAINS("(1125899906842627,)"));
  }
  // pad's before + n + after used to wrap to a negative extent, reported by xf::array.
  require_refused<xf::shape_error>([&] { xf::pad(three, {{two_62, two_62}}); }, "xf::pad", "array is too big");
  require_refused<xf::shape_error>([&] { xf::concatenate({wide, wide}); }, "xf::concatenate", "array is too big");
  require_refused<xf::shape_error>([&] { xf::stack({wide, wide, wide}); }, "xf::stack", "array is too big");
  CHECK(pool_in_use<S>() == before);
}

// Memory described by the caller: wrap and DLPack.
template <class S>
void foreign_memory() {
  using F1 = xf::array<float, 1, S>;
  // A null pointer holding elements used to be accepted (the first evaluation segfaulted).
  require_refused<xf::error>([] { F1::wrap(nullptr, xf::dims<1>{3}); }, "xf::array::wrap", "null pointer");
  CHECK(F1::wrap(nullptr, xf::dims<1>{0}).size() == 0);
  float host_values[4] = {1, 2, 3, 4};
  if constexpr (std::is_same_v<S, xf::host>) {
    const auto a = F1::wrap(host_values, xf::dims<1>{4});
    CHECK(xf::sum(a).item() == 10.0f);
    // Offsets of 2 * 2^62 elements do not fit.
    require_refused<xf::shape_error>([&] { F1::wrap(host_values, xf::dims<1>{3}, xf::dims<1>{two_62}); },
                                     "xf::array::wrap", "reach offsets past");
  }

  int deleted = 0;
  struct context {
    int* deleted;
  } ctx{&deleted};
  index_t shape[2] = {two_32, two_32};
  index_t strides[2] = {1, 1};
  xf::dlpack::DLManagedTensor t{};
  t.dl_tensor.data = host_values;
  t.dl_tensor.device = {std::is_same_v<S, xf::device> ? xf::dlpack::kDLCUDA : xf::dlpack::kDLCPU, 0};
  t.dl_tensor.ndim = 2;
  t.dl_tensor.dtype = xf::dlpack::data_type_of<float>;
  t.dl_tensor.shape = shape;
  t.manager_ctx = &ctx;
  t.deleter = [](xf::dlpack::DLManagedTensor* self) { ++*static_cast<context*>(self->manager_ctx)->deleted; };
  // 2^64 elements: the count used to wrap to 0 and the import to succeed.
  require_refused<xf::shape_error>([&] { xf::from_dlpack<float, 2, S>(&t); }, "xf::from_dlpack", "array is too big");
  shape[0] = 3;
  shape[1] = 2;
  strides[0] = two_62;
  t.dl_tensor.strides = strides;
  require_refused<xf::shape_error>([&] { xf::from_dlpack<float, 2, S>(&t); }, "xf::from_dlpack", "reach offsets past");
  strides[0] = 2;
  t.dl_tensor.byte_offset = std::numeric_limits<std::uint64_t>::max() - 2;
  require_refused<xf::error>([&] { xf::from_dlpack<float, 2, S>(&t); }, "xf::from_dlpack", "byte_offset");
  CHECK(deleted == 0);  // refused tensors stay the caller's
}

// Results past any memory are xf::out_of_memory with the bytes asked for, not std::bad_alloc.
template <class S>
void out_of_memory() {
  const std::size_t before = pool_in_use<S>();
  try {
    xf::array<float, 1, S> a(xf::dims<1>{two_60});  // 2^62 bytes: a valid shape no machine holds
    FAIL("an array of 2^62 bytes was allocated");
  } catch (const xf::out_of_memory& e) {
    CHECK(e.requested_bytes() == static_cast<std::size_t>(two_62));
    CHECK_THAT(std::string(e.what()), XF_CONTAINS("(1152921504606846976,)"));
    CHECK_THAT(std::string(e.what()), XF_CONTAINS("float32"));
    CHECK(e.device() == (std::is_same_v<S, xf::device> ? xf::device::current_id() : -1));
  }
  CHECK(pool_in_use<S>() == before);
}

// Integer sums and products wrap modulo 2^64 as NumPy's do (computed here in unsigned
// arithmetic); in C++ the signed overflow they used to rely on is undefined behaviour.
template <class S>
void wrapping_reductions() {
  const std::int64_t big = std::numeric_limits<std::int64_t>::max();
  const auto a = xf::asarray<std::int64_t, S>(std::vector<std::int64_t>{big, 1, 5, big});
  const auto wrapped = [](std::vector<std::int64_t> v, bool multiply) {
    std::uint64_t acc = multiply ? 1 : 0;
    for (auto x : v) acc = multiply ? acc * static_cast<std::uint64_t>(x) : acc + static_cast<std::uint64_t>(x);
    return static_cast<std::int64_t>(acc);
  };
  CHECK(xf::sum(a).item() == wrapped({big, 1, 5, big}, false));
  CHECK(xf::prod(a).item() == wrapped({big, 1, 5, big}, true));
  const auto c = xf::to_host(xf::cumsum(a));
  CHECK(c == std::vector<std::int64_t>{big, wrapped({big, 1}, false), wrapped({big, 1, 5}, false),
                                       wrapped({big, 1, 5, big}, false)});
  // int32 sums widen to int64 (no wrap); int8 products widen too.
  const auto b = xf::asarray<std::int32_t, S>(std::vector<std::int32_t>{2147483647, 2147483647, 2});
  CHECK(xf::sum(b).item() == std::int64_t{4294967296});
  const auto p = xf::asarray<std::int64_t, S>(std::vector<std::int64_t>{two_62, 4, -3});
  CHECK(xf::prod(p).item() == 0);
  CHECK(xf::sum(p * p).item() == wrapped({0, 16, 9}, false));  // 2^124 wraps to 0 element-wise
}

}  // namespace xf_test::bad_input
