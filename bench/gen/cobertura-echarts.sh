#!/usr/bin/env bash
# Generates a genuine c8 Cobertura XML of a large real JavaScript project with a real diff between
# two releases: ECharts and zrender 6.0.0 (base, from the npm registry) -> the installed 6.1.0
# (head). c8 records the workload in cobertura-echarts-workload.mjs against the head revision.
#   bench/out/cobertura/repo-1      git repo (tags base, head; packed), report-1.xml ~8 MB
#   bench/out/cobertura/repo-N      the same tree N times under copy-K/, report-N.xml N times as large
#   bench/out/cobertura/repo-N-distinct  the same, each copy's files ending with a comment of its own
# COPIES=N (default 7, ~57 MB) sets the large one.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/bench/out/cobertura"
old=6.0.0
copies="${COPIES:-7}"
mkdir -p "$out/releases"

if [ ! -d "$out/releases/echarts-$old" ]; then
  (cd "$out/releases" && npm pack --silent "echarts@$old" "zrender@$old" >/dev/null)
  for pkg in echarts zrender; do
    mkdir -p "$out/releases/$pkg-$old"
    tar xzf "$out/releases/$pkg-$old.tgz" -C "$out/releases/$pkg-$old" --strip-components=1
  done
fi

# Copies a package without its prebuilt bundles (c8 never sees them: Node loads lib/).
put_package() {
  mkdir -p "$2"
  tar -C "$1" --exclude=./dist --exclude=./node_modules --exclude=./types -cf - . | tar -C "$2" -xf -
}

# put_release REPO PREFIX old|new: one release of the three packages under REPO/PREFIXnode_modules.
put_release() {
  local modules="$1/${2}node_modules"
  rm -rf "$modules"
  if [ "$3" = old ]; then
    put_package "$out/releases/echarts-$old" "$modules/echarts"
    put_package "$out/releases/zrender-$old" "$modules/zrender"
  else
    put_package "$root/node_modules/echarts" "$modules/echarts"
    put_package "$root/node_modules/zrender" "$modules/zrender"
  fi
  # MARK_COPIES=1: each copy's .js files end with a comment naming the copy, so no two copies share
  # a blob (sextant extracts identical pairs once) while every line number stays as the report says.
  if [ "${MARK_COPIES:-0}" = 1 ] && [ -n "$2" ]; then
    find "$modules" -name '*.js' -print0 |
      MARK="$2" xargs -0 node -e 'for (const f of process.argv.slice(1)) require("fs").appendFileSync(f, `\n// ${process.env.MARK}\n`)'
  fi
  put_package "$root/node_modules/tslib" "$modules/tslib"
}

# make_repo DIR PREFIX...: base commit with the old release under each prefix, head with the new.
make_repo() {
  local repo="$1"
  shift
  rm -rf "$repo"
  mkdir -p "$repo"
  git -C "$repo" init -q -b main
  for release in old new; do
    for prefix in "$@"; do put_release "$repo" "$prefix" "$release"; done
    git -C "$repo" add -f -A .
    git -C "$repo" -c user.name=Bench -c user.email=bench@sextant.test commit -q -m "echarts $release"
    git -C "$repo" tag "$([ "$release" = old ] && echo base || echo head)"
  done
  # Packed, as a clone (what CI checks out) always is; loose objects would slow every git read.
  git -C "$repo" gc -q
}

make_repo "$out/repo-1" ''
(cd "$out/repo-1" && "$root/node_modules/.bin/c8" --exclude-node-modules=false --reporter=cobertura \
  --temp-directory "$out/c8-tmp" --report-dir "$out/c8-report" node "$here/cobertura-echarts-workload.mjs")
mv "$out/c8-report/cobertura-coverage.xml" "$out/report-1.xml"
rm -rf "$out/c8-tmp" "$out/c8-report"

prefixes=()
for k in $(seq 1 "$copies"); do prefixes+=("copy-$k/"); done
make_repo "$out/repo-$copies" "${prefixes[@]}"
node "$here/cobertura-replicate.mjs" "$out/report-1.xml" "$out/report-$copies.xml" "$out/repo-$copies" "${prefixes[@]}"
# The same report over copies that differ (a comment at each file's end): as much distinct source
# as a real report of that size has, so the cold run extracts every copy's methods.
MARK_COPIES=1 make_repo "$out/repo-$copies-distinct" "${prefixes[@]}"
ls -l "$out"/report-*.xml
