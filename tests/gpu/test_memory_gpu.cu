// The device memory pool: statistics back to where they started once arrays die, views keep
// memory alive, limits throw out_of_memory with statistics and the pool recovers, the pinned
// pool reuses its blocks.
#include <cstdlib>
#include <string>

#include "../common/device_check.hpp"

using namespace xf_test;

TEST_CASE("pool statistics follow arrays and return to where they started", "[gpu][memory]") {
  auto pool = xf::get_default_memory_pool();
  const std::size_t used0 = pool.used_bytes();
  {
    xf::array<float, 2> a({1000, 1000});
    CHECK(pool.used_bytes() == used0 + 4000256);  // 4 000 000 B rounded up to 512 B
    CHECK(pool.total_bytes() >= pool.used_bytes());
    xf::array<float, 1> row;
    {
      auto b = a;                  // shares: no new memory
      CHECK(pool.used_bytes() == used0 + 4000256);
      row = b(3);                  // a view keeps the whole buffer alive
    }
    xf::array<double, 1> c = xf::arange<double>(1000) * 2;  // one result, no temporaries
    CHECK(pool.used_bytes() == used0 + 4000256 + 8192);
  }
  CHECK(pool.used_bytes() == used0);
  // Freed memory stays cached for reuse; free_all_blocks hands it back.
  CHECK(pool.total_bytes() >= 4000256);
  pool.free_all_blocks();
  CHECK(pool.total_bytes() <= pool.used_bytes() + 64 * 1024 * 1024);
}

TEST_CASE("a pool limit throws out_of_memory and the pool recovers", "[gpu][memory][errors]") {
  auto pool = xf::get_default_memory_pool();
  const std::size_t used0 = pool.used_bytes();
  pool.set_limit(used0 + (64u << 20));
  xf::array<float, 1> keep({1 << 20});  // 4 MiB under the limit
  try {
    xf::array<float, 1> big({100 << 20});  // 400 MiB over it
    FAIL("no exception");
  } catch (const xf::out_of_memory& e) {
    CHECK(e.requested_bytes() == (std::size_t{400} << 20));
    CHECK(e.limit_bytes() == used0 + (64u << 20));
    CHECK(e.used_bytes() == pool.used_bytes());
    CHECK(std::string(e.what()).find("past the pool's limit") != std::string::npos);
  }
  CHECK(pool.used_bytes() == used0 + (4u << 20));
  // Everything still works: allocate, compute, read back.
  keep.assign(xf::arange<float>(1 << 20));
  CHECK(xf::to_host(keep)[12345] == 12345.f);
  // An expression that would need too much memory throws without leaking either.
  const xf::array<float, 1> x = xf::ones<float>({1 << 20});
  CHECK_THROWS_AS(xf::eval(xf::ones<float>({100 << 20}) + 1), xf::out_of_memory);
  pool.set_limit_fraction(0.0);  // removes the limit (0 = none)
  CHECK(pool.get_limit() == 0);
  CHECK_THROWS_AS(pool.set_limit_fraction(1.5), xf::error);
  pool.set_limit(0);
}

// Tagged [oom]: the failing cudaMallocFromPoolAsync is intended, so compute-sanitizer runs this case
// with API-error reports off (scripts/gpu_suite.sh).
TEST_CASE("out of device memory throws out_of_memory and the pool stays usable", "[gpu][memory][errors][oom]") {
  auto pool = xf::get_default_memory_pool();
  const std::size_t used0 = pool.used_bytes();
  const std::size_t too_much = xf::device().total_memory() * 2;
  CHECK_THROWS_AS(xf::empty<std::uint8_t>({static_cast<xf::index_t>(too_much)}), xf::out_of_memory);
  CHECK(pool.used_bytes() == used0);
  const xf::array<int, 1> ok = xf::arange<int>(100);
  CHECK(xf::to_host(ok)[99] == 99);
}

// Run on its own, in a process started with XFUSE_GPU_MEMORY_LIMIT=lots (scripts/gpu_suite.sh):
// the setting is read when the device's pool is made, so the first allocation must refuse it.
// The parser itself is tested in the host suite.
TEST_CASE("an unreadable XFUSE_GPU_MEMORY_LIMIT is an error at the first allocation", "[.][memory_setting]") {
  const char* setting = std::getenv("XFUSE_GPU_MEMORY_LIMIT");
  REQUIRE(setting != nullptr);
  REQUIRE(std::string(setting) == "lots");
  for (int attempt = 0; attempt < 2; ++attempt)  // every allocation, not only the first
    CHECK_THROWS_WITH(xf::empty<float>({16}), XF_CONTAINS("XFUSE_GPU_MEMORY_LIMIT='lots'") &&
                                                  XF_CONTAINS("is not a number"));
}

TEST_CASE("the pinned pool reuses blocks across transfers", "[gpu][memory]") {
  auto pinned = xf::get_pinned_memory_pool();
  const auto v = uniform<float>(1 << 18, -1, 1);
  auto a = xf::asarray<float>(v);
  CHECK(xf::to_host(a) == v);
  const std::size_t total = pinned.total_bytes();
  for (int i = 0; i < 10; ++i) {
    a = xf::asarray<float>(v);
    REQUIRE(xf::to_host(a) == v);
  }
  CHECK(pinned.total_bytes() == total);  // no new pinned memory: blocks were reused
  CHECK(pinned.used_bytes() == 0);
  pinned.free_all_blocks();
  CHECK(pinned.n_free_blocks() == 0);
}
