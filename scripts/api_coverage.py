#!/usr/bin/env python3
"""Checks that every public name of docs/api.md is used by a file under tests/ (CTest runs it; exit 1
lists the names that no test uses). A name counts as used where a test spells it:
- a name of a namespace (xf::sum, xf::lazy::sum, xf::random::rand) fully qualified, after the tests'
  namespace aliases (`namespace dl = xf::dlpack;`), using-declarations (`using xf::slice;`) and macros
  that qualify an argument (`#define UNARY(NAME) ... xf::NAME(a)`: `UNARY(cbrt)` uses xf::cbrt) are
  written out;
- a member (xf::array::permute) as `.permute`, `->permute` or `array::permute` (`array<T, 2>::rank`);
- an operator through its token (`a + b` uses xf::operator+; a member operator of a class other than
  xf::array needs the class's name in the same file);
- a conversion operator, which has no name to search for, or a call that the rules above cannot tell
  from another, through the spelling that EVIDENCE gives.
xf::dist names count in tests/legate/ only (the distributed suite). Comments and string literals do
not count, nor files under tests/compile_fail/ (their code is meant not to compile). --verbose prints
where each name was found."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
TESTS, API = root / "tests", root / "docs" / "api.md"
SOURCES = (".cpp", ".cu", ".hpp", ".cuh", ".h")
NAMESPACES = {"xf", "xf::lazy", "xf::linalg", "xf::random", "xf::dlpack", "xf::dist", "xf::dist::lazy"}
# A spelling a test must contain for each name that the rules above cannot find by itself.
EVIDENCE = {
    "xf::graph::operator bool": r"static_cast<bool>\(xf::graph\(\)\)",  # explicit: a cast
    "xf::matmul_expr::operator result_type": r"xf::array<[^;=]*>\s+\w+\s*=\s*xf::matmul\(",
    "xf::view::operator view<const U, R>": r"xf::view<const [^;=]*>\s+\w+\s*=\s*xf::make_view\(",
    "xf::all_t::operator()": r"xf::all\(",  # xf::all called: the np.all reduction, not the index
}
# Names that no test can use, each with the reason. Keep it short; none today.
ALLOWED = {}


def public_names():
    """The names of docs/api.md's tables, once each, in their order."""
    names = re.findall(r"^\| `(xf::[^`]*)` \|", API.read_text(), re.M)
    return list(dict.fromkeys(n.replace("\\|", "|") for n in names))


def normalised(text):
    """A test's text with aliases, using-declarations and qualifying macros written out in full."""
    text = re.sub(r"//[^\n]*|/\*[\s\S]*?\*/|\"(?:\\.|[^\"\\\n])*\"|(?<!\w)'(?:\\.|[^'\\\n])'",
                  lambda m: "" if m.group(0)[0] == "/" else m.group(0)[0] * 2, text)  # comments, strings, characters
    for alias, target in re.findall(r"\bnamespace\s+(\w+)\s*=\s*(xf(?:::\w+)*)\s*;", text):
        text = re.sub(rf"(?<![\w:]){alias}::", f"{target}::", text)
    for target, last in re.findall(r"\busing\s+(xf(?:::\w+)*)::(\w+)\s*;", text):
        text = re.sub(rf"(?<![\w:.>]){last}\b", f"{target}::{last}", text)
    extra = []
    for macro, params, body in re.findall(r"#\s*define\s+(\w+)\(([^)]*)\)((?:\\\n|[^\n])*)", text):
        for k, p in enumerate(q.strip() for q in params.split(",")):
            for prefix in set(re.findall(rf"\b(xf(?:::\w+)*)::{p}\b", body)):
                for args in re.findall(rf"\b{macro}\(([^()]*)", text):
                    arg = (args.split(",") + [""] * k)[k].strip()
                    extra += [f"{prefix}::{arg}"] if re.fullmatch(r"\w+", arg) else []
    return "\n".join([text] + extra)


def pattern(name, classes):
    """The regular expression that finds a use of `name`, and the class a file must also name (or None)."""
    if name in EVIDENCE:
        return EVIDENCE[name], None
    parent, sep, op = name.partition("::operator")
    if sep:
        if not re.fullmatch(r"[^\w\s]+|\(\)|\[\]", op):
            sys.exit(f"{name}: a conversion operator needs an EVIDENCE entry in scripts/api_coverage.py")
        token = rf"\w\s*\{op[0]}" if op in ("()", "[]") else rf"(?<![-+*/%^&|!=<>~]){re.escape(op)}(?![-+*/%^&|=<>])"
        return token, (parent.rsplit("::", 1)[1] if parent in classes and parent != "xf::array" else None)
    parent, last = name.rsplit("::", 1)
    if parent in classes:
        short = parent.rsplit("::", 1)[1]
        return rf"(?:\.|->|\b{short}(?:<[^;{{}}]*?>)?::)\s*{re.escape(last)}\b", None
    return rf"(?<![\w:]){re.escape(name)}\b", None


def main():
    names = public_names()
    classes = {n for n in names if n not in NAMESPACES}
    files = {p.relative_to(TESTS): normalised(p.read_text(errors="replace")) for p in sorted(TESTS.rglob("*"))
             if p.suffix in SOURCES and "compile_fail" not in p.parts}
    unused = []
    for name in names:
        if name in ALLOWED:
            continue
        regex, needs = pattern(name, classes)
        where = next((p for p, t in files.items() if (not name.startswith("xf::dist") or p.parts[0] == "legate") and
                      (needs is None or re.search(rf"\b{needs}\b", t)) and re.search(regex, t)), None)
        unused += [name] if where is None else []
        if "--verbose" in sys.argv:
            print(f"{name}: {where or 'NOT USED'}")
    stale = sorted(set(ALLOWED) - set(names)) + sorted(set(EVIDENCE) - set(names))
    if stale:
        print("names in scripts/api_coverage.py that docs/api.md no longer lists:", *stale, sep="\n  ")
    if unused:
        print(f"{len(unused)} public names of docs/api.md are used by no test under tests/ "
              "(call each in a test, or see scripts/api_coverage.py):", *unused, sep="\n  ")
    if unused or stale:
        sys.exit(1)
    print(f"every public name of docs/api.md ({len(names)}) is used by a test under tests/")


if __name__ == "__main__":
    main()
