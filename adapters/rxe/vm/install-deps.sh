#!/bin/sh
# Installs what the rxe VM runner and the native binding need (Debian/Ubuntu, as root).
# Idempotent: packages already present are skipped; quiet unless something fails.
set -eu

PACKAGES="qemu-system-x86 linux-image-amd64 busybox-static kmod cpio xz-utils iproute2
rdma-core ibverbs-providers libibverbs-dev ibverbs-utils"

missing=""
for pkg in $PACKAGES; do
  # dpkg-query prints "install ok installed" only for fully installed packages.
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps.sh: missing packages:$missing; run this script as root (or with sudo)" >&2
  exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # word splitting of the package list is intended
if ! { apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "install-deps.sh: failed to install:$missing" >&2
  exit 1
fi
