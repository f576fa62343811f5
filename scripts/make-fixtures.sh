#!/usr/bin/env bash
# Regenerates packages/coverage/fixtures/<tool>/ with the REAL coverage tools, so the conformance
# tests (packages/coverage/test/conformance) compare the library with each tool's own figures.
# Needs: git, diff-cover, JaCoCo (libjacoco-java) + ant + javac, gcc + lcov + gcovr,
# python3-coverage, golang-go, and c8 from the root devDependencies. Idempotent: every run
# rebuilds each tool's directory from scratch. Usage: scripts/make-fixtures.sh [tool...]
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
HERE="$ROOT/scripts/fixtures"
OUT="$ROOT/packages/coverage/fixtures"
# A fixed work directory: LCOV and gcovr write absolute paths, which then stay the same across runs.
WORK=/tmp/sextant-fixtures
export LC_ALL=C TZ=UTC

# shellcheck source=fixtures/common.sh
source "$HERE/common.sh"
for script in "$HERE"/*/make.sh; do
  # shellcheck disable=SC1090
  source "$script"
done

tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(jacoco jacoco-field-init c python go js lcov java-random demo)
mkdir -p "$WORK"
for tool in "${tools[@]}"; do
  echo "fixtures: $tool"
  rm -rf "${OUT:?}/$tool"
  mkdir -p "$OUT/$tool"
  "make_${tool//-/_}"
done
du -sh "$OUT"
