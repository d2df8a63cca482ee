// SPDX-License-Identifier: Apache-2.0
// Printing in NumPy's layout: xf::repr(a) gives what repr(numpy_array) gives, for every element
// type: shortest round-trip floats with NumPy's padding, scientific notation when NumPy would use
// it, line wrapping at 75 columns, and "..." summaries past 1000 elements (3 edge items).
// Device arrays are copied to the host first (this waits for the current stream).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <string>
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

// NumPy's _formatArray over host data in C order.
class formatter {
 public:
  formatter(const std::vector<std::string>& words, const std::vector<index_t>& shape, bool summarize)
      : words_(words), shape_(shape), summarize_(summarize) {}

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
        line += ", ";
      }
      if (summary) {
        extend_line(s, line, "...", elem_width, hanging);
        line += ", ";
      }
      for (index_t i = trail; i > 1; --i) {
        extend_line(s, line, recurse(axis + 1, next_hanging, next_width), elem_width, hanging);
        line += ", ";
      }
      extend_line(s, line, recurse(axis + 1, next_hanging, next_width), elem_width, hanging);
      s += line;
    } else {
      const std::string sep = "," + std::string(left - 1, '\n');
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

}  // namespace detail::print

// NumPy's repr of an array (NumPy 2.2 and later): "array([[1, 2, 3],\n       [4, 5, 6]], dtype=int32)";
// summarised arrays and empty ones also state their shape.
template <element T, int R, class Space>
std::string repr(const array<T, R, Space>& a) {
  using namespace detail::print;
  const std::vector<T> values = to_host(a);
  const std::vector<index_t> shape(a.shape().begin(), a.shape().end());
  const bool summarize = a.size() > threshold;
  const std::string prefix = "array(";
  std::string body;
  if (a.size() == 0) {
    body = "[]";
  } else {
    std::vector<index_t> idx;
    if (R == 0) idx.push_back(0);
    else shown_indices(shape, summarize, idx);
    std::vector<T> shown;
    shown.reserve(idx.size());
    for (index_t i : idx) shown.push_back(values[static_cast<std::size_t>(i)]);
    const element_format<T> f(shown, R == 0);
    std::vector<std::string> words;
    words.reserve(shown.size());
    for (const T& v : shown) words.push_back(f(v));
    if (R == 0) body = words[0];
    else body = formatter(words, shape, summarize).format(std::string(prefix.size() + 1, ' '), line_width - 1);
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

template <element T, int R, class Space>
std::ostream& operator<<(std::ostream& os, const array<T, R, Space>& a) {
  return os << repr(a);
}

}  // namespace xf
