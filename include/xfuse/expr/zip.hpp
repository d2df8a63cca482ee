// SPDX-License-Identifier: Apache-2.0
// Several expressions evaluated at the same element as one: the plans of several reductions in one
// pass (reduce/together.hpp) and of several assignments in one kernel (exec/assign_together.hpp)
// zip their expressions, so one walk reads every input once and yields a tuple of values.
#pragma once

#include <type_traits>
#include <utility>

#include "../base/shape.hpp"
#include "traits.hpp"

namespace xf::detail {

// The values of several evaluators at one element, as a tuple: of their own types (Out void), or
// each converted to the type of Out's component, as an assignment converts.
template <class Out, class... Parts>
struct zip_eval {
  tuple<Parts...> parts;
  template <class Point>
  XF_HD XF_FORCEINLINE auto operator()(const Point& point) const {
    return [&]<int... I>(std::integer_sequence<int, I...>) {
      using Values = std::conditional_t<std::is_void_v<Out>, tuple<std::remove_cvref_t<decltype(get<I>(parts)(point))>...>, Out>;
      return Values{{tuple_leaf<I, tuple_element_t<I, Values>>{converted<tuple_element_t<I, Values>>(get<I>(parts)(point))}...}};
    }(std::make_integer_sequence<int, sizeof...(Parts)>{});
  }
  // As `Out o = v;` in an assignment's kernel (implicit conversion).
  template <class T, class V>
  XF_HD XF_FORCEINLINE static T converted(const V& v) {
    return v;
  }
};

// Expressions seen as one whose value is the tuple of theirs (their leaves in order; Out as in
// zip_eval). Only plans read it: it is not an expression users can combine. Its shape is the
// first's: a reduction zips expressions of one shape, an assignment broadcasts each to its
// destination's.
template <class Out, class... Es>
class zipped {
 public:
  using first_type = std::remove_cvref_t<decltype(get<0>(std::declval<tuple<Es...>>()))>;
  static constexpr int rank = rank_v<first_type>;
  using space = common_space_t<space_t<Es>...>;

  explicit zipped(const Es&... es) : parts_{detail::make_tuple(es...)} {}

  dims<rank> shape() const { return get<0>(parts_).shape(); }
  auto leaves() const {
    return [&]<int... I>(std::integer_sequence<int, I...>) {
      return detail::tuple_cat(tuple<>{}, get<I>(parts_).leaves()...);
    }(parts());
  }
  template <int First>
  auto evaluator() const {
    return [&]<int... I>(std::integer_sequence<int, I...>) {
      return zip_eval<Out, decltype(get<I>(parts_).template evaluator<First + offset_of<I>()>())...>{
          detail::make_tuple(get<I>(parts_).template evaluator<First + offset_of<I>()>()...)};
    }(parts());
  }

 private:
  static constexpr auto parts() { return std::make_integer_sequence<int, sizeof...(Es)>{}; }
  template <int I>
  static constexpr int offset_of() {
    constexpr int counts[] = {std::remove_cvref_t<Es>::leaf_count..., 0};
    int o = 0;
    for (int i = 0; i < I; ++i) o += counts[i];
    return o;
  }
  tuple<Es...> parts_;
};

}  // namespace xf::detail
