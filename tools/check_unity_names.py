#!/usr/bin/env python3
"""Names that two files of one folder define in anonymous namespaces.

The `asan` build (what CI runs) compiles each folder of core/ as one translation unit and ui/,
app/cli and tests/ in batches of files of one folder (cmake/CxBuildSpeed.cmake). Two files of a
folder that define the same name in an anonymous namespace then collide — in the batch they share
today, or in the one a new file shifts them into. This finds such pairs in every folder whatever
the batches, so the rule holds before a build shows it. Heuristic: top-level (column 0)
functions, variables, constants and types inside `namespace {` … `}` blocks.

    python3 tools/check_unity_names.py      exit 1 and one line per name defined twice
"""
import collections
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = ["core", "ui", "app", "tests"]

TYPE = re.compile(r"^(?:struct|class|union|enum(?:\s+class)?)\s+(\w+)\s*(?:[:{]|final\b)")
# `Type name(` / `Type name =` / `Type name{` / `Type name;` at column 0, not a keyword line
# (overloads that differ in their parameters are legal but reported: give them distinct names).
DEFINITION = re.compile(
    r"^(?!(?:return|using|namespace|template|TEST|TYPED_TEST|INSTANTIATE|typedef|static_assert|"
    r"friend|public|private|protected|case|default|if|for|while|switch|else|do)\b)"
    r"[\w:<>,\s\*&\[\]]*?[\w>\*&\]]\s+\**&?(\w+)\s*(?:\(|=|\{|;|\[)")


def anonymous_names(text):
    """Names defined at column 0 inside the file's anonymous namespaces."""
    names = set()
    depth = 0  # brace depth inside the current anonymous namespace; -1: outside
    inside = False
    for line in text.splitlines():
        if not inside:
            if re.match(r"^namespace\s*\{", line):
                inside = True
                depth = 0
            continue
        if re.match(r"^\}\s*//\s*namespace\s*$", line) and depth == 0:
            inside = False
            continue
        if depth == 0 and line and not line[0].isspace() and not line.startswith(("//", "#", "}")):
            for pattern in (TYPE, DEFINITION):  # (`using X = T;` may repeat)
                match = pattern.match(line)
                if match:
                    names.add(match.group(1))
                    break
        code = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|//.*', "", line)
        depth += code.count("{") - code.count("}")
        if depth < 0:  # the namespace's own closing brace without the comment
            inside = False
    return names


def main():
    problems = []
    for top in FOLDERS:
        folders = collections.defaultdict(list)
        for source in sorted((ROOT / top).rglob("*.cpp")):
            if "build" in source.relative_to(ROOT).parts[0]:
                continue
            folders[source.parent].append(source)
        for folder, sources in sorted(folders.items()):
            where = collections.defaultdict(list)
            for source in sources:
                for name in anonymous_names(source.read_text(encoding="utf-8", errors="replace")):
                    where[name].append(source.name)
            for name, files in sorted(where.items()):
                if len(files) > 1:
                    problems.append(f"{folder.relative_to(ROOT)}: '{name}' in an anonymous "
                                    f"namespace of {', '.join(files)}")
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} name(s) defined in anonymous namespaces of several files of one "
              "folder: they collide in the unity build (move a shared helper to a header, or "
              "rename)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
