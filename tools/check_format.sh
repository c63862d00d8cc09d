#!/usr/bin/env bash
# Checks (or with --fix, applies) the committed .clang-format over core, ui, app and tests.
# CI runs the check; a file that clang-format-14 would change fails it with the file named.
#   bash tools/check_format.sh          check, exit 1 naming every file that would change
#   bash tools/check_format.sh --fix    format those files in place
set -euo pipefail
cd "$(dirname "$0")/.."
formatter="${CLANG_FORMAT:-clang-format-14}"
mapfile -t files < <(git ls-files 'core/*.cpp' 'core/*.h' 'ui/*.cpp' 'ui/*.h' 'app/*.cpp' 'app/*.h' \
    'tests/*.cpp' 'tests/*.h' | grep -v '^tests/data/')
if [ "${1:-}" = "--fix" ]; then
    "$formatter" -i "${files[@]}"
    exit 0
fi
if ! "$formatter" --dry-run --Werror "${files[@]}" 2>/dev/null; then
    echo "clang-format: these files differ from .clang-format (fix: bash tools/check_format.sh --fix):" >&2
    for file in "${files[@]}"; do
        "$formatter" --dry-run --Werror "$file" >/dev/null 2>&1 || echo "  $file" >&2
    done
    exit 1
fi
echo "clang-format: ${#files[@]} files match .clang-format"
