#!/usr/bin/env bash
# CI for the rxe adapter: the shared suite against a real Soft-RoCE device (rxe0) in a QEMU VM.
# Runs as root after `npm ci` (.ci/run calls it). Exits non-zero when the gate fails, i.e. when rxe
# does something expectations/rxe.yaml does not list, or stops doing something it lists.
# Measured: about 5 minutes on a 2-core machine without KVM, most of it the suite under TCG.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== rxe: packages (QEMU, Debian kernel, busybox, rdma-core) and the native toolchain"
sh vm/install-deps.sh
if ! command -v g++ >/dev/null || ! command -v make >/dev/null || ! command -v python3 >/dev/null; then
  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends g++ make python3
fi

echo "== rxe: build the native binding and the CLI"
npm run build:native
npm run build

echo "== rxe: shared suite on rxe0 in the VM, profile documented, known deviations from expectations/rxe.yaml"
# --timeout 120: post_send/fill-to-capacity takes ~30 s under TCG (more on a busy host); 30 s would make it a timeout.
node dist/cli/main.js run --adapter ibverbs --vm --profile documented --timeout 120 \
  --expectations expectations/rxe.yaml --out conformance-report/rxe

echo "== rxe: a reproducer from the recorded trace, compiled against libibverbs and run on rxe0 in the VM"
repro=conformance-report/rxe/repro-bad-wr-in-middle
node dist/cli/main.js repro post_srq_recv/bad-wr-in-middle --from conformance-report/rxe/results.json -o "$repro.c"
cc -Wall -Werror -o "$repro" "$repro.c" -libverbs
node dist/cli/main.js vm -- "./$repro" rxe0

bash .ci/rxe-grpc.sh  # the same suite through --adapter grpc, agent in the VM; compared with the run above
