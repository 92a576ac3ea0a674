/**
 * The two scripts that run as PID 1 in the guest.
 *
 * Stage 1 lives in the initramfs (busybox): it loads the modules, brings up the virtio NIC and
 * creates rxe0 on it, then (the point a later boot resumes from) mounts the host's root read-only,
 * the control share and the work directory, and switch_roots into the host root.
 *
 * Stage 2 runs from the control share with the host's own /bin/sh and tools: it runs the job with
 * its output on two virtio-serial ports, writes the job's exit status to the control share and
 * powers off. PID 1 must never exit (the kernel would panic), so every path ends in `poweroff -f`.
 */

/** Where stage 1 mounts the control share inside the guest (a tmpfs, so the path can be created). */
export const GUEST_CONTROL_DIR = '/run/rvt-vm';
/** 9p mount tags, shared with the QEMU command line. */
export const MOUNT_TAGS = { root: 'root', control: 'ctl', work: 'work', project: 'project', modules: 'modules' } as const;
/** virtio-serial port names carrying the job's stdout and stderr. */
export const PORT_NAMES = { stdout: 'rvt.stdout', stderr: 'rvt.stderr', relay: 'rvt.relay' } as const;
/** Files in the control share. */
export const CONTROL_FILES = {
  workDir: 'workdir',
  /** The project's root when it lies under a path the guest covers with a tmpfs; else empty. */
  projectDir: 'projectdir',
  /** Non-empty when the kernel's modules come on their own share (a staged or built kernel), mounted over /lib/modules. */
  modules: 'modules',
  stage2: 'stage2.sh',
  job: 'job.sh',
  /** Files to read into the page cache while the devices come up, one path a line. */
  readAhead: 'read-ahead',
  status: 'status',
  setupError: 'setup-error',
} as const;
/** QEMU's user-mode network: the guest address hostfwd targets by default, and its gateway. */
const GUEST_ADDRESS = '10.0.2.15/24';
const GATEWAY = '10.0.2.2';

const NINEP = 'trans=virtio,version=9p2000.L,msize=262144';

/** The device of the virtio-serial port named $1; shell builtins only. */
const PORT_DEVICE = `port_device() {
  for port in /sys/class/virtio-ports/*; do
    name=
    read -r name <"$port/name" 2>/dev/null
    [ "$name" = "$1" ] && { echo "/dev/\${port##*/}"; return 0; }
  done
  return 1
}
`;

/** Stage 1's line once its modules are in: the host may save the guest here (vm/resume.ts), then says go. */
export const STAGE1_READY = 'rvt-vm: stage 1 ready';

export const STAGE1_INIT = `#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
die() { echo "rvt-vm stage 1: $*"; poweroff -f; }
mount -t proc proc /proc || die "cannot mount /proc"
mount -t sysfs sysfs /sys || die "cannot mount /sys"
while read -r module; do
  insmod "/modules/$module" || die "insmod $module failed"
done </modules/order
# Retries a probe for up to 10 s: devices appear asynchronously after insmod.
wait_until() {
  tries=0
  while ! "$@" >/dev/null 2>&1; do
    tries=$((tries + 1))
    [ "$tries" -lt 100 ] || return 1
    sleep 0.1
  done
}
first_netdev() {
  for dev in /sys/class/net/*; do
    [ "\${dev##*/}" = lo ] || { echo "\${dev##*/}"; return 0; }
  done
  return 1
}
# IFA_F_TENTATIVE (0x40) on any of the netdev's IPv6 addresses (busybox's ip has no tentative filter).
no_tentative_address() {
  while read -r _ _ _ _ flags name; do
    [ "$name" != "$netdev" ] || [ $((0x$flags & 0x40)) -eq 0 ] || return 1
  done </proc/net/if_inet6
}
rxe0_active() { grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state; }
${PORT_DEVICE}# The link and rxe0 come up here, once per saved guest: after a resume, every exec from the host
# root costs a fraction of a second of emulated start-up.
ip link set lo up || die "cannot bring up lo"
wait_until first_netdev || die "no network device appeared"
netdev=$(first_netdev)
# No duplicate address detection on the VM's private link: while the IPv6 link-local address (rxe0's
# GID 0) is tentative, a modify to RTR that resolves it fails with ETIMEDOUT (a job that started
# within a second of the link coming up, a reproducer, met it).
echo 0 >"/proc/sys/net/ipv6/conf/$netdev/accept_dad" || die "cannot turn off duplicate address detection on $netdev"
ip link set "$netdev" up && ip addr add ${GUEST_ADDRESS} dev "$netdev" && ip route add default via ${GATEWAY} \
  || die "cannot configure $netdev"
wait_until no_tentative_address || die "$netdev kept a tentative IPv6 address"
# iproute2's rdma comes from the host root, unmounted again before the save point. The crc32 modules
# rxe asks for are loaded already: the kernel's modprobe would look for them in the initramfs.
mount -t 9p -o ${NINEP},ro ${MOUNT_TAGS.root} /newroot || die "cannot mount the host root"
chroot /newroot rdma link add rxe0 type rxe netdev "$netdev" || die "rdma link add rxe0 type rxe netdev $netdev failed"
umount /newroot || die "cannot unmount the host root"
wait_until rxe0_active || die "port 1 of rxe0 did not become ACTIVE"
wait_until port_device ${PORT_NAMES.stdout} && wait_until port_device ${PORT_NAMES.stderr} \
  || die "the virtio-serial ports for the job's output did not appear"
# The point a later boot resumes from (vm/resume.ts): nothing mounted, as QEMU cannot save a
# guest with a 9p share mounted. The host's line on the console, "go EPOCH ENTROPY", sets the clock
# (a resumed guest's is the saved one's) and stirs the entropy pool (else resumed guests would
# draw alike).
echo "${STAGE1_READY}"
read -r go now entropy || die "the host never said go"
[ "$go" = go ] || die "the host said $go, not go"
date -s "@$now" >/dev/null || die "cannot set the clock to $now"
echo "$entropy" >/dev/urandom
# The root never changes during a run, so the guest may cache it (much faster node startup).
mount -t 9p -o ${NINEP},ro,cache=loose ${MOUNT_TAGS.root} /newroot || die "cannot mount the host root"
mount -t tmpfs -o mode=1777 tmpfs /newroot/tmp || die "cannot mount /tmp"
mount -t tmpfs -o mode=1777 tmpfs /newroot/var/tmp || die "cannot mount /var/tmp"
mount -t tmpfs -o mode=755 tmpfs /newroot/run || die "cannot mount /run"
mkdir -p /newroot${GUEST_CONTROL_DIR} || die "cannot create ${GUEST_CONTROL_DIR}"
mount -t 9p -o ${NINEP} ${MOUNT_TAGS.control} /newroot${GUEST_CONTROL_DIR} || die "cannot mount the control share"
project=$(cat /newroot${GUEST_CONTROL_DIR}/${CONTROL_FILES.projectDir}) || die "no project entry given"
if [ -n "$project" ]; then
  mkdir -p "/newroot$project" || die "cannot create $project"
  mount -t 9p -o ${NINEP},ro,cache=loose ${MOUNT_TAGS.project} "/newroot$project" || die "cannot mount the project at $project"
fi
if [ -s /newroot${GUEST_CONTROL_DIR}/${CONTROL_FILES.modules} ]; then
  mount -t 9p -o ${NINEP},ro,cache=loose ${MOUNT_TAGS.modules} /newroot/lib/modules || die "cannot mount the kernel's modules over /lib/modules"
fi
work=$(cat /newroot${GUEST_CONTROL_DIR}/${CONTROL_FILES.workDir}) || die "no work directory given"
mkdir -p "/newroot$work" || die "cannot create $work"
mount -t 9p -o ${NINEP} ${MOUNT_TAGS.work} "/newroot$work" || die "cannot mount the work directory at $work"
for fs in dev proc sys; do mount --move "/$fs" "/newroot/$fs" || die "cannot move /$fs"; done
exec switch_root /newroot /bin/sh ${GUEST_CONTROL_DIR}/${CONTROL_FILES.stage2}
`;

export const STAGE2_SETUP = `#!/bin/sh
ctl=${GUEST_CONTROL_DIR}
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# Prefixed with the guest's uptime, so the console log shows where a slow run spent its time.
say() { read -r up _ </proc/uptime; echo "[rvt-vm $up] $*" >/dev/console; }
halt() { sync; /bin/busybox poweroff -f; }
fail() { echo "$*" >"$ctl/${CONTROL_FILES.setupError}"; say "setup failed: $*"; halt; }
${PORT_DEVICE}
say "stage 2 on $(uname -r)"
# Into the page cache ahead of the job (the loose 9p cache keeps them): its first reads.
while IFS= read -r path; do cat -- "$path"; done <"$ctl/${CONTROL_FILES.readAhead}" >/dev/null 2>&1 &
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts && mount -t tmpfs tmpfs /dev/shm || fail "cannot mount /dev/pts and /dev/shm"
# rxe0 and the ports came up in stage 1, before the saved point: checked here, without an exec.
read -r netdev </sys/class/infiniband/rxe0/ports/1/gid_attrs/ndevs/0 || fail "rxe0 is missing"
out=$(port_device ${PORT_NAMES.stdout}) && err=$(port_device ${PORT_NAMES.stderr}) \
  || fail "the virtio-serial ports for the job's output are missing"
say "rxe0 up on $netdev; running the job"
ulimit -l unlimited || fail "cannot lift the memlock limit"
/bin/sh "$ctl/${CONTROL_FILES.job}" <"/dev/null" >"$out" 2>"$err"
echo "$?" >"$ctl/${CONTROL_FILES.status}"
read -r status <"$ctl/${CONTROL_FILES.status}"
say "job exited with status $status"
halt
`;
