#!/usr/bin/env bash
# Generates a real-world LCOV tracefile of at least 100 MB into bench/out/lcov/lcov.info: c8 (V8 coverage →
# istanbul's lcovonly reporter, with FN/FNDA/BRDA/DA) records the TypeScript compiler type-checking our coverage
# package, and the node_modules code run by a Vitest run; the records are then repeated under renamed paths.
# MIN_MB=N to change the size.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=bench/out/lcov
rm -rf "$out" && mkdir -p "$out/src"
# c8 drops a script whose source map it cannot load, so the copy leaves out the sourceMappingURL line.
grep -v '^//# sourceMappingURL' node_modules/typescript/lib/typescript.js >"$out/src/typescript.cjs"
npx c8 --reporter=lcovonly --report-dir="$out/tsc" --temp-directory="$out/tmp-tsc" --include="$out/src/**" \
  node bench/gen/lcov-workload.mjs "$PWD/$out/src/typescript.cjs"
npx c8 --reporter=lcovonly --report-dir="$out/vitest" --temp-directory="$out/tmp-vitest" \
  --exclude-node-modules=false --include='node_modules/**' \
  node node_modules/vitest/vitest.mjs run packages/coverage/src/diff packages/coverage/src/merge >/dev/null
node bench/gen/replicate-lcov.mjs "$out/lcov.info" "${MIN_MB:-100}" "$out/tsc/lcov.info" "$out/vitest/lcov.info"
