// The layout and plan code that the kernels and the host loop share (exec/layout.hpp,
// operands.hpp, positions.hpp, host_loop.hpp, the reductions' split of a layout), against brute
// force: each element's position computed from shape and strides alone, over random shapes,
// strides and views of ranks 0 to 6 (tests/common/layout_cases.hpp). The GPU suite compares its
// kernels with the host evaluator, so a mistake here would be invisible to it. And the device
// reductions' launch decisions (reduce/config.hpp), which a wrong answer would not reveal either
// (every configuration gives the same sums): each case's lanes and splits worked out from the
// policy's rules by hand.
#include <xfuse/exec/operands.hpp>
#include <xfuse/exec/positions.hpp>
#include <xfuse/reduce/config.hpp>

#include "../common/layout_cases.hpp"

using namespace xf_test::layouts;

namespace {

using position_tuple = std::array<index_t, 4>;  // output, then leaves 0, 1 and 2

// make_layout over the output's strides and three leaves' broadcast strides (broadcast_strides):
// layout_positions of every flat index q must give, as a set, each output element once with the
// positions its leaves read. The 32-bit walk, where fits_32_bits allows it, must give the same
// positions, which must then all fit in 31 bits.
template <int R>
void collapsed_layouts(int trials, index_t max_extent) {
  constexpr int L = 3, RB = R > 0 ? R - 1 : 0;
  using lay_t = xf::detail::layout<R, L>;
  for (int t = 0; t < trials; ++t) {
    const auto shape = random_shape<R>(max_extent);
    const auto out = distinct_view<R>(shape);
    const auto va = operand_view<R>(shape);
    const auto vb = operand_view<RB>(shape);
    auto vc = operand_view<R>(shape);
    if (chance(0.3)) {  // positions past 2^31: the 32-bit walk must be refused
      for (auto& s : vc.strides) s *= (index_t{1} << 27) + pick(0, 5);
      vc.first += pick(0, index_t{1} << 31);
    }
    index_t strides[lay_t::leaves][lay_t::max_rank] = {};
    xf::detail::broadcast_strides<R>(va.shape, va.strides, shape, strides[0]);
    xf::detail::broadcast_strides<R>(vb.shape, vb.strides, shape, strides[1]);
    xf::detail::broadcast_strides<R>(vc.shape, vc.strides, shape, strides[2]);
    const index_t base[lay_t::leaves] = {va.first, vb.first, vc.first};
    const auto lay = xf::detail::make_layout<R, L>(shape, out.strides, strides, base);
    INFO("shape " << text(shape) << ", output strides " << text(out.strides) << ", leaves " << text(va.strides) << " from "
                  << va.first << ", " << text(vb.shape) << " " << text(vb.strides) << " from " << vb.first << ", " << text(vc.strides)
                  << " from " << vc.first << "; collapsed to rank " << lay.rank);
    std::vector<position_tuple> want, got;
    bool wide = false;
    for_each_index<R>(shape, [&](const std::array<index_t, R>& i) {
      const position_tuple p{position(out, i) - out.first, position(va, i), position(vb, i), position(vc, i)};
      for (const index_t x : p) wide = wide || x >= (index_t{1} << 31) || x <= -(index_t{1} << 31);
      want.push_back(p);
    });
    REQUIRE(lay.size == static_cast<index_t>(want.size()));
    REQUIRE(lay.rank >= 1);
    const bool narrow = xf::detail::fits_32_bits(lay);
    if (wide) REQUIRE_FALSE(narrow);
    std::size_t narrow_differs = 0;
    for (index_t q = 0; q < lay.size; ++q) {
      index_t pos[lay_t::leaves], o = 0;
      xf::detail::layout_positions(lay, false, q, pos, o);
      got.push_back({o, pos[0], pos[1], pos[2]});
      if (narrow) {
        index_t pos32[lay_t::leaves], o32 = 0;
        xf::detail::layout_positions(lay, true, q, pos32, o32);
        narrow_differs += o32 != o || pos32[0] != pos[0] || pos32[1] != pos[1] || pos32[2] != pos[2];
      }
    }
    CHECK(narrow_differs == 0);
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    CHECK(got == want);
    // Collapsing keeps no extent-1 dimension and no more dimensions than extents above 1.
    int above_one = 0;
    for (const index_t e : shape) above_one += e > 1;
    if (lay.size > 1) {
      CHECK(lay.rank <= above_one);
      for (int d = 0; d < lay.rank; ++d) CHECK(lay.extent[d] > 1);
    }
  }
}

// Operands that walk the output's order contiguously, forwards or all reversed together, collapse
// to one dimension of every element.
template <int R>
void contiguous_collapses(int trials, index_t max_extent) {
  for (int t = 0; t < trials; ++t) {
    xf::dims<R> shape{}, c{};
    for (auto& e : shape) e = pick(2, max_extent);
    index_t s = 1;
    for (int d = R - 1; d >= 0; --d) {
      c[d] = s;
      s *= shape[d];
    }
    const bool reversed = chance(0.5);
    xf::dims<R> out_strides = c;
    index_t strides[3][xf::detail::layout<R, 3>::max_rank] = {}, base[3] = {};
    for (int k = 0; k < 3; ++k) {
      base[k] = reversed ? s - 1 : 0;
      for (int d = 0; d < R; ++d) strides[k][d] = reversed ? -c[d] : c[d];
    }
    if (reversed)
      for (auto& x : out_strides) x = -x;
    const auto lay = xf::detail::make_layout<R, 3>(shape, out_strides, strides, base);
    INFO("shape " << text(shape) << (reversed ? ", every stride reversed" : ""));
    CHECK(lay.rank == 1);
    CHECK(lay.extent[0] == s);
    CHECK(lay.out_stride[0] == 1);
    CHECK(lay.out_base == (reversed ? -(s - 1) : 0));
    for (int k = 0; k < 3; ++k) {
      CHECK(lay.stride[k][0] == 1);
      CHECK(lay.base[k] == 0);
    }
  }
}

}  // namespace

TEST_CASE("collapsed layouts visit every element once, at the positions of its shape and strides", "[layout][host]") {
  collapsed_layouts<0>(5, 1);
  collapsed_layouts<1>(200, 30);
  collapsed_layouts<2>(200, 12);
  collapsed_layouts<3>(200, 7);
  collapsed_layouts<4>(200, 5);
  collapsed_layouts<5>(200, 4);
  collapsed_layouts<6>(200, 4);
  contiguous_collapses<1>(10, 50);
  contiguous_collapses<3>(20, 6);
  contiguous_collapses<6>(20, 3);
}

TEST_CASE("expressions over random views write what brute force says: host loop", "[layout][host]") {
  expressions_of_every_rank<xf::host, std::int64_t>(60);
  expressions_of_every_rank<xf::host, std::int32_t>(30);
}

TEST_CASE("slices, transposes, new axes and broadcast_to read the positions they must: host arrays", "[layout][host]") {
  public_views<xf::host>(200);
}

TEST_CASE("reductions, scans and sorts of random views against long double: host arrays", "[layout][host][reduce]") {
  reductions_of_views<xf::host>(40, 8);
}

namespace {

// What choose_reduce_config reads of a reduction plan: one leaf in memory, E elements a chunk.
struct one_float_leaf {
  static constexpr bool in_memory = true;
  using value_type = float;
};
template <int E_>
struct reduce_plan_shape {
  static constexpr int L = 1, E = E_;
  using leaves_type = xf::detail::tuple<one_float_leaf>;
  struct {
    index_t size;
    int rank;
    index_t stride[1][1];
  } reduced;
  struct {
    index_t size;
  } kept;
};

reduce_plan_shape<4> reduction(index_t results, index_t elements, index_t stride) {
  reduce_plan_shape<4> p{};
  p.kept.size = results;
  p.reduced.size = elements;
  p.reduced.rank = 1;
  p.reduced.stride[0][0] = stride;
  return p;
}

struct few_splits : xf::detail::reduce_policy {
  static constexpr int min_elements_per_split_thread = 64;
};

}  // namespace

TEST_CASE("device reductions choose their lanes and splits by the policy's rules", "[reduce][host]") {
  using xf::detail::choose_reduce_config;
  const index_t slots = 132 * 5;  // an H100 holding five blocks an SM
  // sum of 1e8 contiguous floats: a block on the one result, split to fill one wave (660 splits,
  // under the 1e8 / (256 * 8) the elements allow), each split's share rounded up to whole chunks.
  auto c = choose_reduce_config(reduction(1, 100'000'000, 1), slots);
  CHECK((c.r_fast && c.r_lanes == 256 && c.o_lanes == 1 && c.splits == 660 && c.chunked));
  CHECK(c.chunk == 151516);  // ceil(1e8 / 660) = 151516, a multiple of 4
  // Row sums of 8192^2: a block a row, enough blocks for a wave, no split.
  c = choose_reduce_config(reduction(8192, 8192, 1), slots);
  CHECK((c.r_lanes == 256 && c.o_lanes == 1 && c.splits == 1 && c.chunk == 8192));
  // 2^20 rows of 64: a warp a row (64 < 8 * 256), eight rows a block.
  c = choose_reduce_config(reduction(1 << 20, 64, 1), slots);
  CHECK((c.r_fast && c.r_lanes == 32 && c.o_lanes == 8 && c.splits == 1));
  // Column sums of 8192^2 (the reduced elements 8192 apart): 32 results a block across threads, 8
  // lanes each; 256 blocks, so each column splits in 660 / 256 = 2.
  c = choose_reduce_config(reduction(8192, 8192, 8192), slots);
  CHECK((!c.r_fast && c.r_lanes == 8 && c.o_lanes == 32 && c.splits == 2 && c.chunk == 4096 && !c.chunked));
  // 1000 elements: a warp, and only 1000 / (32 * 8) = 3 splits (at least 8 elements a thread).
  c = choose_reduce_config(reduction(1, 1000, 1), slots);
  CHECK((c.r_lanes == 32 && c.splits == 3 && c.chunk == 336));  // ceil(1000 / 3) = 334, up to 336
  // A policy asking for 64 elements a thread leaves those 1000 elements unsplit.
  c = choose_reduce_config<reduce_plan_shape<4>, few_splits>(reduction(1, 1000, 1), slots);
  CHECK((c.splits == 1 && c.chunk == 1000));
}
