#!/usr/bin/env python3
"""Checks that every measured figure in README.md's prose appears in docs/performance.md, so that
the README quotes the current tables and nothing else (CTest runs this; exit 1 names the others).

A figure is a decimal (0.942), a multiplier (415x, 2.90x) or a percentage (7%) outside code
(fenced blocks and `spans`) and link targets. Version numbers (CUDA 12.0, Ubuntu 24.04, .npy
formats 1.0 to 3.0, Apache License 2.0) are not figures. A decimal must appear in
docs/performance.md as the same number (0.94 does not match 0.942); an integer multiplier as
Nx, N times or a table cell of its own; a percentage as N%.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
NUMBER = r"(?<![\w.])(\d+(?:\.\d+)?)"
VERSION = re.compile(r"\b(?:toolkit|CUDA|Ubuntu|Debian|capability|License|formats?|versions?|tested:)\s+"
                     r"\d+(?:\.\d+)+(?:\s*(?:,|to|and)\s+\d+(?:\.\d+)+)*")


def prose(markdown):
    """markdown without code and link targets, with its line breaks where they were."""
    keep_lines = lambda m: "\n" * m.group(0).count("\n")
    text = re.sub(r"^\s*```.*?^\s*```", keep_lines, markdown, flags=re.S | re.M)  # fenced blocks
    text = re.sub(r"`[^`]*`", keep_lines, text)  # code spans
    text = re.sub(r"\]\([^)]*\)", "]", text)  # link targets
    return VERSION.sub(keep_lines, text)


def figures(text):
    """(line, figure as written, number, kind) for each figure in text."""
    out = []
    for m in re.finditer(NUMBER + r"(\s*%|x\b)?", text):
        number, suffix = m.group(1), (m.group(2) or "").strip()
        if "." in number or suffix:
            kind = {"%": "%", "x": "x"}.get(suffix, "decimal")
            out.append((text.count("\n", 0, m.start()) + 1, m.group(0).strip(), number, kind))
    return out


def appears(number, kind, reference):
    n = re.escape(number)
    if kind == "%":
        pattern = rf"(?<![\w.]){n}\s*%"
    elif "." in number:
        pattern = rf"(?<![\w.]){n}(?!\d|\.\d)"
    else:
        pattern = rf"(?<![\w.]){n}(?:x\b| times\b)|\|\s*{n}\s*\|"
    return re.search(pattern, reference) is not None


def main():
    readme = prose((root / "README.md").read_text())
    reference = (root / "docs" / "performance.md").read_text()
    found = figures(readme)
    missing = [f"README.md:{line}: {written}" for line, written, number, kind in found if not appears(number, kind, reference)]
    if missing:
        sys.exit("figures in README.md that docs/performance.md does not hold (quote its tables):\n  " + "\n  ".join(missing))
    print(f"README figures: {len(found)}, each in docs/performance.md")

main()
