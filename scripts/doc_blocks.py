#!/usr/bin/env python3
"""The shell and CMake blocks of README.md and docs/*.md, and the tests that exercise them.

  doc_blocks.py --check      every such block is listed in COVERAGE with tests that exist, every
                             entry there names a block that exists, and every repository path and
                             option in a shell block exists (exit 1 otherwise); CTest runs this
  doc_blocks.py --list       each block and the tests that cover it
  doc_blocks.py --print KEY  one block's text (tests/package/run.cmake runs README.md's verbatim)

A block's key is FILE#SECTION:LANG, SECTION the anchor of the heading above it; a second block of
that language in the section is FILE#SECTION:LANG:2, and so on. A changed block keeps its key, so
its tests run the new text; a new block fails --check until a test covers it.
"""
import pathlib
import re
import shlex
import sys

root = pathlib.Path(__file__).resolve().parent.parent
LANGS = {"", "sh", "bash", "shell", "console", "cmake", "make", "makefile"}
PACKAGE_TEST = "package: installed with --prefix, used through find_package and pkg-config"

# key -> [(kind, name, how)]: kind "ctest" names a test in tests/CMakeLists.txt, "ci" a command of
# .ci/run; "checked" says the test checks the block's commands without running them (--check).
COVERAGE = {
    "README.md#two-commands-on-a-fresh-machine:sh": [
        ("ctest", "docs: scripts/demo.sh builds and runs the demo", "runs scripts/demo.sh"),
        ("ci", "scripts/test.sh", "CI runs scripts/test.sh (a test of it cannot run it again)"),
    ],
    "README.md#using-it:cmake": [
        ("ctest", PACKAGE_TEST, "builds and runs a project whose CMakeLists.txt is the block"),
    ],
    "README.md#using-it:sh": [
        ("ctest", PACKAGE_TEST, "runs the block in a folder with app.cu, then the program"),
    ],
    "docs/performance.md#reproducing:sh": [
        ("ctest", "docs: bench/summarize.py summarizes a committed run", "runs its summarize.py line on a committed run"),
        ("ctest", "docs: every shell and CMake block is exercised by a test",
         "checked: its scripts and their options exist; gpu_suite.sh and compile_time.sh need a GPU machine and "
         "minutes of builds (CONTRIBUTING.md, the GPU suite)"),
    ],
}


def slug(heading):
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


def blocks():
    """(key, file, line, text) of every shell or CMake block."""
    out = []
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        rel = doc.relative_to(root).as_posix()
        section, seen, fence = "", {}, None
        for number, line in enumerate(doc.read_text().split("\n"), 1):
            if fence is None:
                if m := re.match(r"#+\s+(.*)", line):
                    section = slug(m.group(1))
                elif m := re.match(r"\s*```\s*([\w+-]*)", line):
                    fence = (m.group(1).lower(), number, [])
            elif re.match(r"\s*```\s*$", line):
                lang, start, text = fence
                fence = None
                if lang in LANGS:
                    base = f"{rel}#{section}:{lang or 'text'}"
                    seen[base] = seen.get(base, 0) + 1
                    key = base if seen[base] == 1 else f"{base}:{seen[base]}"
                    out.append((key, rel, start, "\n".join(text) + "\n"))
            else:
                fence[2].append(line)
    return out


def shell_problems(rel, start, text):
    """Repository paths a shell block names that do not exist, and options its scripts do not take."""
    problems = []
    for line in text.replace("\\\n", " ").split("\n"):
        line = line.split(" #")[0].strip()
        if not line or line.startswith("#"):
            continue
        try:
            words = shlex.split(line)
        except ValueError as e:
            problems.append(f"{rel}:{start}: cannot parse `{line}`: {e}")
            continue
        script = None
        for word in words:
            top = word.split("/")[0]
            if "/" in word and re.fullmatch(r"[\w-]+", top) and (root / top).is_dir() and not top.startswith("build"):
                path = root / word.split("@")[0]
                if not path.exists():
                    problems.append(f"{rel}:{start}: `{word}` does not exist")
                elif path.is_file() and script is None:
                    script = path
            elif word.startswith("--") and script is not None and word.split("=")[0] not in script.read_text():
                problems.append(f"{rel}:{start}: {script.relative_to(root)} takes no option {word}")
    return problems


def main():
    found = blocks()
    keys = {key for key, *_ in found}
    if "--print" in sys.argv:
        key = sys.argv[sys.argv.index("--print") + 1]
        text = [t for k, _, _, t in found if k == key]
        if not text:
            sys.exit(f"no block {key}; the blocks are: " + ", ".join(sorted(keys)))
        sys.stdout.write(text[0])
        return
    if "--list" in sys.argv:
        for key, rel, start, _ in found:
            print(f"{key} ({rel}:{start})")
            for kind, name, how in COVERAGE.get(key, [("none", "NOT COVERED", "")]):
                print(f"    {kind}: {name}" + (f": {how}" if how else ""))
        return
    problems = []
    ctest = (root / "tests" / "CMakeLists.txt").read_text()
    ci = (root / ".ci" / "run").read_text() if (root / ".ci" / "run").exists() else ""
    for key, rel, start, text in found:
        if key not in COVERAGE:
            problems.append(f"{rel}:{start}: block {key} is exercised by no test (add one, and list it in scripts/doc_blocks.py)")
        if not key.endswith(":cmake"):
            problems += shell_problems(rel, start, text)
    for key, tests in COVERAGE.items():
        if key not in keys:
            problems.append(f"scripts/doc_blocks.py lists {key}, which no document has")
        for kind, name, _ in tests:
            if kind == "ctest" and f'NAME "{name}"' not in ctest:
                problems.append(f"{key}: no test named \"{name}\" in tests/CMakeLists.txt")
            if kind == "ci" and name not in ci:
                problems.append(f"{key}: .ci/run does not run {name}")
    if problems:
        sys.exit("\n".join(problems))
    print(f"doc blocks: {len(found)} shell and CMake blocks, each exercised by a test")


main()
