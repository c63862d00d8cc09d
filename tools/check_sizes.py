#!/usr/bin/env python3
"""Units of one job: no source file in core/, ui/ or app/ over 700 lines, no function in ui/ or app/
over 150 lines. CI runs it; it names each file or function over its limit.

Functions are found on the clang-formatted tree (tools/check_format.sh): a definition opens at
column 0 (not a namespace, class, struct, enum or extern block) and ends at the next line that is
exactly "}". Usage: python3 tools/check_sizes.py [--list N] (--list prints the N longest functions)."""
import re
import subprocess
import sys
from pathlib import Path

FILE_LIMIT = 700
FUNCTION_LIMIT = 150
ROOT = Path(__file__).resolve().parent.parent
NOT_A_FUNCTION = re.compile(r"^(namespace|class|struct|enum|union|extern|template\s*<[^>]*>\s*(class|struct))\b")


def tracked(patterns):
    out = subprocess.run(["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    return [ROOT / line for line in out.splitlines() if line]


def functions(path):
    """(signature's first line, its line number, length in lines) of each column-0 definition."""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    found = []
    pending = None  # a column-0 line that may begin a signature
    start = None
    for number, line in enumerate(lines, 1):
        if start is None:
            if line and not line[0].isspace() and not line.startswith(("#", "//", "/*", "}", "*")):
                pending = None if NOT_A_FUNCTION.match(line) else number
            if pending is not None:
                stripped = line.rstrip()
                if stripped.endswith(";"):
                    pending = None
                elif stripped.endswith("{") and not stripped.endswith("= {"):
                    start = pending
                    pending = None
        elif line in ("}", "};"):
            found.append((lines[start - 1].strip(), start, number - start + 1))
            start = None
    return found


def main():
    listing = int(sys.argv[sys.argv.index("--list") + 1]) if "--list" in sys.argv else 0
    problems = []
    for path in tracked(["core/*.cpp", "core/*.h", "ui/*.cpp", "ui/*.h", "app/*.cpp", "app/*.h"]):
        count = len(path.read_text(encoding="utf-8", errors="replace").splitlines())
        if count > FILE_LIMIT:
            problems.append(f"{path.relative_to(ROOT)}: {count} lines (limit {FILE_LIMIT})")
    everything = []
    for path in tracked(["ui/*.cpp", "app/*.cpp"]):
        for signature, start, length in functions(path):
            everything.append((length, f"{path.relative_to(ROOT)}:{start}: {signature}"))
            if length > FUNCTION_LIMIT:
                problems.append(f"{path.relative_to(ROOT)}:{start}: function of {length} lines "
                                f"(limit {FUNCTION_LIMIT}): {signature}")
    for length, where in sorted(everything, reverse=True)[:listing]:
        print(f"{length:5d}  {where}")
    if problems:
        print("units of one job: over the limits:", file=sys.stderr)
        for problem in problems:
            print("  " + problem, file=sys.stderr)
        return 1
    print(f"units of one job: no file over {FILE_LIMIT} lines, no ui/app function over "
          f"{FUNCTION_LIMIT} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
