// libFuzzer target: xf::from_dlpack into host arrays, on DLManagedTensor and
// DLManagedTensorVersioned values built from the input: element type and rank asked for, ndim,
// dtype, device, shape, strides, byte_offset, version, flags, and a data pointer into a real
// 4 KiB buffer whose bytes come from the input too. Each field is a valid value or any value,
// as the input says, so imports succeed often enough to be checked:
// - on success the array has the tensor's shape, strides and data + byte_offset, the deleter has
//   not run, and, when the view lies inside the buffer, every element read through a host copy
//   equals the buffer's bytes (ASan sees any read outside it); the deleter runs exactly once when
//   the last handle goes;
// - on failure only xf::error and its kinds leave, and the deleter has not run.
// The seeds in corpus/dlpack are inputs of this layout kept from a run, one successful import per
// element type (named after it); a change to the order in which fields are read makes them noise.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <xfuse/complex.hpp>
#include <xfuse/core.hpp>
#include <xfuse/half.hpp>
#include <xfuse/interop/dlpack.hpp>

namespace {

namespace dl = xf::dlpack;

[[noreturn]] void die(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "fuzz_dlpack: %s %s\n", what, detail.c_str());
  std::abort();
}

constexpr std::size_t buffer_size = 4096;
alignas(64) unsigned char buffer[buffer_size];

int deleter_calls = 0;
void count_deleter(dl::DLManagedTensor*) { ++deleter_calls; }
void count_deleter_versioned(dl::DLManagedTensorVersioned*) { ++deleter_calls; }

// The byte range [lo, hi) a view covers, relative to the buffer; false when it has no elements
// or its arithmetic overflows (then it is not read).
template <class T, int R>
bool span_of(__int128 base, const xf::dims<R>& shape, const xf::dims<R>& strides, __int128& lo, __int128& hi,
             std::int64_t& count) {
  lo = hi = base;
  count = 1;
  for (int d = 0; d < R; ++d) {
    if (shape[d] == 0) return false;
    if (__builtin_mul_overflow(count, shape[d], &count)) return false;
    __int128 step = 0;
    if (__builtin_mul_overflow(static_cast<__int128>(shape[d] - 1), static_cast<__int128>(strides[d]), &step) ||
        __builtin_mul_overflow(step, static_cast<__int128>(sizeof(T)), &step))
      return false;
    if (step < 0) lo += step;
    else hi += step;
  }
  hi += sizeof(T);
  return true;
}

template <class T, int R>
void check_import(const xf::array<T, R, xf::host>& a, const std::int64_t* shape, const std::int64_t* strides,
                  std::uintptr_t first) {
  xf::dims<R> want_shape{}, want_strides{};
  for (int d = 0; d < R; ++d) want_shape[d] = shape[d];
  if (strides) {
    for (int d = 0; d < R; ++d) want_strides[d] = strides[d];
  } else {
    std::int64_t s = 1;  // a checked shape: the C strides cannot overflow
    for (int d = R; d-- > 0;) {
      want_strides[d] = s;
      if (want_shape[d] != 0) s *= want_shape[d];
    }
  }
  if (a.shape() != want_shape) die("the shape differs from the tensor's", xf::to_string(a.shape()));
  bool empty = false;
  for (int d = 0; d < R; ++d) empty = empty || want_shape[d] == 0;
  if (!empty && a.strides() != want_strides) die("the strides differ from the tensor's", xf::to_string(a.strides()));
  if (!empty && reinterpret_cast<std::uintptr_t>(a.data()) != first) die("the data pointer differs");

  __int128 lo = 0, hi = 0;
  std::int64_t count = 0;
  const __int128 base = static_cast<__int128>(first) - static_cast<__int128>(reinterpret_cast<std::uintptr_t>(buffer));
  if (!span_of<T, R>(base, want_shape, want_strides, lo, hi, count)) return;
  if (lo < 0 || hi > static_cast<__int128>(buffer_size) || count > (1 << 16)) return;  // not ours to read
  const xf::array<T, R, xf::host> c = a.copy();
  for (std::int64_t k = 0; k < count; ++k) {
    std::int64_t rest = k, offset = static_cast<std::int64_t>(base);
    for (int d = R; d-- > 0;) {
      offset += (rest % want_shape[d]) * want_strides[d] * static_cast<std::int64_t>(sizeof(T));
      rest /= want_shape[d];
    }
    if (std::memcmp(c.data() + k, buffer + offset, sizeof(T)) != 0)
      die("an element differs from the buffer's bytes", "at " + std::to_string(k));
  }
}

template <class T, int R>
void run(FuzzedDataProvider& in) {
  const bool versioned = in.ConsumeBool();
  const bool accept_read_only = in.ConsumeBool();
  // A valid value when the input says so, any value otherwise.
  auto field = [&](auto valid, auto any) { return in.ConsumeBool() ? valid : any(); };

  dl::DLTensor t{};
  t.ndim = field(R, [&] { return in.ConsumeIntegral<std::int32_t>(); });
  t.dtype = field(dl::data_type_of<T>, [&] {
    return dl::DLDataType{in.ConsumeIntegral<std::uint8_t>(), in.ConsumeIntegral<std::uint8_t>(),
                          in.ConsumeIntegral<std::uint16_t>()};
  });
  t.device = field(dl::DLDevice{in.ConsumeBool() ? dl::kDLCPU : dl::kDLCUDAHost, 0}, [&] {
    return dl::DLDevice{static_cast<dl::DLDeviceType>(in.ConsumeIntegral<std::int32_t>()),
                        in.ConsumeIntegral<std::int32_t>()};
  });
  std::int64_t shape[8] = {}, strides[8] = {};
  for (auto& e : shape) e = field(in.ConsumeIntegralInRange<std::int64_t>(0, 6), [&] { return in.ConsumeIntegral<std::int64_t>(); });
  for (auto& s : strides)
    s = field(in.ConsumeIntegralInRange<std::int64_t>(-8, 8), [&] { return in.ConsumeIntegral<std::int64_t>(); });
  const int pointers = in.ConsumeIntegralInRange(0, 15);  // rarely null shape, often null strides
  t.shape = pointers == 0 ? nullptr : shape;
  t.strides = pointers % 2 ? nullptr : strides;
  t.byte_offset = field(in.ConsumeIntegralInRange<std::uint64_t>(0, 256), [&] { return in.ConsumeIntegral<std::uint64_t>(); });
  const std::size_t start = in.ConsumeIntegralInRange<std::size_t>(0, buffer_size);
  t.data = in.ConsumeIntegralInRange(0, 31) == 0 ? nullptr : buffer + start;
  const dl::DLPackVersion version =
      field(dl::DLPackVersion{dl::major_version, in.ConsumeIntegral<std::uint32_t>()}, [&] {
        return dl::DLPackVersion{in.ConsumeIntegral<std::uint32_t>(), in.ConsumeIntegral<std::uint32_t>()};
      });
  const std::uint64_t flags = field(std::uint64_t{0}, [&] { return in.ConsumeIntegral<std::uint64_t>(); });

  // The rest of the input fills the buffer (bool elements must hold 0 or 1: others are the producer's bug).
  std::memset(buffer, 0, buffer_size);
  const std::size_t n = in.ConsumeData(buffer, buffer_size);
  if constexpr (xf::is_bool<T>)
    for (std::size_t i = 0; i < n; ++i) buffer[i] &= 1;

  deleter_calls = 0;
  // Where the first element is, in integers: data + byte_offset may lie outside the buffer.
  const std::uintptr_t first = t.data ? reinterpret_cast<std::uintptr_t>(t.data) + t.byte_offset : 0;
  try {
    xf::array<T, R, xf::host> a;
    if (versioned) {
      dl::DLManagedTensorVersioned m{version, nullptr, &count_deleter_versioned, flags, t};
      a = accept_read_only ? xf::from_dlpack<T, R, xf::host>(&m, dl::accept_read_only)
                           : xf::from_dlpack<T, R, xf::host>(&m);
      if (deleter_calls != 0) die("the deleter ran during a successful import");
      check_import(a, shape, t.strides, first);
      xf::array<T, R, xf::host> view = a;  // another handle: the deleter waits for both
      a = xf::array<T, R, xf::host>();
      if (deleter_calls != 0) die("the deleter ran while a handle was left");
      view = xf::array<T, R, xf::host>();
    } else {
      dl::DLManagedTensor m{t, nullptr, &count_deleter};
      a = xf::from_dlpack<T, R, xf::host>(&m);
      if (deleter_calls != 0) die("the deleter ran during a successful import");
      check_import(a, shape, t.strides, first);
      a = xf::array<T, R, xf::host>();
    }
    if (deleter_calls != 1) die("the deleter ran", std::to_string(deleter_calls) + " times after the last handle went");
  } catch (const xf::error&) {
    if (deleter_calls != 0) die("the deleter ran on a failed import", std::to_string(deleter_calls) + " times");
  }
}

template <class T>
void run_rank(int rank, FuzzedDataProvider& in) {
  switch (rank) {
    case 0: return run<T, 0>(in);
    case 1: return run<T, 1>(in);
    case 2: return run<T, 2>(in);
    case 3: return run<T, 3>(in);
    default: return run<T, 4>(in);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const int type = in.ConsumeIntegralInRange(0, 14);
  const int rank = in.ConsumeIntegralInRange(0, 4);
  switch (type) {
    case 0: run_rank<bool>(rank, in); break;
    case 1: run_rank<std::int8_t>(rank, in); break;
    case 2: run_rank<std::int16_t>(rank, in); break;
    case 3: run_rank<std::int32_t>(rank, in); break;
    case 4: run_rank<std::int64_t>(rank, in); break;
    case 5: run_rank<std::uint8_t>(rank, in); break;
    case 6: run_rank<std::uint16_t>(rank, in); break;
    case 7: run_rank<std::uint32_t>(rank, in); break;
    case 8: run_rank<std::uint64_t>(rank, in); break;
    case 9: run_rank<xf::half>(rank, in); break;
    case 10: run_rank<xf::bfloat16>(rank, in); break;
    case 11: run_rank<float>(rank, in); break;
    case 12: run_rank<double>(rank, in); break;
    case 13: run_rank<xf::complex64>(rank, in); break;
    default: run_rank<xf::complex128>(rank, in); break;
  }
  return 0;
}
