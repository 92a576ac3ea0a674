#!/bin/sh
# Stages a Debian kernel series into a folder without installing it on the host: the newest
# linux-image-SERIES.*-amd64 (unsigned), its headers (with -common and linux-kbuild) unpacked with
# dpkg -x, and linux-source-SERIES installed (siw and rdmavt sources, checkpatch, kernel-doc).
# The folder is then a "staged install" for --kernel (docs/driver-developer.md, "Choosing the kernel").
#   sh vm/stage-kernel.sh 6.12 /path/to/stage
# Idempotent: a folder that already holds that release is left alone. As root (apt).
set -eu
series=${1:?usage: stage-kernel.sh SERIES DIR (e.g. 6.12 .vm-cache/kernels/6.12)}
dir=${2:?usage: stage-kernel.sh SERIES DIR}
export DEBIAN_FRONTEND=noninteractive

log=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$log" "$work"' EXIT
apt_quiet() { "$@" >"$log" 2>&1 || { cat "$log" >&2; echo "stage-kernel.sh: failed: $*" >&2; exit 1; }; }

escaped=$(printf '%s' "$series" | sed 's/\./\\./g')
image=$(apt-cache search --names-only "^linux-image-${escaped}\.[0-9]+\+deb[0-9]+-amd64-unsigned\$" | cut -d' ' -f1 | sort -V | tail -n 1)
if [ -z "$image" ]; then
  apt_quiet apt-get update -q
  image=$(apt-cache search --names-only "^linux-image-${escaped}\.[0-9]+\+deb[0-9]+-amd64-unsigned\$" | cut -d' ' -f1 | sort -V | tail -n 1)
fi
[ -n "$image" ] || { echo "stage-kernel.sh: no linux-image-${series}.*-amd64-unsigned in the apt sources (Debian 12 has 6.12 in bookworm-security)" >&2; exit 1; }
release=${image#linux-image-}
release=${release%-unsigned}
version=${release%-amd64}

if [ -e "$dir/boot/vmlinuz-$release" ] && [ -e "$dir/lib/modules/$release/modules.dep" ]; then
  echo "stage-kernel.sh: $dir already holds $release"
else
  mkdir -p "$dir"
  (cd "$work" && apt_quiet apt-get download "$image" "linux-headers-$release" "linux-headers-$version-common" "linux-kbuild-$version")
  for deb in "$work"/*.deb; do dpkg -x "$deb" "$dir"; done
  depmod -b "$dir" "$release"
  echo "stage-kernel.sh: staged $release in $dir"
fi
status=$(dpkg-query -W -f='${Status}' "linux-source-$series" 2>/dev/null || true)
[ "$status" = "install ok installed" ] || apt_quiet apt-get install -y -q --no-install-recommends "linux-source-$series"
