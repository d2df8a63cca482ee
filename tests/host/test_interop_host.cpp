// Interchange on host arrays: DLPack export and import (round trips of every element type, ranks
// 0 to 3, strided views; tensors built by hand with a counting deleter; every refusal leaves the
// tensor with the caller), cuda::std::mdspan views both ways, and xf::begin / xf::end with the
// standard algorithms.
#include <algorithm>
#include <numeric>

#include "../common/check.hpp"
#include "../common/interop_cases.hpp"
#include "../common/random.hpp"

using namespace xf_test;
namespace dl = xf::dlpack;

namespace {
template <class T, int R>
using harray = xf::array<T, R, xf::host>;

// Export a (as Managed), import it back: same memory, same layout, same values; the tensor holds
// a's buffer until the imported array is gone.
template <class Managed, class T, int R>
void round_trip(const harray<T, R>& a) {
  const auto want = xf::to_host(a);
  const long refs = a.buffer().use_count();
  const long held = a.buffer() ? 1 : 0;  // an empty handle has no buffer to hold
  Managed* t = nullptr;
  if constexpr (std::is_same_v<Managed, dl::DLManagedTensor>) t = xf::to_dlpack(a);
  else t = xf::to_dlpack_versioned(a);
  check_exported(t, a);
  CHECK(a.buffer().use_count() == refs + held);
  auto b = xf::from_dlpack<T, R, xf::host>(t);
  CHECK(b.data() == a.data());
  CHECK(b.shape() == a.shape());
  CHECK(b.strides() == a.strides());
  CHECK(b.device_id() == -1);
  const auto got = xf::to_host(b);
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) REQUIRE(close<T>(got[i], want[i], 0, 0));
  auto view = b;  // another handle: the tensor is released with the last one
  b = harray<T, R>();
  CHECK(a.buffer().use_count() == refs + held);
  view = harray<T, R>();
  CHECK(a.buffer().use_count() == refs);
}

template <class T>
void round_trips() {
  const auto v = uniform<T>(3 * 4 * 5, -100, 100);
  const auto a = xf::asarray<T, xf::host>(v, {3, 4, 5});
  for (int versioned = 0; versioned < 2; ++versioned) {
    auto both = [&](const auto& x) {
      if (versioned) round_trip<dl::DLManagedTensorVersioned>(x);
      else round_trip<dl::DLManagedTensor>(x);
    };
    both(a);
    both(a(xf::slice(xf::_, xf::_, -1), 2, xf::slice(1, 5, 2)));  // negative stride, rank 2
    both(a.transpose({2, 0, 1}));
    both(a(1, xf::all, 3));                                          // rank 1, stride 5
    both(a(2, 1, 4));                                                // rank 0 view (offset 34)
    both(xf::asarray<T, xf::host>(std::vector<T>{v[7]}, {1}).reshape(std::array<xf::index_t, 0>{}));
    both(a(xf::slice(2, 2)));                                        // empty
    both(a(0).broadcast_to({2, 4, 5}));                              // zero stride
    both(harray<T, 2>());                                            // an empty handle: no buffer
  }
}
}  // namespace

TEMPLATE_TEST_CASE("DLPack round trips of host arrays share memory", "[host][interop]", bool, std::int8_t,
                   std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t,
                   xf::half, xf::bfloat16, float, double, xf::complex64, xf::complex128) {
  round_trips<TestType>();
}

TEST_CASE("DLPack data types follow dlpack.h", "[host][interop]") {
  auto same = [](dl::DLDataType t, int code, int bits) { return t.code == code && t.bits == bits && t.lanes == 1; };
  CHECK(same(dl::data_type_of<bool>, 6, 8));
  CHECK(same(dl::data_type_of<std::int8_t>, 0, 8));
  CHECK(same(dl::data_type_of<std::int64_t>, 0, 64));
  CHECK(same(dl::data_type_of<std::uint16_t>, 1, 16));
  CHECK(same(dl::data_type_of<xf::half>, 2, 16));
  CHECK(same(dl::data_type_of<xf::bfloat16>, 4, 16));
  CHECK(same(dl::data_type_of<float>, 2, 32));
  CHECK(same(dl::data_type_of<double>, 2, 64));
  CHECK(same(dl::data_type_of<xf::complex64>, 5, 64));
  CHECK(same(dl::data_type_of<xf::complex128>, 5, 128));
  CHECK(dl::kDLCPU == 1);
  CHECK(dl::kDLCUDA == 2);
  CHECK(dl::kDLCUDAHost == 3);
  CHECK(dl::kDLCUDAManaged == 13);
}

TEST_CASE("an exported tensor keeps the buffer alive after the array is gone", "[host][interop]") {
  const auto values = uniform<float>(4 * 6, -1, 1);
  std::vector<float> storage = values;
  int released = 0;
  dl::DLManagedTensor* t = nullptr;
  {
    const auto w = harray<float, 2>::wrap(storage.data(), {4, 6}, release_counter(&released));
    t = xf::to_dlpack(w(xf::slice(1, xf::_), xf::slice(xf::_, xf::_, -2)));  // shape (3, 3), strides (6, -2)
  }
  CHECK(released == 0);
  CHECK(t->dl_tensor.strides[0] == 6);
  CHECK(t->dl_tensor.strides[1] == -2);
  SECTION("the consumer calls the deleter") {
    t->deleter(t);
    CHECK(released == 1);
  }
  SECTION("imported back, the memory lives as long as the last view") {
    auto b = xf::from_dlpack<float, 2, xf::host>(t);
    auto row = b(1);
    b = harray<float, 2>();
    CHECK(released == 0);
    CHECK(row.data() == storage.data() + 2 * 6 + 5);
    for (int j = 0; j < 3; ++j) CHECK(row.at(j) == values[2 * 6 + 5 - 2 * j]);
    row = harray<float, 1>();
    CHECK(released == 1);
  }
}

TEST_CASE("from_dlpack takes a hand-built tensor; the deleter runs once, after the last handle", "[host][interop]") {
  std::vector<double> data = uniform<double>(24, -10, 10);
  SECTION("C order (NULL strides): copies, views and expressions hold it") {
    hand_tensor<> h(data.data(), {dl::kDLCPU, 0}, dl::data_type_of<double>, {4, 6});
    auto make = [&] {
      auto a = xf::from_dlpack<double, 2, xf::host>(h.get());
      CHECK(a.data() == data.data());
      CHECK(a.strides() == xf::dims<2>{6, 1});
      CHECK(a.at(3, 5) == data[23]);
      auto copy = a;
      const auto t = a.T();
      CHECK(t.at(5, 3) == data[23]);
      a = harray<double, 2>();
      copy = harray<double, 2>();
      CHECK(h.deleted == 0);
      return t(xf::slice(1, 3)) * 2.0;  // a lazy expression: holds a handle to the memory
    };
    {
      const auto e = make();
      CHECK(h.deleted == 0);
      const harray<double, 2> r = e;
      CHECK(r.at(1, 2) == 2 * data[2 * 6 + 2]);
      CHECK(h.deleted == 0);
    }
    CHECK(h.deleted == 1);
    CHECK_FALSE(h.wrong_self);
  }
  SECTION("byte_offset and Fortran strides") {
    hand_tensor<> h(data.data(), {dl::kDLCPU, 0}, dl::data_type_of<double>, {3, 5}, {1, 4}, 2 * sizeof(double));
    {
      const auto a = xf::from_dlpack<double, 2, xf::host>(h.get());
      CHECK(a.data() == data.data() + 2);
      CHECK(a.strides() == xf::dims<2>{1, 4});
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 5; ++j) REQUIRE(a.at(i, j) == data[2 + i + 4 * j]);
      a.at(2, 4) = 123;
      CHECK(data[2 + 2 + 16] == 123);
    }
    CHECK(h.deleted == 1);
  }
  SECTION("0-d (NULL shape), pinned host memory (kDLCUDAHost), empty with NULL data") {
    hand_tensor<> h0(data.data() + 5, {dl::kDLCPU, 0}, dl::data_type_of<double>, {});
    CHECK(xf::from_dlpack<double, 0, xf::host>(h0.get()).item() == data[5]);
    CHECK(h0.deleted == 1);
    hand_tensor<> hp(data.data(), {dl::kDLCUDAHost, 0}, dl::data_type_of<double>, {24});
    CHECK(xf::from_dlpack<double, 1, xf::host>(hp.get())(7).item() == data[7]);
    CHECK(hp.deleted == 1);
    hand_tensor<> he(nullptr, {dl::kDLCPU, 0}, dl::data_type_of<double>, {0, 3});
    {
      const auto a = xf::from_dlpack<double, 2, xf::host>(he.get());
      CHECK(a.shape() == xf::dims<2>{0, 3});
      CHECK(a.empty());
      CHECK(he.deleted == 0);
    }
    CHECK(he.deleted == 1);
  }
  SECTION("DLManagedTensorVersioned, read-only only when asked") {
    hand_tensor<dl::DLManagedTensorVersioned> h(data.data(), {dl::kDLCPU, 0}, dl::data_type_of<double>, {2, 12});
    h.m.version.minor = 3;  // a later minor version reads the same
    xf::from_dlpack<double, 2, xf::host>(h.get());
    CHECK(h.deleted == 1);
    hand_tensor<dl::DLManagedTensorVersioned> r(data.data(), {dl::kDLCPU, 0}, dl::data_type_of<double>, {24});
    r.m.flags = dl::flag_read_only;
    CHECK_THROWS_AS((xf::from_dlpack<double, 1, xf::host>(r.get())), xf::error);
    CHECK(r.deleted == 0);
    CHECK(xf::from_dlpack<double, 1, xf::host>(r.get(), dl::accept_read_only)(23).item() == data[23]);
    CHECK(r.deleted == 1);
  }
}

TEST_CASE("from_dlpack refuses tensors that do not fit, and leaves them with the caller", "[host][interop]") {
  std::vector<float> data = uniform<float>(32, -1, 1);
  const dl::DLDevice cpu{dl::kDLCPU, 0};
  auto refused = [](auto& h, auto import, auto error_tag, const char* text) {
    using E = typename decltype(error_tag)::type;
    CHECK_THROWS_AS(import(h.get()), E);
    CHECK_THAT(message_of<E>([&] { import(h.get()); }), XF_CONTAINS(text));
    CHECK_THAT(message_of<E>([&] { import(h.get()); }), XF_CONTAINS("not consumed"));
    CHECK(h.deleted == 0);  // still the caller's
    h.release();
    CHECK(h.deleted == 1);
  };
  using dtype_e = std::type_identity<xf::dtype_error>;
  using shape_e = std::type_identity<xf::shape_error>;
  using device_e = std::type_identity<xf::device_error>;
  using error_e = std::type_identity<xf::error>;
  auto f32x2 = [](auto* t) { return xf::from_dlpack<float, 2, xf::host>(t); };
  SECTION("element type: code, bits, lanes") {
    hand_tensor<> f64(data.data(), cpu, dl::data_type_of<double>, {4, 4});
    refused(f64, f32x2, dtype_e{}, "holds float64, not float32");
    hand_tensor<> i32(data.data(), cpu, dl::data_type_of<std::int32_t>, {4, 8});
    refused(i32, f32x2, dtype_e{}, "int32");
    hand_tensor<> lanes(data.data(), cpu, {dl::kDLFloat, 32, 2}, {4, 4});
    refused(lanes, f32x2, dtype_e{}, "lanes");
    hand_tensor<> u8(data.data(), cpu, dl::data_type_of<std::uint8_t>, {4});
    refused(u8, [](auto* t) { return xf::from_dlpack<bool, 1, xf::host>(t); }, dtype_e{}, "uint8");
    hand_tensor<> bf(data.data(), cpu, dl::data_type_of<xf::bfloat16>, {4});
    refused(bf, [](auto* t) { return xf::from_dlpack<xf::half, 1, xf::host>(t); }, dtype_e{}, "bfloat16");
    hand_tensor<> fp8(data.data(), cpu, {dl::kDLFloat8_e4m3fn, 8, 1}, {4});
    refused(fp8, [](auto* t) { return xf::from_dlpack<std::uint8_t, 1, xf::host>(t); }, dtype_e{}, "code 10");
  }
  SECTION("rank and shape") {
    hand_tensor<> r3(data.data(), cpu, dl::data_type_of<float>, {2, 4, 4});
    refused(r3, f32x2, shape_e{}, "has 3 dimensions");
    hand_tensor<> neg(data.data(), cpu, dl::data_type_of<float>, {4, -1});
    refused(neg, f32x2, shape_e{}, "negative extent");
    hand_tensor<> noshape(data.data(), cpu, dl::data_type_of<float>, {4, 4});
    noshape.m.dl_tensor.shape = nullptr;
    refused(noshape, f32x2, shape_e{}, "null pointer");
  }
  SECTION("device") {
    hand_tensor<> cuda(data.data(), {dl::kDLCUDA, 0}, dl::data_type_of<float>, {4, 4});
    refused(cuda, f32x2, device_e{}, "kDLCUDA (id 0)");
    hand_tensor<> managed(data.data(), {dl::kDLCUDAManaged, 0}, dl::data_type_of<float>, {4, 4});
    refused(managed, f32x2, device_e{}, "kDLCUDAManaged");
    hand_tensor<> rocm(data.data(), {dl::kDLROCM, 1}, dl::data_type_of<float>, {4, 4});
    refused(rocm, f32x2, device_e{}, "kDLROCM (id 1)");
    hand_tensor<> host(data.data(), cpu, dl::data_type_of<float>, {4, 4});  // into a device array
    refused(host, [](auto* t) { return xf::from_dlpack<float, 2>(t); }, device_e{}, "takes kDLCUDA or kDLCUDAManaged");
  }
  SECTION("data pointer and byte_offset") {
    hand_tensor<> odd(data.data(), cpu, dl::data_type_of<float>, {4, 4}, {}, 2);
    refused(odd, f32x2, error_e{}, "not aligned for float32");
    hand_tensor<> null(nullptr, cpu, dl::data_type_of<float>, {4, 4});
    refused(null, f32x2, error_e{}, "null data pointer");
  }
  SECTION("versioned: major version, read-only") {
    hand_tensor<dl::DLManagedTensorVersioned> v2(data.data(), cpu, dl::data_type_of<float>, {4, 4});
    v2.m.version = {2, 0};
    refused(v2, f32x2, error_e{}, "DLPack version 2.0");
    hand_tensor<dl::DLManagedTensorVersioned> ro(data.data(), cpu, dl::data_type_of<float>, {4, 4});
    ro.m.flags = dl::flag_read_only | dl::flag_is_copied;
    refused(ro, f32x2, error_e{}, "read-only");
  }
  SECTION("a null tensor") {
    CHECK_THROWS_AS((xf::from_dlpack<float, 2, xf::host>(static_cast<dl::DLManagedTensor*>(nullptr))), xf::error);
  }
}

// ------------------------------------------------------------------------------------ mdspan

namespace {
// Every element of the mdspan against at(...), and writes through it land in the array.
template <class T>
void check_mdspan_2d(const harray<T, 2>& v) {
  const auto m = xf::as_mdspan(v);
  static_assert(std::is_same_v<std::remove_const_t<decltype(m)>, xf::strided_mdspan<T, 2>>);
  CHECK(m.data_handle() == v.data());
  for (int d = 0; d < 2; ++d) {
    CHECK(m.extent(d) == v.shape(d));
    if (v.size() > 0 && v.shape(d) > 1) CHECK(m.stride(d) == v.strides()[d]);
  }
  for (xf::index_t i = 0; i < v.shape(0); ++i)
    for (xf::index_t j = 0; j < v.shape(1); ++j) {
      REQUIRE(m(i, j) == v.at(i, j));
      REQUIRE(m[cuda::std::array<xf::index_t, 2>{i, j}] == v.at(i, j));
    }
  if (v.size() > 0) {
    m(v.shape(0) - 1, 0) = T(-7);
    CHECK(v.at(v.shape(0) - 1, 0) == T(-7));
  }
}
}  // namespace

TEST_CASE("as_mdspan of host arrays and their views", "[host][interop]") {
  const auto v = uniform<int>(6 * 7 * 5, -1000, 1000);
  const auto a = xf::asarray<int, xf::host>(v, {6, 7, 5});
  const harray<int, 2> b = a(xf::all, xf::all, 2).copy();
  check_mdspan_2d(b);
  check_mdspan_2d(b.T());
  check_mdspan_2d(b(xf::slice(1, 6, 2), xf::slice(0, 7, 3)));
  check_mdspan_2d(b.T()(xf::slice(2, xf::_)));
  check_mdspan_2d(b(xf::slice(2, 3)));           // extent 1
  check_mdspan_2d(b(xf::slice(3, 3)));           // empty
  check_mdspan_2d(a(xf::all, 4));                 // strides (35, 1)
  check_mdspan_2d(a(xf::all, xf::all, 1).T());    // strides (5, 35)
  const auto p = a.transpose({2, 0, 1})(xf::slice(1, xf::_), xf::slice(xf::_, xf::_, 2));
  const auto m = xf::as_mdspan(p);
  REQUIRE(m.rank() == 3);
  for (xf::index_t i = 0; i < p.shape(0); ++i)
    for (xf::index_t j = 0; j < p.shape(1); ++j)
      for (xf::index_t k = 0; k < p.shape(2); ++k) REQUIRE(m(i, j, k) == p.at(i, j, k));
  const auto m0 = xf::as_mdspan(a(5, 6, 4));
  CHECK(m0() == v.back());
  const auto x = xf::as_mdspan(b.expand_dims(1));  // extent 1 with stride 0: reported as 1
  CHECK(x.stride(1) == 1);
  CHECK(x(3, 0, 2) == b.at(3, 2));
}

TEST_CASE("as_mdspan refuses negative and zero strides", "[host][interop]") {
  const harray<float, 2> a({4, 5});
  CHECK_THROWS_AS(xf::as_mdspan(a.flip(1)), xf::error);
  CHECK_THAT(message_of<xf::error>([&] { (void)xf::as_mdspan(a(xf::slice(xf::_, xf::_, -1))); }),
             XF_CONTAINS("negative stride"));
  const auto broadcast = message_of<xf::error>([&] { (void)xf::as_mdspan(a(1).broadcast_to({3, 5})); });
  CHECK_THAT(broadcast, XF_CONTAINS("zero stride"));
  CHECK_THAT(broadcast, XF_CONTAINS(".copy()"));
  CHECK_NOTHROW(xf::as_mdspan(a.flip(1).copy()));
  CHECK_NOTHROW(xf::as_mdspan(a(xf::slice(3, 2, -1))));  // extent 1: its stride does not matter
  float raw[8] = {};
  const auto overlap = harray<float, 2>::wrap(raw, {3, 3}, {2, 1});  // element (0, 2) is element (1, 0)
  CHECK_THAT(message_of<xf::error>([&] { (void)xf::as_mdspan(overlap); }), XF_CONTAINS("interleave"));
}

TEST_CASE("from_mdspan wraps an mdspan without copying", "[host][interop]") {
  std::vector<double> data = uniform<double>(12, -1, 1);
  SECTION("layout_right, layout_left, static extents") {
    cuda::std::mdspan<double, cuda::std::dextents<int, 2>> right(data.data(), 3, 4);
    const auto r = xf::from_mdspan<xf::host>(right);
    static_assert(std::is_same_v<decltype(r), const harray<double, 2>>);
    CHECK(r.data() == data.data());
    CHECK(r.strides() == xf::dims<2>{4, 1});
    CHECK(r.at(2, 3) == data[11]);
    cuda::std::mdspan<double, cuda::std::dextents<std::size_t, 2>, cuda::std::layout_left> left(data.data(), 3, 4);
    const auto l = xf::from_mdspan<xf::host>(left);
    CHECK(l.strides() == xf::dims<2>{1, 3});
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) REQUIRE(l.at(i, j) == left(i, j));
    cuda::std::mdspan<double, cuda::std::extents<unsigned, 2, 3, 2>> fixed(data.data());
    const auto f = xf::from_mdspan<xf::host>(fixed);
    CHECK(f.shape() == xf::dims<3>{2, 3, 2});
    CHECK(f.at(1, 2, 1) == data[11]);
    f.at(0, 0, 1) = 5;  // writes reach the memory
    CHECK(data[1] == 5);
  }
  SECTION("as_mdspan and back: the same view") {
    const auto a = xf::asarray<double, xf::host>(data, {3, 4});
    const auto t = a.T()(xf::slice(1, xf::_));
    const auto b = xf::from_mdspan<xf::host>(xf::as_mdspan(t));
    CHECK(b.data() == t.data());
    CHECK(b.shape() == t.shape());
    CHECK(b.strides() == t.strides());
    CHECK(xf::to_host(b) == xf::to_host(t));
    CHECK(xf::from_mdspan<xf::host>(xf::as_mdspan(a(1, 2))).item() == data[6]);
  }
  SECTION("a keep-alive is held until the last handle goes") {
    int released = 0;
    {
      const cuda::std::mdspan<double, cuda::std::dextents<xf::index_t, 1>> m(data.data(), 12);
      auto w = xf::from_mdspan<xf::host>(m, release_counter(&released));
      auto v = w(xf::slice(xf::_, xf::_, 3));
      w = harray<double, 1>();
      CHECK(released == 0);
      CHECK(v.at(3) == data[9]);
    }
    CHECK(released == 1);
  }
}

// ------------------------------------------------------------------------------------ iterators

TEMPLATE_TEST_CASE("begin / end of host arrays work with the standard algorithms", "[host][interop]", std::int32_t,
                   std::uint8_t, std::int64_t, float, double) {
  using T = TestType;
  const auto v = uniform<T>(1000, -100, 100);
  auto a = xf::asarray<T, xf::host>(v);
  static_assert(std::is_same_v<decltype(xf::begin(a)), T*>);
  static_assert(std::is_same_v<decltype(xf::end(a)), T*>);
  CHECK(xf::end(a) - xf::begin(a) == 1000);
  std::sort(xf::begin(a), xf::end(a));
  auto sorted = v;
  std::sort(sorted.begin(), sorted.end());
  CHECK(xf::to_host(a) == sorted);
  // A contiguous part of a 2-d array, in C order.
  auto m = xf::asarray<T, xf::host>(v, {10, 100});
  auto rows = m(xf::slice(2, 5));
  CHECK(xf::begin(rows) == m.data() + 200);
  std::reverse(xf::begin(rows), xf::end(rows));
  CHECK(m.at(2, 0) == v[499]);
  CHECK(m.at(4, 99) == v[200]);
  CHECK(m.at(5, 0) == v[500]);
  CHECK(std::accumulate(xf::begin(m(7)), xf::end(m(7)), 0.0) ==
        std::accumulate(v.begin() + 700, v.begin() + 800, 0.0));
}

TEST_CASE("begin / end: other ranks, empty arrays, non-contiguous views", "[host][interop]") {
  auto a = xf::asarray<int, xf::host>({5, 3, 1, 4, 2, 0}, {2, 3});
  const auto z = a(1, 2);
  CHECK(xf::end(z) - xf::begin(z) == 1);
  CHECK(*xf::begin(z) == 0);
  const auto e = a(xf::slice(1, 1));
  CHECK(xf::begin(e) == xf::end(e));
  CHECK_THROWS_AS(xf::begin(a.T()), xf::error);
  CHECK_THROWS_AS(xf::end(a(xf::all, 1)), xf::error);
  CHECK_THAT(message_of<xf::error>([&] { (void)xf::begin(a.flip(0)); }), XF_CONTAINS("not C-contiguous"));
  CHECK_NOTHROW(xf::begin(a.T().copy()));
  // Device arrays give thrust::device_ptr (an empty handle: no device needed).
  const xf::array<float, 1> d;
  static_assert(std::is_same_v<decltype(xf::begin(d)), thrust::device_ptr<float>>);
  CHECK(xf::begin(d) == xf::end(d));
  // `using namespace xf` leaves begin(v) on standard containers to std::begin.
  using namespace xf;
  std::vector<int> w{3, 1, 2};
  std::sort(begin(w), end(w));
  CHECK(w == std::vector<int>{1, 2, 3});
}

TEST_CASE("doc: interchange", "[host][interop][docs]") {
  // example-begin interop
  auto a = xf::asarray<float, xf::host>({3, 1, 2, 6, 5, 4}, {2, 3});
  xf::dlpack::DLManagedTensor* t = xf::to_dlpack(a);  // for another library, which calls t->deleter(t)
  auto b = xf::from_dlpack<float, 2, xf::host>(t);    // or take one: same memory, b owns t now
  auto m = xf::as_mdspan(a.T());                      // cuda::std::mdspan (layout_stride): m(2, 0) is a(0, 2)
  std::sort(xf::begin(a), xf::end(a));                // float* here; thrust::device_ptr<float> on a device array
  // example-end
  CHECK(b.data() == a.data());
  CHECK(m(2, 0) == 3);
  CHECK(xf::to_host(b) == std::vector<float>{1, 2, 3, 4, 5, 6});
}
