#!/usr/bin/env bash
# CI for the gRPC adapter against real hardware semantics: the rxe agent runs inside the rxe VM
# (its port forwarded to the host's 127.0.0.1), the shared suite runs on the host through
# `--adapter grpc`, and the result is compared with the direct run in conformance-report/rxe.
# Expects .ci/rxe.sh to have run first (packages, native binding, dist, conformance-report/rxe).
# Fails when the gRPC run's gate fails, when compare finds a regression or refuses to compare,
# or when a case's status differs from the direct run's.
set -euo pipefail
cd "$(dirname "$0")/.."

direct=conformance-report/rxe/results.json
via_grpc=conformance-report/rxe-grpc
if [ ! -f "$direct" ]; then
  echo "rxe-grpc: $direct is missing; run .ci/rxe.sh first" >&2
  exit 2
fi

echo "== rxe-grpc: agent in the rxe VM, shared suite on the host through --adapter grpc"
status=0
node dist/guest/agent-in-vm-run.js "$via_grpc" -- \
  --profile documented --expectations expectations/rxe.yaml --timeout 120 || status=$?
if [ "$status" -ne 0 ]; then
  echo "rxe-grpc: the run through gRPC failed (exit $status); see $via_grpc/report.md and $via_grpc/agent.log" >&2
  exit "$status"
fi

echo "== rxe-grpc: compare with the direct rxe run"
compare=0
node dist/cli/main.js compare "$direct" "$via_grpc/results.json" || compare=$?
if [ "$compare" -ne 0 ]; then
  echo "rxe-grpc: compare exited $compare (1: a regression through gRPC; 2: the runs are not comparable)" >&2
  exit "$compare"
fi

echo "== rxe-grpc: per-case statuses, direct vs through gRPC"
node -e '
const [a, b] = process.argv.slice(1).map((p) => require(require("node:path").resolve(p)));
const before = new Map(a.cases.map((c) => [c.id, c.status]));
const after = new Map(b.cases.map((c) => [c.id, c.status]));
const ids = [...new Set([...before.keys(), ...after.keys()])].sort();
const differ = ids.filter((id) => before.get(id) !== after.get(id));
for (const id of differ) console.log(`  ${id}: direct ${before.get(id) ?? "absent"}, grpc ${after.get(id) ?? "absent"}`);
console.log(`${ids.length - differ.length}/${ids.length} cases have the same status (adapter ${a.adapter.adapter}/${a.adapter.device.name} vs ${b.adapter.adapter}/${b.adapter.device.name}${b.adapter.via ? " via " + b.adapter.via : ""})`);
process.exitCode = differ.length === 0 ? 0 : 1;
' "$direct" "$via_grpc/results.json"
