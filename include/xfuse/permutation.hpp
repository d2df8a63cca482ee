// SPDX-License-Identifier: Apache-2.0
// Random orderings (NumPy's Generator.permutation, shuffle and choice): a permutation is the
// argsort of one 64-bit random key per element (xf::random::integers, then xf::argsort: CUB's radix
// sort on the device), so it is uniform but for ties (probability below n^2 / 2^65) and stays in
// stream order; shuffling and choosing gather through it (xf::take). Values differ from NumPy's
// (another generator), their distribution does not.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "manip.hpp"
#include "random.hpp"
#include "sort.hpp"

namespace xf::random {

// Generator.permutation(n): the integers 0 .. n-1 in a random order, int64, in Space.
template <class Space = device>
array<std::int64_t, 1, Space> permutation(index_t n, generator& g) {
  if (n < 0) throw error("xf::random::permutation: n must be non-negative (got " + std::to_string(n) + ")");
  const array<std::uint64_t, 1, Space> keys = integers<std::uint64_t>(dims<1>{n}, g, 0, std::numeric_limits<std::int64_t>::max());
  return argsort(keys);
}

// Generator.permutation(a): a copy of a with its first axis in a random order.
template <class T, int R, class S>
array<T, R, S> permutation(const array<T, R, S>& a, generator& g) {
  static_assert(R >= 1, "xf::random::permutation: a 0-d array has no axis to permute");
  return take(a, permutation<S>(a.shape()[0], g), 0, "clip");
}

// Generator.shuffle(a): a's first axis put in a random order, in place (a may be any writable view).
template <class T, int R, class S>
void shuffle(const array<T, R, S>& a, generator& g) {
  a.assign(permutation(a, g));
}

// Generator.choice(a, size, replace): size elements of the 1-D a, drawn with replacement
// (uniform indices) or without (the first size of a permutation; size <= a's length).
template <class T, class S>
array<T, 1, S> choice(const array<T, 1, S>& a, index_t size, generator& g, bool replace = true) {
  const index_t n = a.shape()[0];
  if (size < 0) throw error("xf::random::choice: size must be non-negative (got " + std::to_string(size) + ")");
  if (n == 0 && size > 0) throw error("xf::random::choice: cannot take a sample from an empty array");
  if (replace) return take(a, array<std::int64_t, 1, S>(integers<std::int64_t>(dims<1>{size}, g, 0, n)), "clip");
  if (size > n)
    throw error("xf::random::choice: cannot take a larger sample (" + std::to_string(size) + ") than the population (" +
                std::to_string(n) + ") when replace is false");
  return take(a, permutation<S>(n, g)(slice(0, size)).copy(), "clip");
}

// Generator.choice(a, size, p=p): with replacement, element i with probability p[i] (p sums to 1
// within 1e-8, no negative entry; checked on the host, which reads p's sum and minimum). Inverse
// transform: a binary search of the running sum of p for each uniform draw.
template <class T, class S, class P>
array<T, 1, S> choice(const array<T, 1, S>& a, index_t size, generator& g, const array<P, 1, S>& p) {
  static_assert(std::is_floating_point_v<P>, "xf::random::choice: p must hold floating-point probabilities");
  if (p.shape()[0] != a.shape()[0])
    throw shape_error("xf::random::choice: p has " + std::to_string(p.shape()[0]) + " entries for an array of " +
                      std::to_string(a.shape()[0]));
  if (a.shape()[0] == 0) throw error("xf::random::choice: cannot take a sample from an empty array");
  auto [smallest, total] = eval(lazy::min(p), lazy::sum<double>(p));
  if (!(smallest.item() >= 0)) throw error("xf::random::choice: probabilities are not non-negative");
  if (!(std::abs(total.item() - 1.0) <= 1e-8)) throw error("xf::random::choice: probabilities do not sum to 1");
  const array<double, 1, S> running = cumsum<double>(p);
  const array<double, 1, S> u = uniform<double>(dims<1>{size}, g, 0.0, total.item());
  const array<std::int64_t, 1, S> at = searchsorted(running, u, "right");
  return take(a, array<std::int64_t, 1, S>(minimum(at, a.shape()[0] - 1)), "clip");
}

}  // namespace xf::random
