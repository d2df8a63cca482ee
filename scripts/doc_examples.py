#!/usr/bin/env python3
"""Copies the examples marked in compiled tests (// example-begin NAME ... // example-end) into the
docs, between <!-- example: NAME --> and <!-- /example -->. With --check, only reports whether the
docs are up to date (exit 1 if not); CTest runs that."""
import pathlib
import re
import sys
import textwrap

root = pathlib.Path(__file__).resolve().parent.parent
examples = {}
for src in (root / "tests").rglob("*.c*"):
    for m in re.finditer(r"// example-begin (\w+)\n(.*?)\n\s*// example-end", src.read_text(), re.S):
        examples[m.group(1)] = textwrap.dedent(m.group(2))

stale = []
for doc in (root / "docs").glob("*.md"):
    text = doc.read_text()

    def fill(m):
        name = m.group(1)
        if name not in examples:
            sys.exit(f"{doc.name}: no example named {name} in tests/")
        return f"<!-- example: {name} -->\n```cpp\n{examples[name]}\n```\n<!-- /example -->"

    new = re.sub(r"<!-- example: (\w+) -->.*?<!-- /example -->", fill, text, flags=re.S)
    if new != text:
        stale.append(doc.name)
        if "--check" not in sys.argv:
            doc.write_text(new)
if "--check" in sys.argv and stale:
    sys.exit("docs out of date with tests (run scripts/doc_examples.py): " + ", ".join(stale))
print("docs examples:", "updated " + ", ".join(stale) if stale else "up to date")
