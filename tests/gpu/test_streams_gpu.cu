// Devices, streams and events: guards restore on every exit path, work is ordered on the current
// stream, events time real kernels and order streams, memory is freed on its own stream.
#include <stdexcept>
#include <vector>

#include "../common/device_check.hpp"

using namespace xf_test;

TEST_CASE("device queries are cached and guards restore the device", "[gpu][device]") {
  REQUIRE(xf::device::count() >= 1);
  const xf::device d;
  CHECK(d.id() == xf::device::current_id());
  CHECK(d.multiprocessor_count() > 0);
  CHECK(d.total_memory() > (1u << 30));
  CHECK(&d.properties() == &xf::device(d.id()).properties());  // cached, not queried again
  CHECK_THROWS_AS(xf::device(xf::device::count()), xf::device_error);
  CHECK_THROWS_AS(xf::device_guard(-1), xf::device_error);
  try {
    xf::device_guard g(0);
    throw std::runtime_error("leave the scope by an exception");
  } catch (const std::runtime_error&) {
  }
  CHECK(xf::device::current_id() == d.id());
}

TEST_CASE("stream_guard makes a stream current and restores on exceptions", "[gpu][stream]") {
  const cudaStream_t before = xf::current_stream().handle();
  CHECK(before == cudaStreamPerThread);
  xf::stream s(xf::stream::non_blocking);
  try {
    xf::stream_guard g(s);
    CHECK(xf::current_stream() == s);
    {
      xf::stream inner;
      xf::stream_guard g2(inner);
      CHECK(xf::current_stream() == inner);
    }
    CHECK(xf::current_stream() == s);
    throw std::runtime_error("out");
  } catch (const std::runtime_error&) {
  }
  CHECK(xf::current_stream().handle() == before);
}

// Values and order only (timing thresholds belong in bench/): what a stream computed once its
// event is reached, and that events recorded in order on one stream are reached in that order.
TEST_CASE("work on a stream is ordered there; events time and order it", "[gpu][stream][event]") {
  const std::size_t n = 1 << 24;
  xf::stream producer(xf::stream::non_blocking), consumer(xf::stream::non_blocking);
  xf::array<float, 1> x;
  xf::event ready;
  {
    xf::stream_guard g(producer);
    xf::event start, stop;
    start.record();
    x = xf::arange<float>(static_cast<xf::index_t>(n));
    x *= 2;
    stop.record();
    stop.synchronize();
    CHECK(stop.done());
    CHECK(start.done());  // recorded before stop on the same stream
    // stop's wait covered the kernels before it: their values are there, read without another wait
    // on the producer (a copy on the consumer stream, which has nothing queued).
    std::vector<float> h(n);
    XF_CUDA_CHECK(cudaMemcpyAsync(h.data(), x.data(), n * sizeof(float), cudaMemcpyDeviceToHost, consumer.handle()));
    consumer.synchronize();
    for (std::size_t i = 0; i < n; i += 4099) REQUIRE(h[i] == 2.f * static_cast<float>(i));
    REQUIRE(h[n - 1] == 2.f * static_cast<float>(n - 1));
    x += 1;
    ready.record();
    ready.synchronize();
    // Events on one stream are reached in the order they were recorded.
    const float to_stop = xf::elapsed_ms(start, stop), to_ready = xf::elapsed_ms(start, ready);
    CHECK(to_stop >= 0.0f);
    CHECK(to_ready >= to_stop);
    CHECK(xf::elapsed_ms(stop, ready) >= 0.0f);
  }
  {
    xf::stream_guard g(consumer);
    consumer.wait(ready);  // the consumer sees the producer's writes without a host wait
    const xf::array<float, 1> y = x * 0.5f;
    const auto h = xf::to_host(y);
    for (std::size_t i = 0; i < n; i += 4099) REQUIRE(h[i] == (2.f * static_cast<float>(i) + 1.f) * 0.5f);
  }
  producer.synchronize();
  CHECK(producer.done());
}

TEST_CASE("memory allocated on a stream is freed there, even after the stream handle is gone", "[gpu][stream][memory]") {
  auto pool = xf::get_default_memory_pool();
  const std::size_t used0 = pool.used_bytes();
  xf::array<double, 1> survivor;
  {
    xf::stream s;
    xf::stream_guard g(s);
    survivor = xf::linspace(0.0, 1.0, 1 << 20);
  }  // the stream object is gone; the array keeps the stream alive until it is freed
  CHECK(xf::to_host(survivor).back() == 1.0);
  survivor = xf::array<double, 1>();
  CHECK(pool.used_bytes() == used0);
}

TEST_CASE("two streams run independent work concurrently and correctly", "[gpu][stream]") {
  xf::stream s1(xf::stream::non_blocking), s2(xf::stream::non_blocking);
  xf::array<std::int32_t, 1> a, b;
  {
    xf::stream_guard g(s1);
    a = xf::arange<std::int32_t>(1 << 22) * 3;
  }
  {
    xf::stream_guard g(s2);
    b = xf::arange<std::int32_t>(1 << 22) - 7;
  }
  s1.synchronize();
  s2.synchronize();
  const auto ha = xf::to_host(a), hb = xf::to_host(b);
  for (std::size_t i = 0; i < ha.size(); i += 1001) {
    REQUIRE(ha[i] == 3 * static_cast<std::int32_t>(i));
    REQUIRE(hb[i] == static_cast<std::int32_t>(i) - 7);
  }
}
