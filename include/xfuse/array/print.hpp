// SPDX-License-Identifier: Apache-2.0
// Printing in NumPy's layout: xf::repr(a) gives what repr(numpy_array) gives and xf::str(a) (and
// `std::cout << a`) what str(numpy_array), print's text, gives, for every element type: shortest
// round-trip floats with NumPy's padding, scientific notation when NumPy would use it, line
// wrapping at 75 columns, and "..." summaries past 1000 elements (3 edge items).
// Device arrays are copied to the host first (this waits for the current stream).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "transfer.hpp"

namespace xf {
namespace detail::print {

inline constexpr int line_width = 75;
inline constexpr index_t threshold = 1000;
inline constexpr index_t edge_items = 3;
inline constexpr int precision = 8;

// Does the decimal text read back as the same value of type T?
template <class T>
bool round_trips(const char* text, double x) {
  const double back = std::strtod(text, nullptr);
  if constexpr (std::is_same_v<T, double>) return back == x;
  else if constexpr (std::is_same_v<T, float>) return static_cast<float>(back) == static_cast<float>(x);
  else return static_cast<float>(T(static_cast<float>(back))) == static_cast<float>(T(static_cast<float>(x)));
}

// Shortest significant digits that identify x among values of type T: (digits, decimal exponent).
template <class T>
int shortest_precision(double x) {
  char buf[64];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, x);
    if (round_trips<T>(buf, x)) return p;
  }
  return 17;
}
inline int decimal_exponent(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, x);
  return std::atoi(std::strchr(buf, 'e') + 1);
}

// dragon4_positional(x, precision=8, unique=True, fractional=True, trim='.')
template <class T>
std::string positional(double x) {
  const int p = shortest_precision<T>(x);
  const int e = x == 0 ? 0 : decimal_exponent(x, p);
  int frac = p - 1 - e;
  if (frac < 0) frac = 0;
  if (frac > precision) frac = precision;
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", frac, x);
  std::string s = buf;
  if (s.find('.') == std::string::npos) s += '.';
  while (s.back() == '0') s.pop_back();  // trim='.': drop trailing zeros, keep the point
  return s;
}

// dragon4_scientific(x, precision, unique=True, trim); `min_frac` pads the mantissa with zeros.
template <class T>
std::string scientific(double x, int min_frac, int exp_digits) {
  const int p = shortest_precision<T>(x);
  int frac = p - 1;
  if (frac > precision) frac = precision;
  char buf[128];
  std::snprintf(buf, sizeof buf, "%.*e", frac, x);
  std::string s = buf;
  const auto epos = s.find('e');
  std::string mant = s.substr(0, epos), ex = s.substr(epos + 1);
  if (mant.find('.') == std::string::npos) mant += '.';
  while (mant.back() == '0') mant.pop_back();
  const int have = static_cast<int>(mant.size() - mant.find('.') - 1);
  if (have < min_frac) mant.append(static_cast<std::size_t>(min_frac - have), '0');
  const char sign = ex[0];
  std::string digits = ex.substr(1);
  while (digits.size() > 2 && digits[0] == '0' && static_cast<int>(digits.size()) > exp_digits) digits.erase(0, 1);
  while (static_cast<int>(digits.size()) < exp_digits) digits.insert(0, "0");
  return mant + "e" + sign + digits;
}

// NumPy's FloatingFormat (floatmode 'maxprec', precision 8) for values of type T.
template <class T>
class float_format {
 public:
  float_format(const std::vector<double>& data, bool plus_sign) : plus_(plus_sign) {
    std::vector<double> finite;
    bool has_nonfinite = false, neg_inf = false;
    for (double v : data) {
      if (std::isfinite(v)) finite.push_back(v);
      else {
        has_nonfinite = true;
        if (std::isinf(v) && v < 0) neg_inf = true;
      }
    }
    double mx = 0, mn = 0;
    bool any = false;
    for (double v : finite) {
      const double a = std::fabs(v);
      if (a == 0) continue;
      if (!any) mx = mn = a, any = true;
      mx = a > mx ? a : mx;
      mn = a < mn ? a : mn;
    }
    exp_ = any && (mx >= 1e8 || mn < 0.0001 || mx / mn > 1000.);
    if (finite.empty()) {
      pad_left_ = pad_right_ = 0;
    } else if (exp_) {
      for (double v : finite) {
        const std::string s = sign(v) + scientific<T>(v, 0, 0);
        const auto dot = s.find('.'), e = s.find('e');
        pad_left_ = std::max<int>(pad_left_, static_cast<int>(dot));
        frac_ = std::max<int>(frac_, static_cast<int>(e - dot - 1));
        exp_size_ = std::max<int>(exp_size_, static_cast<int>(s.size() - e - 2));
      }
      pad_right_ = exp_size_ + 2 + frac_;
    } else {
      for (double v : finite) {
        const std::string s = sign(v) + positional<T>(v);
        const auto dot = s.find('.');
        pad_left_ = std::max<int>(pad_left_, static_cast<int>(dot));
        pad_right_ = std::max<int>(pad_right_, static_cast<int>(s.size() - dot - 1));
      }
    }
    if (has_nonfinite) {
      const int offset = pad_right_ + 1;
      pad_left_ = std::max<int>(pad_left_, 3 - offset);
      pad_left_ = std::max<int>(pad_left_, 3 + ((neg_inf || plus_) ? 1 : 0) - offset);
    }
  }

  std::string operator()(double v) const {
    if (!std::isfinite(v)) {
      std::string r = std::isnan(v) ? std::string(plus_ ? "+" : "") + "nan"
                                    : std::string(v < 0 ? "-" : (plus_ ? "+" : "")) + "inf";
      const int width = pad_left_ + pad_right_ + 1;
      return std::string(static_cast<std::size_t>(std::max<int>(0, width - static_cast<int>(r.size()))), ' ') + r;
    }
    std::string s;
    if (exp_) {
      s = sign(v) + scientific<T>(v, frac_, exp_size_);
      const auto dot = s.find('.');
      s.insert(0, static_cast<std::size_t>(std::max<int>(0, pad_left_ - static_cast<int>(dot))), ' ');
    } else {
      s = sign(v) + positional<T>(v);
      const auto dot = s.find('.');
      s.insert(0, static_cast<std::size_t>(std::max<int>(0, pad_left_ - static_cast<int>(dot))), ' ');
      const int frac = static_cast<int>(s.size() - s.find('.') - 1);
      s.append(static_cast<std::size_t>(std::max<int>(0, pad_right_ - frac)), ' ');
    }
    return s;
  }

 private:
  std::string sign(double v) const { return (plus_ && !std::signbit(v)) ? "+" : ""; }
  bool plus_;
  bool exp_ = false;
  int pad_left_ = 0, pad_right_ = 0, frac_ = 0, exp_size_ = 0;
};

template <class T>
double as_double(const T& v) {
  return static_cast<double>(convert<double>(v));
}

// The formatter NumPy picks, fitted to the shown elements once.
template <class T>
class element_format {
 public:
  element_format(const std::vector<T>& shown, bool zero_d) : zero_d_(zero_d) {
    if constexpr (is_integer<T>) {
      for (const T& s : shown) width_ = std::max<int>(width_, static_cast<int>(std::to_string(s).size()));
    } else if constexpr (is_complex<T>) {
      std::vector<double> re, im;
      for (const T& s : shown) re.push_back(s.real()), im.push_back(s.imag());
      real_ = std::make_unique<float_format<real_t<T>>>(re, false);
      imag_ = std::make_unique<float_format<real_t<T>>>(im, true);
    } else if constexpr (!is_bool<T>) {
      std::vector<double> d;
      for (const T& s : shown) d.push_back(as_double(s));
      real_ = std::make_unique<float_format<T>>(d, false);
    }
  }

  std::string operator()(const T& v) const {
    if constexpr (is_bool<T>) {
      return v ? (zero_d_ ? "True" : " True") : "False";
    } else if constexpr (is_integer<T>) {
      const std::string t = std::to_string(v);
      return std::string(static_cast<std::size_t>(std::max<int>(0, width_ - static_cast<int>(t.size()))), ' ') + t;
    } else if constexpr (is_complex<T>) {
      std::string i = (*imag_)(v.imag());
      const auto end = i.find_last_not_of(' ') + 1;
      return (*real_)(v.real()) + i.substr(0, end) + "j" + i.substr(end);
    } else {
      return (*real_)(as_double(v));
    }
  }

 private:
  using real_format = float_format<std::conditional_t<is_complex<T>, real_t<T>, T>>;
  bool zero_d_;
  int width_ = 0;
  std::unique_ptr<real_format> real_, imag_;
};

inline void extend_line(std::string& s, std::string& line, const std::string& word, int width,
                        const std::string& prefix) {
  bool wrap = static_cast<int>(line.size() + word.size()) > width;
  if (line.size() <= prefix.size()) wrap = false;
  if (wrap) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    s += line + "\n";
    line = prefix;
  }
  line += word;
}

// NumPy's _formatArray over host data in C order; `separator` between elements: ", " (repr) or
// " " (str).
class formatter {
 public:
  formatter(const std::vector<std::string>& words, const std::vector<index_t>& shape, bool summarize, std::string separator)
      : words_(words), shape_(shape), summarize_(summarize), separator_(std::move(separator)) {}

  std::string format(const std::string& prefix, int width) {
    next_ = 0;
    return recurse(0, prefix, width);
  }

 private:
  std::string recurse(std::size_t axis, const std::string& hanging, int width) {
    const std::size_t left = shape_.size() - axis;
    if (left == 0) return words_[next_++];
    const std::string next_hanging = hanging + " ";
    const int next_width = width - 1;
    const index_t n = shape_[axis];
    const bool summary = summarize_ && 2 * edge_items < n;
    const index_t lead = summary ? edge_items : 0;
    const index_t trail = summary ? edge_items : n;
    std::string s;
    if (left == 1) {
      const int elem_width = width - 1;
      std::string line = hanging;
      for (index_t i = 0; i < lead; ++i) {
        extend_line(s, line, recurse(axis + 1, next_hanging, next_width), elem_width, hanging);
        line += separator_;
      }
      if (summary) {
        extend_line(s, line, "...", elem_width, hanging);
        line += separator_;
      }
      for (index_t i = trail; i > 1; --i) {
        extend_line(s, line, recurse(axis + 1, next_hanging, next_width), elem_width, hanging);
        line += separator_;
      }
      extend_line(s, line, recurse(axis + 1, next_hanging, next_width), elem_width, hanging);
      s += line;
    } else {
      std::string sep = separator_;  // the separator without trailing spaces, then blank lines
      while (!sep.empty() && sep.back() == ' ') sep.pop_back();
      sep += std::string(left - 1, '\n');
      for (index_t i = 0; i < lead; ++i) s += hanging + recurse(axis + 1, next_hanging, next_width) + sep;
      if (summary) s += hanging + "..." + sep;
      for (index_t i = trail; i > 1; --i) s += hanging + recurse(axis + 1, next_hanging, next_width) + sep;
      s += hanging + recurse(axis + 1, next_hanging, next_width);
    }
    return "[" + s.substr(hanging.size()) + "]";
  }

  const std::vector<std::string>& words_;
  std::vector<index_t> shape_;
  bool summarize_;
  std::string separator_;
  std::size_t next_ = 0;
};

// Indices (C order) of the elements NumPy shows: all, or edge items along every axis.
inline void shown_indices(const std::vector<index_t>& shape, bool summarize, std::vector<index_t>& out) {
  std::vector<std::vector<index_t>> per_axis(shape.size());
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const index_t n = shape[d];
    if (summarize && 2 * edge_items < n) {
      for (index_t i = 0; i < edge_items; ++i) per_axis[d].push_back(i);
      for (index_t i = n - edge_items; i < n; ++i) per_axis[d].push_back(i);
    } else {
      for (index_t i = 0; i < n; ++i) per_axis[d].push_back(i);
    }
  }
  std::vector<std::size_t> at(shape.size(), 0);
  while (true) {
    index_t flat = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) flat = flat * shape[d] + per_axis[d][at[d]];
    out.push_back(flat);
    std::size_t d = shape.size();
    while (d > 0) {
      --d;
      if (++at[d] < per_axis[d].size()) break;
      at[d] = 0;
      if (d == 0) return;
    }
    if (shape.empty()) return;
  }
}

template <class T>
constexpr bool shows_dtype() {
  return !(std::is_same_v<T, double> || std::is_same_v<T, std::int64_t> || is_bool<T> || std::is_same_v<T, complex128>);
}

// The bracketed elements of a non-empty array of rank >= 1 as NumPy's array2string lays them out:
// lines after the first start with `indent` spaces, and none is wider than `width`.
template <class T, int R, class Space>
std::string array_body(const array<T, R, Space>& a, const std::string& separator, std::size_t indent, int width) {
  const std::vector<T> values = to_host(a);
  const std::vector<index_t> shape(a.shape().begin(), a.shape().end());
  const bool summarize = a.size() > threshold;
  std::vector<index_t> idx;
  shown_indices(shape, summarize, idx);
  std::vector<T> shown;
  shown.reserve(idx.size());
  for (index_t i : idx) shown.push_back(values[static_cast<std::size_t>(i)]);
  const element_format<T> f(shown, false);
  std::vector<std::string> words;
  words.reserve(shown.size());
  for (const T& v : shown) words.push_back(f(v));
  return formatter(words, shape, summarize, separator).format(std::string(indent, ' '), width);
}

// Decimal exponent from which str() of a NumPy float scalar turns scientific: 16 for float64, 6
// for float32, 3 for float16 (below 1e-4 always).
template <class T>
constexpr int scientific_from() {
  if constexpr (std::is_same_v<T, double>) return 16;
  else if constexpr (std::is_same_v<T, float>) return 6;
  else return 3;
}

// str() of a NumPy float scalar: the shortest digits that read back as the value, positional
// ("3.5", "100000.0") between 1e-4 and the type's cutoff, otherwise scientific ("1e+16",
// "1.5e-05"). `trim_point` drops a trailing ".0" (complex parts: "(1+2j)").
template <class T>
std::string scalar_float(double x, bool trim_point) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  const int digits = shortest_precision<T>(x);
  const double magnitude = std::fabs(x);
  char buf[512];
  std::string out;
  if (x == 0 || (magnitude >= 1e-4 && magnitude < std::pow(10.0, scientific_from<T>()))) {
    const int e = x == 0 ? 0 : decimal_exponent(x, digits);
    std::snprintf(buf, sizeof buf, "%.*f", std::max(digits - 1 - e, 0), x);
    out = buf;
    if (out.find('.') == std::string::npos) out += ".0";
    if (trim_point && out.size() > 2 && out.compare(out.size() - 2, 2, ".0") == 0) out.resize(out.size() - 2);
  } else {
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, x);
    out = buf;
  }
  return out;
}

// str() of a NumPy scalar: what print() shows for a 0-d array.
template <class T>
std::string scalar_str(const T& v) {
  if constexpr (is_bool<T>) {
    return v ? "True" : "False";
  } else if constexpr (is_integer<T>) {
    return std::to_string(v);
  } else if constexpr (is_complex<T>) {
    using Re = real_t<T>;
    const std::string im = scalar_float<Re>(static_cast<double>(v.imag()), true);
    if (v.real() == 0 && !std::signbit(static_cast<double>(v.real()))) return im + "j";
    const bool plus = !std::signbit(static_cast<double>(v.imag())) || std::isnan(static_cast<double>(v.imag()));
    return "(" + scalar_float<Re>(static_cast<double>(v.real()), true) + (plus ? "+" : "") + im + "j)";
  } else {
    return scalar_float<T>(as_double(v), false);
  }
}

}  // namespace detail::print

// NumPy's str of an array, what print(a) shows: "[[1 2 3]\n [4 5 6]]" (elements formatted as repr
// formats them, separated by spaces, no dtype); a 0-d array prints as its scalar ("3.5", "True").
template <element T, int R, class Space>
std::string str(const array<T, R, Space>& a) {
  using namespace detail::print;
  if constexpr (R == 0) {
    return scalar_str(a.item());
  } else {
    if (a.size() == 0) return "[]";
    return array_body(a, " ", 1, line_width);
  }
}

// NumPy's repr of an array (NumPy 2.2 and later): "array([[1, 2, 3],\n       [4, 5, 6]], dtype=int32)";
// summarised arrays and empty ones also state their shape.
template <element T, int R, class Space>
std::string repr(const array<T, R, Space>& a) {
  using namespace detail::print;
  const bool summarize = a.size() > threshold;
  const std::string prefix = "array(";
  std::string body;
  if (a.size() == 0) {
    body = "[]";
  } else if constexpr (R == 0) {
    const std::vector<T> one = to_host(a);
    body = element_format<T>(one, true)(one[0]);
  } else {
    body = array_body(a, ", ", prefix.size() + 1, line_width - 1);
  }
  std::string extras;
  if ((a.size() == 0 && R != 1) || summarize) extras = "shape=" + to_string(a.shape());
  if (shows_dtype<T>() || a.size() == 0) extras += (extras.empty() ? "" : ", ") + std::string("dtype=") + dtype_name<T>;
  if (extras.empty()) return prefix + body + ")";
  const std::string out = prefix + body + ",";
  extras += ")";
  const auto nl = out.rfind('\n');
  const std::size_t last_line = out.size() - (nl == std::string::npos ? 0 : nl + 1);
  if (static_cast<int>(last_line + extras.size() + 1) > line_width) return out + "\n" + std::string(prefix.size(), ' ') + extras;
  return out + " " + extras;
}

// print(a): NumPy's str.
template <element T, int R, class Space>
std::ostream& operator<<(std::ostream& os, const array<T, R, Space>& a) {
  return os << str(a);
}

}  // namespace xf
