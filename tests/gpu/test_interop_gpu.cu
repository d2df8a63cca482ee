// Interchange on device arrays: DLPack tensors of device memory (device type and id, round trips
// sharing memory, tensors over cudaMalloc and managed memory built by hand, refusals that leave
// the tensor with the caller), cuda::std::mdspan views passed to kernels of our own, and Thrust
// algorithms over xf::begin / xf::end.
#include <algorithm>
#include <numeric>

#include <thrust/execution_policy.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

#include "../common/device_check.hpp"
#include "../common/interop_cases.hpp"

using namespace xf_test;
namespace dl = xf::dlpack;

namespace {

// Device memory from cudaMalloc, freed at the end of the scope.
struct cuda_memory {
  void* p = nullptr;
  explicit cuda_memory(std::size_t bytes, bool managed = false) {
    REQUIRE((managed ? cudaMallocManaged(&p, bytes) : cudaMalloc(&p, bytes)) == cudaSuccess);
  }
  ~cuda_memory() { cudaFree(p); }
  cuda_memory(const cuda_memory&) = delete;
  cuda_memory& operator=(const cuda_memory&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

template <class T>
void upload(T* dst, const std::vector<T>& v) {
  REQUIRE(cudaMemcpy(dst, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
}

template <class T, int R>
void require_same_values(const xf::array<T, R>& got, const xf::array<T, R>& want) {
  const auto g = xf::to_host(got);
  const auto w = xf::to_host(want);
  REQUIRE(g.size() == w.size());
  for (std::size_t i = 0; i < w.size(); ++i) REQUIRE(close<T>(g[i], w[i], 0, 0));
}

template <class T>
void device_round_trips() {
  const auto v = uniform<T>(4 * 6 * 5, -100, 100);
  const auto a = xf::asarray<T>(v, {4, 6, 5});
  auto one = [](const auto& x) {
    using X = std::remove_cvref_t<decltype(x)>;
    using V = xf::value_t<X>;
    constexpr int R = X::rank;
    for (int versioned = 0; versioned < 2; ++versioned) {
      const long refs = x.buffer().use_count();
      xf::array<V, R> b;
      if (versioned) {
        auto* t = xf::to_dlpack_versioned(x);
        check_exported(t, x);
        b = xf::from_dlpack<V, R>(t);
      } else {
        auto* t = xf::to_dlpack(x);
        check_exported(t, x);
        b = xf::from_dlpack<V, R>(t);
      }
      CHECK(b.data() == x.data());
      CHECK(b.shape() == x.shape());
      CHECK(b.strides() == x.strides());
      CHECK(b.device_id() == x.device_id());
      CHECK(x.buffer().use_count() == refs + 1);
      require_same_values(b, x);
      b = xf::array<V, R>();
      CHECK(x.buffer().use_count() == refs);
    }
  };
  one(a);
  one(a(xf::slice(xf::_, xf::_, -1), xf::slice(1, 6, 2), 3));
  one(a.transpose({1, 2, 0}));
  one(a(3, 5, 4));
  one(a(1).broadcast_to({3, 6, 5}));
}

}  // namespace

TEMPLATE_TEST_CASE("DLPack round trips of device arrays share memory", "[gpu][interop]", bool, std::int8_t,
                   std::uint16_t, std::int32_t, std::int64_t, xf::half, xf::bfloat16, float, double, xf::complex64,
                   xf::complex128) {
  device_round_trips<TestType>();
}

TEST_CASE("an exported device tensor keeps the memory alive; the device id is the array's", "[gpu][interop]") {
  const auto v = uniform<float>(1000, -1, 1);
  cuda_memory mem(v.size() * sizeof(float));
  upload(mem.as<float>(), v);
  int released = 0;
  dl::DLManagedTensor* t = nullptr;
  {
    const auto w = xf::array<float, 1>::wrap(mem.as<float>(), {1000}, release_counter(&released));
    t = xf::to_dlpack(w(xf::slice(10, 900, 7)));
    CHECK(t->dl_tensor.device.device_type == dl::kDLCUDA);
    CHECK(t->dl_tensor.device.device_id == xf::device::current_id());
    CHECK(t->dl_tensor.strides[0] == 7);
  }
  CHECK(released == 0);
  {
    auto b = xf::from_dlpack<float, 1>(t);
    CHECK(b.data() == mem.as<float>() + 10);
    const auto h = xf::to_host(b * 2.0f);  // a kernel over the imported memory
    for (std::size_t i = 0; i < h.size(); ++i) REQUIRE(h[i] == v[10 + 7 * i] * 2.0f);
    CHECK(released == 0);
  }
  CHECK(released == 1);
  if (xf::device::count() > 1) {
    xf::device_guard g(1);
    const auto d1 = xf::asarray<int>({1, 2, 3});
    auto* t1 = xf::to_dlpack(d1);
    CHECK(t1->dl_tensor.device.device_id == 1);
    t1->deleter(t1);
  }
}

TEST_CASE("from_dlpack of device memory from elsewhere", "[gpu][interop]") {
  const auto v = uniform<double>(64, -10, 10);
  const int dev = xf::device::current_id();
  SECTION("cudaMalloc memory, strides and byte_offset; released after the last handle") {
    cuda_memory mem(v.size() * sizeof(double));
    upload(mem.as<double>(), v);
    hand_tensor<> h(mem.p, {dl::kDLCUDA, dev}, dl::data_type_of<double>, {5, 6}, {1, 10}, 3 * sizeof(double));
    {
      const auto a = xf::from_dlpack<double, 2>(h.get());
      CHECK(a.data() == mem.as<double>() + 3);
      CHECK(a.device_id() == dev);
      const auto got = xf::to_host(a);
      for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 6; ++j) REQUIRE(got[i * 6 + j] == v[3 + i + 10 * j]);
      a.assign(a + 1.0);  // written in place, through the tensor's strides
      xf::synchronize();
      CHECK(h.deleted == 0);
    }
    CHECK(h.deleted == 1);
    std::vector<double> back(v.size());
    REQUIRE(cudaMemcpy(back.data(), mem.p, v.size() * sizeof(double), cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(back[3 + 2 + 10 * 4] == v[3 + 2 + 10 * 4] + 1.0);
    CHECK(back[2] == v[2]);
  }
  SECTION("managed memory (kDLCUDAManaged)") {
    cuda_memory mem(v.size() * sizeof(double), true);
    std::copy(v.begin(), v.end(), mem.as<double>());
    hand_tensor<dl::DLManagedTensorVersioned> h(mem.p, {dl::kDLCUDAManaged, 0}, dl::data_type_of<double>, {64});
    {
      const auto a = xf::from_dlpack<double, 1>(h.get());
      CHECK(a.data() == mem.as<double>());
      CHECK(xf::to_host(a * 1.0) == v);  // a kernel reads the managed memory
      CHECK(h.deleted == 0);
    }
    CHECK(h.deleted == 1);
  }
  SECTION("an empty tensor with a NULL pointer: a new empty array, the tensor released at once") {
    hand_tensor<> h(nullptr, {dl::kDLCUDA, dev}, dl::data_type_of<double>, {0, 4});
    const auto a = xf::from_dlpack<double, 2>(h.get());
    CHECK(a.shape() == xf::dims<2>{0, 4});
    CHECK(a.device_id() == dev);
    CHECK(h.deleted == 1);
  }
  SECTION("refusals leave the tensor with the caller") {
    cuda_memory mem(v.size() * sizeof(double));
    std::vector<double> host_data = v;
    auto refused = [](auto& h, auto import, auto error_tag, const char* text) {
      using E = typename decltype(error_tag)::type;
      CHECK_THAT(message_of<E>([&] { import(h.get()); }), XF_CONTAINS(text));
      CHECK(h.deleted == 0);
      h.release();
      CHECK(h.deleted == 1);
    };
    auto d2 = [](auto* t) { return xf::from_dlpack<double, 2>(t); };
    using device_e = std::type_identity<xf::device_error>;
    hand_tensor<> host_memory(host_data.data(), {dl::kDLCUDA, dev}, dl::data_type_of<double>, {8, 8});
    refused(host_memory, d2, device_e{}, "not device memory");
    hand_tensor<> wrong_id(mem.p, {dl::kDLCUDA, dev + 1}, dl::data_type_of<double>, {8, 8});
    refused(wrong_id, d2, device_e{}, "its data is on device");
    hand_tensor<> as_host(mem.p, {dl::kDLCUDA, dev}, dl::data_type_of<double>, {8, 8});
    refused(as_host, [](auto* t) { return xf::from_dlpack<double, 2, xf::host>(t); }, device_e{},
            "takes kDLCPU or kDLCUDAHost");
    hand_tensor<> wrong_type(mem.p, {dl::kDLCUDA, dev}, dl::data_type_of<float>, {8, 8});
    refused(wrong_type, d2, std::type_identity<xf::dtype_error>{}, "holds float32, not float64");
  }
}

// ------------------------------------------------------------------------------------ mdspan

namespace {

// Reads and writes through a strided view: m(i, j, k) = 2 m(i, j, k) + i - 3 j + 5 k.
__global__ void update3(xf::strided_mdspan<float, 3> m) {
  const xf::index_t n = m.extent(0) * m.extent(1) * m.extent(2);
  for (xf::index_t t = blockIdx.x * static_cast<xf::index_t>(blockDim.x) + threadIdx.x; t < n;
       t += static_cast<xf::index_t>(gridDim.x) * blockDim.x) {
    const xf::index_t i = t / (m.extent(1) * m.extent(2)), j = t / m.extent(2) % m.extent(1), k = t % m.extent(2);
    m(i, j, k) = 2 * m(i, j, k) + static_cast<float>(i - 3 * j + 5 * k);
  }
}

// Writes the flat position through a 2-d view (layout_stride::mapping gives the memory offset).
__global__ void positions2(xf::strided_mdspan<std::int64_t, 2> m) {
  const xf::index_t i = blockIdx.x, j = threadIdx.x;
  if (i < m.extent(0) && j < m.extent(1)) m(i, j) = m.mapping()(i, j) * 1000 + i * m.extent(1) + j;
}

}  // namespace

TEST_CASE("as_mdspan of device views in a kernel of our own matches the host", "[gpu][interop]") {
  const auto v = uniform<float>(6 * 8 * 10, -1, 1);
  const auto d = xf::asarray<float>(v, {6, 8, 10});
  const auto h = xf::asarray<float, xf::host>(v, {6, 8, 10});
  auto view = [](const auto& a) {
    return a(xf::slice(1, xf::_, 2), xf::all, xf::slice(0, xf::_, 2)).transpose({2, 0, 1});
  };
  const auto dv = view(d);
  const auto hv = view(h);
  REQUIRE(dv.shape() == xf::dims<3>{5, 3, 8});
  // Every third of 10 columns spans 12 > 10 elements: the rows interleave, which layout_stride refuses.
  CHECK_THROWS_WITH(xf::as_mdspan(d(xf::all, xf::all, xf::slice(0, xf::_, 3))), XF_CONTAINS("interleave"));
  update3<<<4, 32>>>(xf::as_mdspan(dv));
  REQUIRE(cudaGetLastError() == cudaSuccess);
  // The host reference through the same view.
  for (xf::index_t i = 0; i < hv.shape(0); ++i)
    for (xf::index_t j = 0; j < hv.shape(1); ++j)
      for (xf::index_t k = 0; k < hv.shape(2); ++k)
        hv.at(i, j, k) = 2 * hv.at(i, j, k) + static_cast<float>(i - 3 * j + 5 * k);
  // Every element of the whole array: the view's changed, the rest untouched.
  const auto got = xf::to_host(d);
  const float* want = h.data();
  for (std::size_t i = 0; i < v.size(); ++i) REQUIRE(close<float>(got[i], want[i], 4 * eps<float>(), 1e-6));

  const xf::array<std::int64_t, 2> p = xf::zeros<std::int64_t>({9, 12});
  const auto t = p.T()(xf::slice(2, 11));  // shape (9, 9), strides (1, 12)
  positions2<<<9, 9>>>(xf::as_mdspan(t));
  REQUIRE(cudaGetLastError() == cudaSuccess);
  const auto flat = xf::to_host(p);
  for (xf::index_t i = 0; i < 9; ++i)
    for (xf::index_t j = 0; j < 9; ++j) {
      const xf::index_t offset = i + j * 12;  // t(i, j) is p(j, i + 2): 2 + offset in p's memory
      REQUIRE(flat[static_cast<std::size_t>(2 + offset)] == offset * 1000 + i * 9 + j);
    }
  CHECK_THROWS_AS(xf::as_mdspan(d.flip(2)), xf::error);
}

TEST_CASE("from_mdspan of device memory", "[gpu][interop]") {
  const auto v = uniform<int>(48, -50, 50);
  cuda_memory mem(v.size() * sizeof(int));
  upload(mem.as<int>(), v);
  cuda::std::mdspan<int, cuda::std::dextents<int, 2>, cuda::std::layout_left> m(mem.as<int>(), 6, 8);
  const auto a = xf::from_mdspan(m);
  static_assert(std::is_same_v<decltype(a), const xf::array<int, 2>>);
  CHECK(a.data() == mem.as<int>());
  CHECK(a.strides() == xf::dims<2>{1, 6});
  CHECK(a.device_id() == xf::device::current_id());
  const auto got = xf::to_host(a);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 8; ++j) REQUIRE(got[i * 8 + j] == v[i + 6 * j]);
  std::vector<int> host(v);
  cuda::std::mdspan<int, cuda::std::dextents<int, 1>> hm(host.data(), 48);
  CHECK_THROWS_AS(xf::from_mdspan(hm), xf::device_error);  // host memory as a device array
  CHECK(xf::from_mdspan(cuda::std::mdspan<int, cuda::std::dextents<int, 1>>(nullptr, 0)).size() == 0);
}

// ------------------------------------------------------------------------------------ Thrust

namespace {
template <class T>
void thrust_sort_and_reduce() {
  const auto v = uniform<T>(100'003, -1000, 1000);
  auto a = xf::asarray<T>(v);
  static_assert(std::is_same_v<decltype(xf::begin(a)), thrust::device_ptr<T>>);
  REQUIRE(xf::end(a) - xf::begin(a) == static_cast<std::ptrdiff_t>(v.size()));
  thrust::sort(xf::begin(a), xf::end(a));
  auto sorted = v;
  std::sort(sorted.begin(), sorted.end());
  CHECK(xf::to_host(a) == sorted);
  if constexpr (xf::is_integer<T>) {
    const auto sum = thrust::reduce(xf::begin(a), xf::end(a), std::int64_t{0});
    CHECK(sum == std::accumulate(v.begin(), v.end(), std::int64_t{0}));
  } else {
    const double sum = thrust::reduce(xf::begin(a), xf::end(a), 0.0);
    const double want = std::accumulate(v.begin(), v.end(), 0.0);
    CHECK(std::fabs(sum - want) <= 1e-9 * std::accumulate(v.begin(), v.end(), 0.0, [](double s, T x) {
            return s + std::fabs(static_cast<double>(x));
          }));
  }
}
}  // namespace

TEMPLATE_TEST_CASE("thrust::sort and thrust::reduce over xf::begin / xf::end of device arrays", "[gpu][interop]",
                   std::int32_t, std::uint8_t, std::int64_t, float, double) {
  thrust_sort_and_reduce<TestType>();
}

TEST_CASE("Thrust on a contiguous part, on xfuse's current stream; non-contiguous views throw", "[gpu][interop]") {
  const auto v = uniform<float>(20 * 50, -1, 1);
  xf::stream s(xf::stream::non_blocking);
  xf::stream_guard g(s);
  auto m = xf::asarray<float>(v, {20, 50});
  auto rows = m(xf::slice(5, 9));  // rows 5..8: contiguous
  thrust::sort(thrust::cuda::par.on(xf::current_stream().handle()), xf::begin(rows), xf::end(rows));
  const auto got = xf::to_host(m);
  auto want = v;
  std::sort(want.begin() + 250, want.begin() + 450);
  CHECK(got == want);
  CHECK_THROWS_AS(xf::begin(m.T()), xf::error);
  CHECK_THROWS_AS(xf::end(m(xf::all, 3)), xf::error);
  const xf::array<float, 1> empty = xf::zeros<float>({0});
  CHECK(thrust::reduce(xf::begin(empty), xf::end(empty), 0.0f) == 0.0f);
}
