#!/bin/sh
# Installs what the VM runner, the native binding and the kernel adapter need (Debian/Ubuntu, as
# root): QEMU, Debian's kernel and the headers of that same kernel (modules such as rvtc are built
# against them on the host and loaded in the guest only), rdma-core, a C toolchain.
# Idempotent: packages already present are skipped; quiet unless something fails.
set -eu

PACKAGES="qemu-system-x86 linux-image-amd64 busybox-static kmod cpio xz-utils iproute2
rdma-core ibverbs-providers libibverbs-dev ibverbs-utils gcc make libc6-dev zstd dwarves"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
updated=""

# The packages of the arguments that are not fully installed ("install ok installed").
missing_of() {
  for pkg in "$@"; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || printf ' %s' "$pkg"
  done
}

install() {
  [ -n "$*" ] || return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps.sh: missing packages: $*; run this script as root (or with sudo)" >&2
    exit 1
  fi
  if [ -z "$updated" ]; then
    apt-get update -q >"$log" 2>&1 || { cat "$log" >&2; echo "install-deps.sh: apt-get update failed" >&2; exit 1; }
    updated=yes
  fi
  # shellcheck disable=SC2068 # word splitting of the package list is intended
  if ! apt-get install -y -q --no-install-recommends $@ >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-deps.sh: failed to install: $*" >&2
    exit 1
  fi
}

# shellcheck disable=SC2086
install $(missing_of $PACKAGES)
# The guest boots the newest kernel installed (perhaps just now); its headers must match it exactly.
kernel=$(ls /lib/modules | sort -V | tail -n 1)
install $(missing_of "linux-headers-$kernel")
