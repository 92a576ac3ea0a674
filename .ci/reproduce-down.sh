#!/bin/sh
# The findings the suites skip because they take the kernel down (issue 44, item 4), each proved
# by its standalone reproducer in a VM boot of its own: recorded on the model (the device never
# ran them), written by `repro`, run by `vm --run-repro`, which exits 4 when the kernel went down;
# the proof is that exit with the splat's own line in the console. About 10 s a boot with the
# module builds cached; the lockup waits for the kernel's soft-lockup or RCU-stall report.
# Usage: sh .ci/reproduce-down.sh KERNEL
set -eu
kernel=$1
out=conformance-report/reproduce-down
rm -rf "$out" && mkdir -p "$out"
node dist/cli/main.js run --quiet --case '@(post_send/empty-list|post_srq_recv/num_sge-negative|concurrent/resize-while-posting)' --out "$out/model"

# prove NAME CASE DEVICE KIND PATTERN [REPRO-OPTIONS...]: KIND is module or program
prove() {
  name=$1 kase=$2 device=$3 kind=$4 pattern=$5
  shift 5
  if [ "$kind" = program ]; then target="$out/$name.c"; else target="$out/$name"; fi
  node dist/cli/main.js repro "$kase" --from "$out/model/results.json" --as "$kind" --device "$device" --out "$target" "$@"
  start=$(date +%s)
  set +e
  node dist/cli/main.js vm --run-repro "$target" --device "$device" --kernel "$kernel" --timeout 240 > "$out/$name.log" 2>&1
  rc=$?
  set -e
  seconds=$(( $(date +%s) - start ))
  if [ "$rc" -eq 4 ] && grep -qE "$pattern" "$out/$name.log"; then
    echo "reproduced: $name ($kase on $device, $kind): $(grep -m1 -oE "$pattern.*" "$out/$name.log" | cut -c1-120) ($seconds s with boot)"
  else
    echo "NOT reproduced: $name ($kase on $device, $kind): vm --run-repro exited $rc, no line matching '$pattern' ($seconds s); the log: $out/$name.log"
    tail -40 "$out/$name.log"
    return 1
  fi
}

prove empty-list-module post_send/empty-list rvt_sim0 module 'BUG: kernel NULL pointer dereference'
prove empty-list-ipathverbs post_send/empty-list rvt_sim0 program 'BUG: kernel NULL pointer dereference'
prove rxe-num-sge-negative post_srq_recv/num_sge-negative rxe0 module 'BUG: unable to handle page fault'
prove srq-resize-lockup concurrent/resize-while-posting rvt_sim0 module 'soft lockup|rcu_preempt detected stalls|rcu: INFO' --rounds 5
