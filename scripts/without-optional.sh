#!/bin/sh
# Runs a command as on a fresh Debian 12 machine without the optional apt packages that .ci/run
# installs: linux-source-6.1 (/usr/src), chromium (/usr/bin/chromium) and libibverbs-dev (its
# headers and ibv_* man pages) look absent, in a mount namespace of the command's own; nothing
# outside it changes. Root only (unshare, mount). For issue 21's figure, from a clean clone
# without `npm run build:native`:
#   sh scripts/without-optional.sh npm test
set -eu
[ "$(id -u)" = 0 ] || { echo "without-optional.sh: needs root (unshare -m, mount)" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/upper" "$scratch/work"
# an overlay whiteout (a 0:0 character device) hides /usr/bin/chromium, and only it
mknod "$scratch/upper/chromium" c 0 0
unshare -m sh -c '
  set -e
  mount --make-rprivate /
  mount -t tmpfs tmpfs /usr/src
  [ ! -d /usr/include/infiniband ] || mount -t tmpfs tmpfs /usr/include/infiniband
  mount -t tmpfs tmpfs /usr/share/man/man3
  mount -t overlay overlay -o "lowerdir=/usr/bin,upperdir=$0/upper,workdir=$0/work" /usr/bin
  exec "$@"' "$scratch" "$@"
