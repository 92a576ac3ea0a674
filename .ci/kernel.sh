#!/usr/bin/env bash
# CI for the kernel adapter: the shared suite against the kernel verbs of rxe0 (rdma_rxe), siw0 and
# the real rdmavt (rvt_sim0; also its user-space path through libibverbs and ipathverbs, compared
# with its kernel path, C mutants of rdmavt and a bounded fuzz of the model against it), through
# the rvtc module built against the guest kernel's headers and loaded in the VM; then the same
# through the gRPC agent in the VM, compared case by case. Runs as root after .ci/rxe.sh (packages,
# dist). Exits non-zero when the gate fails, i.e. when the kernel verbs do something
# expectations/kernel-rxe.yaml does not list, or stop doing something it lists.
set -euo pipefail
cd "$(dirname "$0")/.."

sh vm/install-deps.sh
npm run build

# Every tier names its kernel: Debian's 6.1 as installed (the newest 6.1 release in /boot), and the
# 6.12 LTS staged from Debian 12's security archive into the cache, never installed on the host.
k61=$(ls /boot | sed -n 's/^vmlinuz-\(6\.1\.[0-9].*\)$/\1/p' | sort -V | tail -n 1)
[ -n "$k61" ] || { echo "no Debian 6.1 kernel in /boot (vm/install-deps.sh installs it)" >&2; exit 1; }
echo "== kernel: staging 6.12 LTS (vm/stage-kernel.sh) beside $k61"
sh vm/stage-kernel.sh 6.12 .vm-cache/kernels/6.12

echo "== kernel: rvtc.ko and rvt_sim.ko pass checkpatch (linux-source-6.1's scripts/checkpatch.pl)"
checkpatch=$(mktemp -d)
tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$checkpatch" --wildcards \
  'linux-source-6.1/scripts/checkpatch.pl' 'linux-source-6.1/scripts/spelling.txt' 'linux-source-6.1/scripts/const_structs.checkpatch'
# Three warnings are intended: the test-only fault sleeps 1 ms (msleep) in atomic context on
# purpose; and rvtc_compat.h compares LINUX_VERSION_CODE, which an in-tree module must not (it
# builds for one kernel) but an out-of-tree one that builds on 6.1 and 6.12 must, and which
# checkpatch also reads as a constant on the left of a comparison.
perl "$checkpatch/linux-source-6.1/scripts/checkpatch.pl" --no-tree --quiet --ignore MSLEEP,LINUX_VERSION_CODE,CONSTANT_COMPARISON -f \
  adapters/kernel/module/*.c adapters/kernel/module/*.h adapters/kernel/rvt-sim/rvt_sim.c
rm -rf "$checkpatch"

echo "== kernel: the device tiers in one VM boot (.ci/tiers.yaml): kernel verbs on rxe0, siw0 and rvt_sim0 (the real rdmavt), libibverbs on rvt_sim0 (rdmavt's user-space path), each gated by its expectations"
node dist/cli/main.js tiers .ci/tiers.yaml --kernel "$k61"
direct=conformance-report/kernel-rxe

echo "== kernel: rdmavt through both layers and rxe0's kernel verbs on 6.12 LTS, in one boot (.ci/tiers-6.12.yaml)"
node dist/cli/main.js tiers .ci/tiers-6.12.yaml
echo "== kernel: what changed between the kernels, tier by tier (compare, 6.1 against 6.12)"
for tier in kernel-rdmavt ibverbs-rdmavt kernel-rxe; do
  node dist/cli/main.js compare "conformance-report/$tier/results.json" "conformance-report/6.12/$tier/results.json" \
    --html "conformance-report/6.12/$tier-6.1-vs-6.12.html" || true
done

echo "== kernel: the same through the gRPC agent serving the kernel adapter in the VM"
via_grpc=conformance-report/kernel-grpc
node dist/guest/agent-in-vm-run.js --agent-adapter kernel --kernel "$k61" "$via_grpc" -- \
  --profile documented --expectations expectations/kernel-rxe.yaml --timeout 120
node -e '
const [a, b] = process.argv.slice(1).map((p) => require(require("node:path").resolve(p)));
const after = new Map(b.cases.map((c) => [c.id, c.status]));
const differ = a.cases.filter((c) => after.get(c.id) !== c.status);
for (const c of differ) console.log(`  ${c.id}: direct ${c.status}, grpc ${after.get(c.id) ?? "absent"}`);
console.log(`${a.cases.length - differ.length}/${a.cases.length} cases have the same status, direct and through gRPC`);
process.exitCode = differ.length === 0 ? 0 : 1;
' "$direct/results.json" "$via_grpc/results.json"

echo "== rdmavt through both layers, beside the model: where the kernel verbs and libibverbs disagree on the same rdmavt"
node dist/cli/main.js run --quiet --expectations expectations/model.yaml --out conformance-report/model-rdmavt
node dist/cli/main.js compare conformance-report/model-rdmavt/results.json conformance-report/kernel-rdmavt/results.json \
  conformance-report/ibverbs-rdmavt/results.json --html conformance-report/rdmavt-layers.html

echo "== kernel: differential fuzz, the reference model against the real rdmavt (bounded, fixed seeds: the documented contract, then rdmavt's own)"
# A drain that comes back short waits 20 s more under the watch, with the guest's stall detectors
# quick (vm/stall-knobs.ts), before it is a divergence: CI's divergence of 2026-12-05 (a send waiting
# on RNR across an SRQ resize, no completion within 3 s) is now either a late completion (the run
# ends not observable), a lockup (a finding) or a completion that never came. rdmavt's FORTIFY WARN
# is expected; cycleMr is left out (rvtc's MRs are DMA MRs). A divergence prints its replay line
# (fuzz --replay fuzz.json), which runs the recorded sequence again.
node dist/cli/main.js fuzz --adapter kernel --device rvt_sim0 --vm --kernel "$k61" --profile documented --runs 3 --seed 20261130 --expectations expectations/fuzz-rdmavt.yaml --out conformance-report/kernel-rdmavt-fuzz
node dist/cli/main.js fuzz --adapter kernel --device rvt_sim0 --vm --kernel "$k61" --profile rdmavt --runs 10 --seed 20261205 --expectations expectations/fuzz-rdmavt.yaml --out conformance-report/kernel-rdmavt-fuzz-rdmavt
# The same on 6.12 (its rdmavt has no FORTIFY WARN). The fuzzer runs on the host and a relay in the
# guest carries rvtc's requests (guest/relay/rvtc-relay.c): about 1,000 commands/s, so seconds.
# rdmavt's known SRQ resize lockup (every 80,000-100,000 commands or so) would end the boot, and the
# fuzz would go on in a new one (a `fatal:` entry of the expectations); test:vm proves that path.
node dist/cli/main.js fuzz --adapter kernel --device rvt_sim0 --vm --kernel .vm-cache/kernels/6.12 --profile rdmavt --runs 20 --seed 20261205 --expectations expectations/fuzz-rdmavt.yaml --out conformance-report/6.12/kernel-rdmavt-fuzz-rdmavt

echo "== kernel: C mutants of rdmavt (bounded subset): each built into rdmavt.ko with --rdmavt-src and killed by a shared case"
# The whole set (16, about 30 minutes here) is a benchmark: rvt-conform mutants --kernel.
node dist/cli/main.js mutants --kernel "$k61" --only srq-full-forgets-bad-wr,srq-check-order,limit-not-disarmed
# The concurrent ones the concurrent cases kill run after run (docs/BENCHMARKS.md, "The concurrent
# tier"), on those cases only: about 6 minutes here. srq-head-published-early is killed by
# payload-placement: each WR's payload goes into its own last SGE, so a consumer that takes a slot
# before the post wrote its SGEs puts the data in the previous occupant's buffer. A race is met
# with some probability, not in every run (CI saw limit-stale-count survive one run on 2026-12-03
# and die in the next two here), so a mutant no run killed yet gets up to three.
node dist/cli/main.js mutants --kernel "$k61" --only srq-post-unlocked,srq-head-published-early,limit-stale-count --case 'concurrent/*' --tries 3

echo "== hostile: a process writes outside the contract into the rings rdmavt shares with ipathverbs, on 6.1 and 6.12 LTS, gated by expectations/hostile-rdmavt.yaml"
# Seven scenarios; the three the expectations list oops rdmavt, and each oops ends its boot (the
# tier panics on it and goes on in a fresh one): four boots per kernel, about 36 s each kernel here.
node dist/cli/main.js hostile --vm --kernel "$k61" --expectations expectations/hostile-rdmavt.yaml --out conformance-report/hostile
node dist/cli/main.js hostile --vm --kernel .vm-cache/kernels/6.12 --expectations expectations/hostile-rdmavt.yaml --out conformance-report/6.12/hostile

echo "== every tier's outputs agree with its gate (junit.xml, ctrf.json, report.md, results.ktap)"
node .ci/check-outputs.mjs conformance-report

echo "== findings: every results.json CI wrote, merged by defect, ranked, each with its reproducer and a draft report (conformance-report/findings)"
start=$(date +%s%N)
node dist/cli/main.js findings conformance-report --out conformance-report/findings
echo "findings over $(find conformance-report -name results.json -not -path '*/findings/*' | wc -l) runs in $(( ($(date +%s%N) - start) / 1000000 )) ms"
grep -E '^## [0-9]+\. ' conformance-report/findings/findings.md || true

echo "== findings: each kernel-side finding and user-space crash seen on $k61 proved by its reproducer, in a VM boot of its own (vm --run-repro)"
# The gate: a reproducer that does not show its finding fails CI, unless an entry of
# .ci/findings-reproduce.yaml (status not-observable) says why. The severities are those a suite
# alone cannot gate on their own line: the oopses (the hostile tier's three), the FORTIFY warning
# (libibverbs and kernel reproducers) and the libibverbs providers' crashes, about ten boots of
# 6-10 s with the builds cached (about 90 s). The contract findings are the suites' own failures,
# already gated by their expectations; proving them too costs about 4 minutes more:
#   node dist/cli/main.js findings conformance-report --out DIR --reproduce contract --vm --kernel "$k61"
node dist/cli/main.js findings conformance-report --out conformance-report/findings \
  --reproduce oops,lockup,memory-safety,kernel-warning,crash --vm --kernel "$k61" --expectations .ci/findings-reproduce.yaml

echo "== findings the suites skip because they take the kernel down, each proved by its reproducer in a boot of its own (.ci/reproduce-down.sh)"
# rdmavt's empty send list (kernel module, and the ipathverbs program through uverbs), rxe's negative
# num_sge, rdmavt's SRQ resize lockup (the concurrent workload with its seed): about 85 s here.
sh .ci/reproduce-down.sh "$k61"
