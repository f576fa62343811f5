#!/bin/sh
# Builds Sextant's image where Docker Hub is out of reach (README "Operating", Container): a local
# stand-in for node:20-bookworm-slim made from a minimal Debian bookworm (debootstrap, from the Debian
# mirror) and this machine's Node.js 20 (node, npm, corepack), then deploy/Dockerfile on top of it with
# --build-arg NODE_IMAGE. Needs root, a running Docker daemon, debootstrap and Node.js 20 here.
#
#   sudo deploy/build-local-base.sh                # base image, then the `sextant` image
#   sudo deploy/build-local-base.sh --base-only    # only the base image
#
# Variables: EXTRA_CA_CERTS (PEM files, space-separated, the image trusts besides Debian's: behind a
# TLS-inspecting proxy, e.g. EXTRA_CA_CERTS="$(echo /usr/local/share/ca-certificates/*.crt)"; see
# deploy/ca-certificates/README.md), SEXTANT_BASE_TAG (default sextant-local/node:20-bookworm-slim), SEXTANT_IMAGE_TAG (sextant),
# DEBIAN_MIRROR (http://deb.debian.org/debian), NODE_BIN (the node on PATH), WORK_DIR (a folder kept
# between runs: a finished debootstrap is reused).
set -eu

BASE_TAG=${SEXTANT_BASE_TAG:-sextant-local/node:20-bookworm-slim}
IMAGE_TAG=${SEXTANT_IMAGE_TAG:-sextant}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
NODE_BIN=${NODE_BIN:-$(command -v node)}
WORK_DIR=${WORK_DIR:-${TMPDIR:-/tmp}/sextant-local-base}
ROOT_DIR=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "build-local-base: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (debootstrap and chroot need it)"
command -v debootstrap >/dev/null || die "debootstrap is missing (apt-get install debootstrap)"
docker info >/dev/null 2>&1 || die "no Docker daemon answers (docker info)"
NODE_VERSION=$("$NODE_BIN" -p process.versions.node)
case "$NODE_VERSION" in 20.*) ;; *) die "$NODE_BIN is Node.js $NODE_VERSION; the image is node:20 (set NODE_BIN)";; esac
NODE_LIB=$(cd "$(dirname "$(readlink -f "$NODE_BIN")")/../lib/node_modules" && pwd)
[ -f "$NODE_LIB/npm/bin/npm-cli.js" ] || die "no npm beside $NODE_BIN (looked in $NODE_LIB)"

ROOTFS=$WORK_DIR/rootfs
mkdir -p "$WORK_DIR"
if [ ! -f "$WORK_DIR/debootstrap.done" ]; then
  rm -rf "$ROOTFS"
  echo "debootstrap bookworm (minbase) from $MIRROR into $ROOTFS"
  debootstrap --variant=minbase bookworm "$ROOTFS" "$MIRROR"
  touch "$WORK_DIR/debootstrap.done"
fi

# What node:20-bookworm-slim has beyond minbase: the security and updates suites, Node.js in
# /usr/local (node, npm, npx, corepack) and the user `node` (uid and gid 1000, home /home/node).
cat >"$ROOTFS/etc/apt/sources.list" <<EOF
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb ${MIRROR%/debian}/debian-security bookworm-security main
EOF
install -m 0755 "$NODE_BIN" "$ROOTFS/usr/local/bin/node"
mkdir -p "$ROOTFS/usr/local/lib/node_modules"
for pkg in npm corepack; do
  [ -d "$NODE_LIB/$pkg" ] || continue
  rm -rf "${ROOTFS:?}/usr/local/lib/node_modules/$pkg"
  cp -a "$NODE_LIB/$pkg" "$ROOTFS/usr/local/lib/node_modules/$pkg"
done
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"
[ -d "$ROOTFS/usr/local/lib/node_modules/corepack" ] &&
  ln -sf ../lib/node_modules/corepack/dist/corepack.js "$ROOTFS/usr/local/bin/corepack"
# chroot with a clean environment (the host's NODE_EXTRA_CA_CERTS and the like have no meaning inside).
in_root() { env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin chroot "$ROOTFS" "$@"; }
in_root sh -c 'getent group node >/dev/null || groupadd --gid 1000 node;
  getent passwd node >/dev/null || useradd --uid 1000 --gid node --shell /bin/bash --create-home node'
# The binary's shared libraries must all be in the image (libstdc++6 and libgcc-s1 come with apt).
in_root /usr/local/bin/node -e 'process.exit(0)' || die "node does not run inside the bookworm root"
[ "$(in_root /usr/local/bin/npm --version)" ] || die "npm does not run inside the bookworm root"
rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/tmp/*

echo "importing $BASE_TAG (Node.js $NODE_VERSION)"
tar -C "$ROOTFS" --numeric-owner -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$NODE_VERSION" \
  --change 'CMD ["node"]' \
  - "$BASE_TAG" >/dev/null
docker run --rm "$BASE_TAG" node -e 'console.log(`base ok: node ${process.version}`)'

[ "${1:-}" = --base-only ] && exit 0
CA_DIR=$ROOT_DIR/deploy/ca-certificates
added=""
trap 'for f in $added; do rm -f "$f"; done' EXIT
for cert in ${EXTRA_CA_CERTS:-}; do
  target=$CA_DIR/build-local-$(basename "$cert" .crt).crt
  cp "$cert" "$target"
  added="$added $target"
  echo "trusting $cert in the image"
done
# apt and npm inside the build reach their mirrors through the host's network (no bridge needed).
docker build --network host --build-arg "NODE_IMAGE=$BASE_TAG" \
  --build-arg "SEXTANT_BUILD_COMMIT=$(git -C "$ROOT_DIR" rev-parse HEAD 2>/dev/null || echo unknown)" \
  -f "$ROOT_DIR/deploy/Dockerfile" -t "$IMAGE_TAG" "$ROOT_DIR"
docker image ls "$IMAGE_TAG"
