#!/usr/bin/env python3
"""Writes docs/api.md, the API reference, from the public headers: the functions, operators, classes,
member functions, aliases, concepts and constants of namespace xf and its public namespaces (nothing
inside a `detail` namespace), grouped by the top-level header that brings them; functions that macros
generate are expanded from their #defines. With --check, writes nothing and exits 1 when docs/api.md is
not what it would write (CTest runs that); --verbose lists what the scan left out and what has no comment."""
import bisect
import difflib
import pathlib
import re
import sys
from types import SimpleNamespace as Record

root = pathlib.Path(__file__).resolve().parent.parent
INCLUDE, OUT = root / "include" / "xfuse", root / "docs" / "api.md"
# The top-level headers, in the order that claims the internal headers they include (the first wins).
TOP = "core complex half fuse print npy npz reduce scan sort quantile average softmax norm graph random permutation manip signal fft interop linalg benchmark legate".split()

# Counterparts. A function of xf or xf::lazy is numpy.NAME unless NOT_NUMPY lists it; a member of an array-like
# class is numpy.ndarray.NAME when NDARRAY has it; a name of these namespaces or classes is PREFIX.NAME when listed.
NOT_NUMPY = set("name_of to_string wait synchronize to_host_async to_device eval into assign make_view begin end "
                "to_dlpack_versioned as_mdspan from_mdspan".split())
NDARRAY = set("shape strides size nbytes ndim itemsize data T transpose reshape ravel flatten diagonal squeeze copy "
              "astype item swapaxes".split())
ARRAY_LIKE = ("xf::array", "xf::matmul_expr")
PREFIXES = {"xf::linalg": ("numpy.linalg", "solve inv det slogdet cholesky qr svd svdvals eig eigvals eigh eigvalsh lstsq pinv norm matrix_power multi_dot matrix_rank cond"),
            "xf::random": ("numpy.random.Generator", "uniform normal standard_normal integers exponential standard_exponential poisson gamma standard_gamma beta binomial permutation shuffle choice"),
            "xf::device": ("cupy.cuda.Device", "id use synchronize"), "xf::event": ("cupy.cuda.Event", "record synchronize done"),
            "xf::stream": ("cupy.cuda.Stream", "synchronize done record"),
            "xf::dist": ("cupynumeric", "empty full zeros ones arange sum prod max min matmul where maximum minimum power exp log "
                         "sqrt abs sin cos tanh square isnan isfinite cumsum cumprod"),
            "xf::memory_pool": ("cupy.cuda.MemoryPool", "used_bytes total_bytes free_bytes free_all_blocks set_limit get_limit"),
            "xf::pinned_memory_pool": ("cupy.cuda.PinnedMemoryPool", "n_free_blocks free_all_blocks")}
OVERRIDES = {  # counterparts that follow no rule above ("group name" keys one header's row); "" for none
    "xf::erf": "scipy.special.erf", "xf::erfc": "scipy.special.erfc", "xf::relu": "torch.relu", "xf::gelu": "torch.nn.functional.gelu", "xf::gelu_tanh": "torch.nn.functional.gelu(approximate='tanh')",
    "xf::astype": "numpy.ndarray.astype",
    "xf::delete_": "numpy.delete", "xf::stat_length": "numpy.pad",
    "xf::array": "numpy.ndarray", "xf::array::get": "cupy.ndarray.get", "xf::array::device_id": "cupy.ndarray.device",
    "xf::array::dtype_name": "numpy.ndarray.dtype", "xf::array::is_contiguous": "numpy.ndarray.flags",
    "xf::array::flip": "numpy.flip", "xf::array::expand_dims": "numpy.expand_dims", "xf::array::assign": "numpy.copyto",
    "xf::array::broadcast_to": "numpy.broadcast_to", "xf::array::operator()": "numpy.ndarray.__getitem__",
    "xf::array::operator+=": "numpy.ndarray.__iadd__", "xf::array::operator-=": "numpy.ndarray.__isub__",
    "xf::array::operator*=": "numpy.ndarray.__imul__", "xf::array::operator/=": "numpy.ndarray.__itruediv__",
    "xf::array::buffer": "numpy.ndarray.base", "xf::matmul_expr::get": "cupy.ndarray.get", "xf::get": "cupy.ndarray.get",
    "xf::to_host": "cupy.asnumpy", "xf::half": "numpy.float16", "xf::complex64": "numpy.complex64",
    "xf::complex128": "numpy.complex128", "xf::index_t": "numpy.intp", "xf::kind": "numpy.dtype.kind",
    "xf::kind_of": "numpy.dtype.kind", "xf::dtype": "numpy.dtype", "xf::dtype_of": "numpy.dtype",
    "xf::dtype_name": "numpy.dtype.name", "xf::promote_t": "numpy.result_type", "xf::keepdims": "keepdims=True",
    "xf::ddof": "ddof=", "xf::edge_order": "numpy.gradient", "xf::slice": "slice", "xf::_": "None", "xf::newaxis": "numpy.newaxis", "xf::all": "numpy.all",
    "xf::reduce": "cupy.ReductionKernel", "xf::reducer": "cupy.ReductionKernel", "xf::softmax": "scipy.special.softmax",
    "xf::log_softmax": "scipy.special.log_softmax", "xf::dist::softmax": "scipy.special.softmax",
    "xf::dist::log_softmax": "scipy.special.log_softmax", "xf::logsumexp": "scipy.special.logsumexp",
    "xf::layer_norm": "torch.nn.functional.layer_norm", "xf::rms_norm": "torch.nn.functional.rms_norm",
    "xf::convolve2d": "scipy.signal.convolve2d", "xf::correlate2d": "scipy.signal.correlate2d", "xf::fuse": "cupy.fuse",
    "xf::map": "cupy.ElementwiseKernel", "xf::launch": "cupy.RawKernel", "xf::benchmark": "cupyx.profiler.benchmark",
    "xf::repr": "repr(numpy.ndarray)", "print xf::operator<<": "print(numpy.ndarray)", "xf::save_npy": "numpy.save",
    "xf::load_npy": "numpy.load", "xf::savez": "numpy.savez", "xf::savez_compressed": "numpy.savez_compressed",
    "xf::load_npz": "numpy.load", "xf::npz_file": "numpy.lib.npyio.NpzFile", "xf::npz_file::files": "numpy.lib.npyio.NpzFile.files",
    "xf::npz_file::get": "numpy.lib.npyio.NpzFile.__getitem__", "xf::named": "numpy.savez(name=a)", "xf::npz_entry": "",
    "xf::npz_file::contains": "numpy.lib.npyio.NpzFile.__contains__", "xf::str": "str(numpy.ndarray)", "xf::read_npy_header": "numpy.lib.format.read_array_header_1_0",
    "xf::to_dlpack": "torch.utils.dlpack.to_dlpack", "xf::device_guard": "with cupy.cuda.Device(id)",
    "xf::stream_guard": "with cupy.cuda.Stream()", "xf::current_stream": "cupy.cuda.get_current_stream",
    "xf::stream::wait": "cupy.cuda.Stream.wait_event", "xf::stream::legacy": "cupy.cuda.Stream.null",
    "xf::stream::per_thread": "cupy.cuda.Stream.ptds", "xf::device::count": "cupy.cuda.runtime.getDeviceCount",
    "xf::elapsed_ms": "cupy.cuda.get_elapsed_time", "xf::get_default_memory_pool": "cupy.get_default_memory_pool",
    "xf::memory_pool::set_limit_fraction": "cupy.cuda.MemoryPool.set_limit", "xf::linalg::inf": "numpy.inf",
    "xf::get_pinned_memory_pool": "cupy.get_default_pinned_memory_pool", "xf::random::rand": "numpy.random.rand",
    "xf::random::generator": "numpy.random.default_rng", "xf::random::random_sample": "numpy.random.Generator.random",
    "xf::random::randn": "numpy.random.randn", "benchmark xf::operator<<": "",
    "xf::capture": "torch.cuda.graph", "xf::graph": "torch.cuda.CUDAGraph", "xf::graph::launch": "torch.cuda.CUDAGraph.replay",
    "xf::graph::node_count": "", "xf::graph::device_id": "", "xf::graph::operator bool": "", "xf::while_": "",
    "xf::if_": "",
    "xf::fft": "numpy.fft.fft", "xf::ifft": "numpy.fft.ifft", "xf::rfft": "numpy.fft.rfft", "xf::irfft": "numpy.fft.irfft", "xf::hfft": "numpy.fft.hfft", "xf::ihfft": "numpy.fft.ihfft", "xf::fft2": "numpy.fft.fft2", "xf::ifft2": "numpy.fft.ifft2", "xf::rfft2": "numpy.fft.rfft2", "xf::irfft2": "numpy.fft.irfft2", "xf::fftn": "numpy.fft.fftn", "xf::ifftn": "numpy.fft.ifftn", "xf::rfftn": "numpy.fft.rfftn", "xf::irfftn": "numpy.fft.irfftn", "xf::fftfreq": "numpy.fft.fftfreq", "xf::rfftfreq": "numpy.fft.rfftfreq", "xf::fftshift": "numpy.fft.fftshift", "xf::ifftshift": "numpy.fft.ifftshift",
    "xf::fft_norm": "norm=", "xf::fft_sizes": "s=", "xf::fft_axes": "axes=", "xf::fftconvolve": "scipy.signal.fftconvolve",
    "xf::conv_method": "scipy.signal.convolve(method=)", "xf::fft_plan_cache": "cupy.fft.config.get_plan_cache",
    "xf::fft_plan_cache_view": "cupy.fft._cache.PlanCache", "xf::fft_plan_cache_stats": "cupy.fft._cache.PlanCache.show_info",
    "xf::fft_plan_cache_view::stats": "cupy.fft._cache.PlanCache.show_info", "xf::fft_plan_cache_view::size": "cupy.fft._cache.PlanCache.get_curr_size",
    "xf::fft_plan_cache_view::size_limit": "cupy.fft._cache.PlanCache.get_size",
    "xf::fft_plan_cache_view::set_size_limit": "cupy.fft._cache.PlanCache.set_size", "xf::fft_plan_cache_view::clear": "cupy.fft._cache.PlanCache.clear",
    "xf::cufft_error": "", "xf::cufft_error::code": "", "xf::fft_callbacks": "cupy.fft.config.set_cufft_callbacks",
    "xf::set_fft_callbacks": "cupy.fft.config.set_cufft_callbacks", "xf::fft_line_kernels": "", "xf::set_fft_line_kernels": "",
}
MACRO_DOCS = {  # what one invocation of a macro that generates public functions makes
    "XF_BINARY_OPERATOR": "Element-wise `{OP}` of two operands, one at least an expression (lazy).",
    "XF_BINARY_FUNCTION": "Element-wise `{OP}` of two operands, one at least an expression (lazy).",
    "XF_UNARY_FUNCTION": "Element-wise `{OP}` of an expression (lazy).",
    "XF_COMPOUND": "Writes `a {BINARY} e` into the array's memory.",
    "XF_REDUCTION reduce": "NumPy's `{NAME}` over all elements, one axis or several, optionally with `xf::keepdims`.",
    "XF_REDUCTION defer": "`xf::{NAME}` described, not run: `xf::eval` runs several in one pass; also an operand.",
}
FALLBACK_DOCS = {  # public names that the headers leave without a comment of their own
    "xf::array": "A shared handle to N-d data: static element type and rank, dynamic extents and strides.",
    "xf::device": "A CUDA device; also the memory-space tag of device arrays.", "xf::error": "The base of xfuse's errors.",
    "xf::host": "The memory-space tag of host arrays.", "xf::stream": "A CUDA stream, a shared handle.",
    "xf::event": "A CUDA event: record it on a stream, wait for it, time between two.",
    "xf::all": "Every index of a dimension (`a(xf::all, 0)`); called on an expression, NumPy's `all` reduction "
               "(with `<xfuse/reduce.hpp>`).", "xf::array::shape": "The extents; shape(axis) is one of them.",
    "xf::array::strides": "The strides, in elements (negative and zero allowed).", "xf::array::size": "The element count.",
    "xf::array::data": "A pointer to the first element.", "xf::array::nbytes": "size() * itemsize().",
    "xf::array::ndim": "The rank R.", "xf::array::rank": "The rank R.", "xf::array::itemsize": "One element's bytes.",
    "xf::array::dtype_name": "NumPy's name of the element type.", "xf::array::empty": "True when size() is 0.",
    "xf::array::permute": "The same as transpose(axes).", "xf::array::swapaxes": "Two axes exchanged (a view).",
    "xf::array::is_contiguous": "True when C-contiguous.", "xf::identity": "np.identity(n): eye(n).",
    "xf::empty_like": "Uninitialised memory of an expression's shape, type and space.",
    "xf::zeros_like": "Zeros of an expression's shape, type and space.", "xf::ones_like": "Ones of an expression's shape, type and space.",
    "xf::to_host_async": "A device-to-host copy in the background: an `xf::host_transfer` to wait for.",
    "xf::matmul_expr": "What xf::matmul returns: alpha * (a @ b) [+ beta * c], one BLAS call when first used.",
    "xf::fused_function": "What xf::fuse returns: called on operands, it evaluates the lambda's expression in one kernel.",
    "xf::matmul_options": "Options of xf::matmul.", "xf::benchmark_options": "Options of xf::benchmark.",
    "linalg xf::operator*": "s * matmul(a, b): one GEMM with alpha = s.",
    "linalg xf::operator+": "matmul(a, b) + c: one GEMM with beta = 1 (`beta * c`: beta).",
    "linalg xf::operator-": "matmul(a, b) - c, c - matmul(a, b), -matmul(a, b): one GEMM.",
}
PROTOCOL = {"leaves", "evaluator", "leaf_count"}  # the expression protocol: members the library calls
OPERATOR = re.compile(r"\boperator\b\s*(\(\)|\[\]|<=>|<<=|>>=|->\*|->|<<|>>|&&|\|\||\+\+|--|[-+*/%^&|!=<>]=?|,|~)?")
literals = []  # string and character literals: the scanned text holds them as "@N"


def lex(text, defines):
    """Blanks comments and preprocessor lines and stands literals in as "@N", keeping the lines; adds
    each #define to `defines` as name -> (parameters, or None for an object-like macro; body)."""
    def literal(m):
        if m.group(0)[0] == "/":
            return re.sub(r"[^\n]", " ", m.group(0))
        literals.append(m.group(0))
        return f"{m.group(0)[0]}@{len(literals) - 1}{m.group(0)[0]}"

    def directive(m):
        d = re.match(r"\s*#\s*define\s+(\w+)(?:\(([^)]*)\))?(.*)", m.group(0).replace("\\\n", " "), re.S)
        if d:
            defines[d.group(1)] = (d.group(2) and [p.strip().replace("...", "__VA_ARGS__") for p in d.group(2).split(",")],
                                   d.group(3).strip())
        return re.sub(r"[^\n]", " ", m.group(0))
    text = re.sub(r"//[^\n]*|/\*[\s\S]*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", literal, text)
    return re.sub(r"^[ \t]*#(?:\\\n|[^\n])*", directive, text, flags=re.M)


def close(s, i):
    """The index just past the group that opens at s[i]: parentheses, brackets, braces or template arguments."""
    depth, j = 0, i
    while j < len(s):
        if s[i] == "<" and s[j] == "(":
            j = close(s, j)
            continue
        depth += (s[j] == "<") - (s[j] == ">" and s[j - 1] != "-") if s[i] == "<" else (s[j] in "([{") - (s[j] in ")]}")
        j += 1
        if depth == 0:
            break
    return j


def expand(code, macros, contexts, disabled=frozenset()):
    """Replaces macro invocations by their expansions, each on one line (the line count kept). The
    expansion of a function-like macro is wrapped in markers that index `contexts` (name, arguments)."""
    out, pos = [], 0
    for m in re.finditer(r"\b[A-Za-z_]\w*\b", code):
        if m.start() < pos or m.group(0) not in macros or m.group(0) in disabled:
            continue
        (params, body), end = macros[m.group(0)], m.end()
        if params is not None:
            if not (paren := re.compile(r"\s*\(").match(code, end)):
                continue
            end, args, depth, cur = close(code, paren.end() - 1), [], 0, ""
            for c in code[paren.end():end - 1]:  # arguments split at top-level commas, before expansion
                if c == "," and depth == 0:
                    args, cur = args + [cur.strip()], ""
                    continue
                depth, cur = depth + (c in "([{") - (c in ")]}"), cur + c
            args = dict(zip(params, args + [cur.strip()]))
            body = re.sub(r"#\s*(\w+)", lambda p: '""' if p.group(1) in args else p.group(0),
                          re.sub(r"\s*##\s*", "\x03", body))  # stringizing, then token pasting
            body = re.sub(r"\b\w+\b", lambda p: expand(args[p.group(0)], macros, [], disabled)
                          if p.group(0) in args else p.group(0), body).replace("\x03", "")
            contexts.append((m.group(0), args))
            body = f"\x01{len(contexts) - 1}\x02{body}\x01/\x02"
        out += [code[pos:m.start()], expand(body, macros, contexts, disabled | {m.group(0)}).replace("\n", " "),
                "\n" * code.count("\n", m.start(), end)]
        pos = end
    return "".join(out + [code[pos:]])


def top_level(s):
    """(index, char) for the characters of s outside brackets and template arguments, opening brackets
    included; an operator's name is one item, '@'."""
    stack, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "o" and not re.match(r"\w", s[i - 1:i]) and (op := OPERATOR.match(s, i)):
            if not stack:
                yield i, "@"
            i = op.end()
            continue
        if c in "([{" or (c == "<" and re.search(r"\w\s*$", s[:i])):
            if not stack and c != "<":
                yield i, c
            stack.append(c)
        elif c in ")]}":
            while stack and stack.pop() != "([{"[")]}".index(c)]:
                pass
        elif c == ">" and stack and stack[-1] == "<" and s[i - 1] != "-":
            stack.pop()
        elif not stack:
            yield i, c
        i += 1


def strip_prefix(s):
    """Splits the leading `template <...>` headers and requires-clause off a declaration."""
    templates = []
    while (m := re.match(r"\s*template\s*(?=<)", s)):
        templates.append(s[m.end() + 1:close(s, m.end()) - 1])
        s = s[close(s, m.end()):]
    if (m := re.match(r"\s*requires\b", s)):  # terms joined by && and ||: (...) or name<...>(...)
        i = m.end()
        while True:
            i = re.compile(r"\s*[\w:]*").match(s, i).end()
            i = close(s, i) if s[i:i + 1] == "<" else i
            i = close(s, i) if s[i:i + 1] == "(" else i
            if not (more := re.compile(r"\s*(&&|\|\|)").match(s, i)):
                break
            i = more.end()
        s = s[i:]
    return templates, s.strip()


def template_params(templates, params=None):
    """`<T, Space = device>`: the last template header's parameters; given a function's parameter list,
    only those the call cannot deduce, which the caller writes."""
    names = []
    for p in re.split(r",(?![^<(]*[>)])", templates[-1]) if templates else []:
        m = re.match(r"(.*?)(\w+)\s*(=.*)?$", p.strip(), re.S)
        if m and m.group(2) not in ("class", "typename") and not (params and re.search(rf"\b{m.group(2)}\b", params)):
            variadic, default = "..." if "..." in m.group(1) else "", " " + m.group(3) if m.group(3) else ""
            names.append(m.group(2) + variadic + default)
    return f"<{', '.join(names)}>" if names else ""


def tidy(s):
    """One line, C++ spacing, the literals back."""
    s = re.sub(r"\s+([,)\]])|([(\[])\s+", lambda m: m.group(1) or m.group(2), re.sub(r"\s+", " ", s).strip())
    # Defaulted parameters of internal types, which no caller passes (the statement's end of the
    # eager producers, exec/produced.hpp), are not shown.
    s = re.sub(r", const detail::\w+& \w+ = \{\}", "", s)
    return re.sub(r"([\"'])@(\d+)\1", lambda m: literals[int(m.group(2))], s)


def classify(s, cls):
    """What a declaration at namespace or class scope (of class `cls`) declares, as (kind, name, call
    form), or None for what the reference leaves out: forward declarations, using-declarations, deduction
    guides, static_assert, friends, destructors, copies, moves, deleted and out-of-line member definitions."""
    templates, head = strip_prefix(s)
    if not head or re.match(r"(static_assert|friend|typedef)\b", head):
        return None
    if (m := re.match(r"using\s+(\w+)\s*=\s*(.*)", head, re.S)):
        return "alias", m.group(1), f"using {m.group(1)}{template_params(templates)} = {tidy(m.group(2))}"
    if head.startswith("using") or re.match(r"(class|struct|union|enum)\b[^{(=]*$", head):
        return None
    if (m := re.match(r"concept\s+(\w+)", head)):
        return "concept", m.group(1), f"concept {m.group(1)}{template_params(templates)}"
    items = list(top_level(head))
    op = next((k for k, c in items if c == "@"), None)
    end = next((k for k, c in items if c in "={"), len(head))
    for i, c in items:
        if i >= end or c != "(" or (op is None and re.search(r"\b(decltype|alignas|noexcept|sizeof)\s*$", head[:i])):
            continue
        if op is not None:
            name, at = re.sub(r"^operator\s*(?=\W)", "operator", tidy(head[op:i])), op
        else:
            name, at = (m := re.search(r"([~\w]*)\s*$", head[:i])).group(1), m.start(1)
        before, params, after = re.sub(r"\b(inline|constexpr|explicit|static)\s*", "", head[:at]), \
            head[i + 1:close(head, i) - 1], head[close(head, i):]
        if params.lstrip().startswith("*"):  # a pointer to a function
            return ("field" if cls else "constant"), re.match(r"\s*\*\s*(\w+)", params).group(1), tidy(head)
        if not name or name[0] == "~" or before.rstrip().endswith("::") or re.search(r"=\s*delete\b", after) or \
                (not before.strip() and not cls and not name.startswith("operator")) or \
                (cls and name in (cls, "operator=") and re.fullmatch(rf"\s*(const\s+)?{cls}\s*&{{0,2}}\s*\w*\s*", params)):
            return None
        explicit = "" if name.startswith("operator ") else template_params(templates, params)
        static = "static " if re.search(r"\bstatic\b", head[:at]) else ""
        return ("constructor" if name == cls else "function"), name, f"{static}{name}{explicit}({tidy(params)})"
    names = [re.search(r"(\w+)\s*(\[[^\]]*\])?\s*$", re.split(r"[={]", part)[0]) for part in re.split(r",(?![^<({]*[>)}])", head)]
    if not names[0]:
        return None
    kind = "constant" if not cls or head.startswith("static") else "field"
    type_ = tidy(re.sub(r"inline\s+", "", head[:names[0].start()]))
    return kind, ", ".join(n.group(1) for n in names if n), f"{type_} {names[0].group(1)}{template_params(templates)}"


def first_sentence(block):
    """The first sentence of the first paragraph of a comment's lines."""
    text = " ".join(block[:block.index("")] if "" in block else block).strip()
    m = re.match(r"(.+?(?<!\be\.g)(?<!\bi\.e)[.!?])(?=\s|$)", text)
    return m.group(1) if m else text


def comment_above(lines, n, name=None):
    """The first sentence of the comment block directly above line n; for an undocumented `name`, that of
    the nearest block above in its group of lines (no blank line between) if the block names it."""
    block, k = [], n
    while k > 0 and lines[k - 1].strip().startswith("//") and not re.match(r"//\s*-{3}", lines[k - 1].strip()):
        k -= 1
        block.insert(0, lines[k].strip()[2:].strip())
    if block or not name:
        return first_sentence(block)
    while k > 0 and lines[k - 1].strip() and not lines[k - 1].strip().startswith("//"):
        k -= 1
    found = comment_above(lines, k)
    return found if re.search(rf"(np\.|np\.random\.|xf::){name}\b" if name.isalpha() else rf"\b{name}\b", found) else ""


def intro(path):
    """The first sentence of a header's leading comment, after its SPDX line."""
    lines = path.read_text().splitlines()
    end = next(k for k, line in enumerate(lines) if k and not line.startswith("//"))
    return first_sentence([line[2:].strip() for line in lines[1:end]])


def scan(path, macros, transparent):
    """The declarations of one header in source order, each marked public or not; adds the inline
    namespaces and those that a using-directive opens to `transparent`."""
    contexts, forward, decls = [], {}, []
    code = expand(lex(path.read_text(), {}), macros, contexts)
    lines, newlines = path.read_text().splitlines(), [k for k, c in enumerate(code) if c == "\n"]
    stack = [Record(kind="ns", path=(), public=True, visible=False)]
    buf, start, ctx, after_type, i = "", None, [], False, 0

    def record(kind, name, form, body=""):
        top, line = stack[-1], bisect.bisect(newlines, start)
        decls.append(Record(kind=kind, path=top.path + (name,), form=form, body=body, file=path, line=line,
                            public=top.visible and top.public, member=top.kind == "class",
                            macro=contexts[ctx[-1]] if ctx else None,
                            doc=comment_above(lines, line, None if top.kind == "class" else name)))

    def push(kind, path, public):
        visible = path[:1] == ("xf",) and "detail" not in path and "" not in path and \
            (kind == "ns" or stack[-1].visible and stack[-1].public)
        stack.append(Record(kind=kind, path=path, public=public, visible=visible))

    while i < len(code):
        c, cls = code[i], stack[-1].path[-1] if stack[-1].kind == "class" else None
        if c == "\x01":  # a macro's expansion begins or ends
            j = code.index("\x02", i)
            ctx.pop() if code[i + 1:j] == "/" else ctx.append(int(code[i + 1:j]))
            i = j + 1
            continue
        if c not in ";{}" and not (c == ":" and cls and buf.strip() in ("public", "private", "protected")):
            start = i if start is None and not c.isspace() else start
            buf, i = buf + c, i + 1
            continue
        templates, head = strip_prefix(buf)
        top = list(top_level(head))
        if c == "{":
            j, parens = close(code, i), [k for k, ch in top if ch == "("]
            member_init = parens and re.search(r"[\w>]\s*$", head) and any(
                ch == ":" and head[k - 1] != ":" and head[k + 1] != ":" for k, ch in top if k > parens[0])
            type_head = re.match(r"(inline\s+)?namespace\b|extern\b|(class|struct|union|enum)\b", head)
            if buf.count("(") > buf.count(")") or "=" in [ch for _, ch in top] or member_init or (head and not parens and not type_head):
                buf, i = buf + "{}", j  # a braced initializer, a lambda, a requires-expression: in the statement
                continue
            named = re.search(r"(class|struct|union|enum(?:\s+class)?)\s+(?:\[\[\w+\]\]\s*)?(\w+)", head)
            if (m := re.match(r"(inline\s+)?namespace\s*([\w:]*)", head)) or head.startswith("extern"):
                push("ns", stack[-1].path + (tuple(m.group(2).split("::") if m.group(2) else [""]) if m else ()), True)
                transparent.update([stack[-1].path] if m and m.group(1) else [])
                j = i + 1
            elif named and named.group(1).startswith("enum"):
                values = [v.split("=")[0].strip() for v in code[i + 1:j - 1].split(",") if v.strip()]
                record("enum", named.group(2), f"{named.group(1)} {named.group(2)} {{{', '.join(values)}}}")
                after_type = True
            elif named:
                specialization = head[named.end():].lstrip().startswith("<")
                base = re.search(r"(?<!:):(?!:)\s*(?:public\s+)?([\w:<>, ]+?)\s*$", head[named.end():])
                if not specialization:
                    record("class", named.group(2), f"{named.group(1)} {named.group(2)}{template_params(forward.get(named.group(2), templates))}"
                           + (f" : {tidy(base.group(1))}" if base else ""))
                push("class", stack[-1].path + (named.group(2),), named.group(1) != "class" and not specialization)
                j = i + 1
            elif head and (what := classify(buf, cls)):
                record(*what, body=code[i:j])
            buf, start, i = "", None, j
            continue
        if c == ":":
            stack[-1].public = buf.strip() == "public"
        elif c == "}":
            after_type = len(stack) > 1 and stack.pop().kind == "class"
        elif not after_type and head:
            if (what := classify(buf, cls)):
                record(*what)
            elif stack[-1].visible and stack[-1].public:
                record("skipped", "", tidy(buf))
            if (m := re.match(r"(class|struct)\s+(\w+)$", head)) and templates:
                forward[m.group(2)] = templates
            if (m := re.match(r"using\s+namespace\s+(\w+)$", head)):
                transparent.add(stack[-1].path + (m.group(1),))
        else:
            after_type = False
        buf, start, i = "", None, i + 1
    return decls


def collect():
    """The reference's rows, {(group, declaration path): row}, in header order; what the scan left out;
    and the headers that no top-level header includes."""
    files, macros, transparent, rows, skipped = sorted(INCLUDE.rglob("*.hpp")) + sorted(INCLUDE.rglob("*.cuh")), {}, set(), {}, []
    for f in files:
        lex(f.read_text(), macros)
    claimed, groups = {INCLUDE / f"{t}.hpp" for t in TOP}, {}
    for group in TOP:  # each top-level header claims what it includes that no earlier one did, depth first
        order, todo = [], [INCLUDE / f"{group}.hpp"]
        while todo:
            order.append(todo.pop(0))
            new = [f for f in ((order[-1].parent / m).resolve() for m in re.findall(r'^\s*#\s*include\s+"([^"]+)"',
                   order[-1].read_text(), re.M)) if f not in claimed and f.exists()]
            claimed, todo = claimed | set(new), new + todo
        groups[group] = order
        for f in order:
            for d in scan(f, macros, transparent):
                if not d.public or d.path[-1].startswith("xf_") or (d.member and (d.path[-1] in PROTOCOL or d.kind == "alias")):
                    continue
                if d.kind == "skipped":
                    skipped.append(f"{f.relative_to(root)}:{d.line + 1}: {d.form[:100]}")
                elif not re.match(r"\{\s*static_assert\s*\(\s*(detail::)?always_false", d.body):  # not a diagnostic
                    key = (group, d.path[:-1] if d.kind in ("constructor", "field") else d.path)
                    row = rows.setdefault(key, Record(decls=[], forms=[], fields=[], order=(order.index(f), d.line)))
                    row.decls.append(d)
                    if d.kind == "field":
                        row.fields.append(d.path[-1])
                    elif d.form not in row.forms:
                        row.forms.append(d.form)
    for (group, path), row in rows.items():
        row.name = "::".join(p for k, p in enumerate(path) if path[:k + 1] not in transparent)
        row.kind = "class" if row.decls[0].kind in ("constructor", "field") else row.decls[0].kind
    seen = {f.resolve() for order in groups.values() for f in order}
    return rows, skipped, [str(f.relative_to(root)) for f in files if f.resolve() not in seen and f.name != "xfuse.hpp"]


def describe(group, row, docs):
    """The row's description: a macro's, its comment's first sentence, or a fallback; '' if none."""
    parent, short = row.name.rsplit("::", 1)
    for d in row.decls:
        if d.macro and (text := MACRO_DOCS.get(d.macro[0]) or MACRO_DOCS.get(f"{d.macro[0]} {d.macro[1].get('RUN')}")):
            return text.format(**d.macro[1])
    own = [d for d in row.decls if d.kind == "class"] or [d for d in row.decls if d.kind != "field"]
    doc = own[0].doc or FALLBACK_DOCS.get(f"{group} {row.name}", FALLBACK_DOCS.get(row.name)) or \
        next((d.doc for d in own if d.doc), "")
    if not doc and (parent == "xf" or parent in ARRAY_LIKE):  # a free function that spells a member
        doc = docs.get(f"xf::array::{short}", "")
    if not doc and row.kind == "constant" and ">" not in row.forms[0]:  # a tag object: its type's comment
        doc = docs.get(f"{parent}::{row.forms[0].split()[-2]}", "")
    if not doc and short.endswith("_result") and f"{parent}::{short[:-7]}" in docs:
        doc = f"What `{parent}::{short[:-7]}` returns."
    ops = list(dict.fromkeys(o for d in row.decls for o in re.findall(r"detail::ops::(\w+)\{", d.body)))
    if not doc and len(ops) == 1 and row.kind == "function":
        doc = f"Element-wise `{ops[0]}` (a lazy expression)."
    return doc or (intro(row.decls[0].file) if intro(row.decls[0].file).startswith(f"{row.name}:") else "")


def counterpart(group, row):
    """NumPy's (or CuPy's, SciPy's, PyTorch's) names for a row, as Markdown, or '—'."""
    parent, short = row.name.rsplit("::", 1)
    found = OVERRIDES.get(f"{group} {row.name}", OVERRIDES.get(row.name))
    if found is None and short in PREFIXES.get(parent, ("", ""))[1].split():
        found = f"{PREFIXES[parent][0]}.{short}"
    if found is None and row.name in PREFIXES and row.kind == "class":
        found = PREFIXES[row.name][0]
    if found is None and parent in ARRAY_LIKE:
        found = f"numpy.ndarray.{short}" if short in NDARRAY else ""
    ops = [f"numpy.{o}" for o in dict.fromkeys(o for d in row.decls for o in re.findall(r"detail::ops::(\w+)\{", d.body))
           if o not in ("cast", "real_part", "imag_part", "user_fn")]
    if found is None:
        found = ", ".join(ops) or (f"numpy.{short}" if parent in ("xf", "xf::lazy") and row.kind == "function" and
                                   re.fullmatch(r"[a-z]\w*", short) and short not in NOT_NUMPY else "")
    deferred = " (deferred)" if parent == "xf::lazy" else ""
    return ", ".join(f"`{f}`" for f in found.split(", ")) + deferred if found else "—"


def markdown(text):
    """Text for a table cell: code spans kept; emphasis, HTML and the cell separator escaped elsewhere."""
    parts = text.split("`")
    for k in range(0, len(parts), 2):
        parts[k] = re.sub(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])", r"\_", parts[k].replace("*", r"\*")).replace("<", "&lt;")
    return "`".join(parts).replace("|", r"\|")


def render():
    """The text of docs/api.md, the names per header, what the scan left out, the headers no top-level
    header includes, and the names without a description."""
    rows, skipped, unreached = collect()
    for (group, path), row in rows.items():  # a callable tag object also takes its type's operator() forms
        call = row.kind == "constant" and rows.get((group, path[:-1] + (row.forms[0].split()[-2], "operator()")))
        row.forms += [re.sub(r"^operator\(\)", path[-1], f) for f in call.forms] if call else []
    docs = {}
    for row in rows.values():
        docs[row.name] = docs.get(row.name) or row.decls[0].doc or FALLBACK_DOCS.get(row.name, "")
    counts = {g: sum(1 for k in rows if k[0] == g) for g in TOP}
    out = ["# API reference", "", "Every public name of xfuse: the functions, operators, classes and their member functions, "
           "type aliases, concepts and constants of namespace `xf` and its public namespaces (`xf::lazy`, `xf::linalg`, "
           "`xf::random`, `xf::dlpack`), grouped by the header that brings them. This page is generated from the headers by "
           "`python3 scripts/api_reference.py` and checked in CI; [the guide](guide.md) explains the semantics. Each row "
           "gives the call forms of a name (its overloads; template parameters appear where the caller writes them, as in "
           "`xf::zeros<T>(shape)`), the first sentence of its comment in the header, and its NumPy (or CuPy, SciPy, PyTorch) "
           "counterpart. A name declared in several headers appears under each.", "",
           f"`<xfuse/xfuse.hpp>`: {markdown(intro(INCLUDE / 'xfuse.hpp'))}", ""]
    out += [f"- [`<xfuse/{g}.hpp>`](#xfuse{g}hpp): {n or 'no'} names" for g, n in counts.items()] + [""]
    undocumented = []
    for group in TOP:
        out += [f"## `<xfuse/{group}.hpp>`", "", markdown(intro(INCLUDE / f"{group}.hpp")), ""]
        out += ["| name | call forms | description | NumPy / CuPy |", "|---|---|---|---|"] if counts[group] else \
            ["This header declares no names of its own.", ""]
        for key in sorted((k for k in rows if k[0] == group), key=lambda k: rows[k].order):
            row = rows[key]
            forms = "<br>".join(f"`{f}`" for f in row.forms + ([f"{{{', '.join(row.fields)}}}"] if row.fields else []))
            doc = describe(group, row, docs)
            undocumented += [row.name] if not doc else []
            cells = [f"`{row.name}`".replace("|", r"\|"), forms.replace("|", r"\|"), markdown(doc) or "—", counterpart(group, row)]
            out.append(f"| {' | '.join(cells)} |")
        out += [""] if counts[group] else []
    return "\n".join(out), counts, skipped, unreached, undocumented


def main():
    """Writes docs/api.md, or with --check compares it and exits 1 when it differs."""
    text, counts, skipped, unreached, undocumented = render()
    if "--verbose" in sys.argv:
        print("left out:", *skipped, "headers that no top-level header includes:", *unreached, sep="\n  ")
        print(f"no comment in the headers ({len(undocumented)}):", " ".join(undocumented))
    old = OUT.read_text() if OUT.exists() else ""
    summary = f"{sum(counts.values())} names (" + ", ".join(f"{g} {n}" for g, n in counts.items()) + ")"
    if "--check" in sys.argv and old != text:
        sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True), "docs/api.md",
                                                   "docs/api.md as the headers make it"))
        sys.exit("docs/api.md is out of date with the headers: run python3 scripts/api_reference.py")
    if old != text:
        OUT.write_text(text)
    print("docs/api.md:", "written," if old != text else "up to date,", summary)


if __name__ == "__main__":
    main()
