import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { adapterFlags, builtInAdapters, createAdapter, ensureVmAdapter, loadExternalAdapter } from '../../adapters/registry.js';
import { isUserError } from '../../spec/errors.js';
import { runCli } from '../cli-in-process.js';

const zodUrl = pathToFileURL(join(process.cwd(), 'node_modules/zod/index.js')).href;
const modelUrl = pathToFileURL(join(process.cwd(), 'adapters/model/index.ts')).href;

/** A module outside the package that exports an adapter definition: the model, renamed, with one option of its own. */
async function externalModule(body: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rvt-ext-adapter-'));
  const file = join(dir, 'my-adapter.mjs');
  await writeFile(file, `import { z } from '${zodUrl}';\nimport { modelAdapter } from '${modelUrl}';\n${body}\n`);
  return file;
}

const WRAPPED_MODEL = `export default {
  name: 'wrapped-model',
  description: 'the model behind an external definition',
  options: z.strictObject({ label: z.string().min(2) }),
  create(options) {
    const inner = modelAdapter();
    return { ...inner, info: async () => ({ ...(await inner.info()), implementation: 'wrapped ' + options.label }) };
  },
};`;

const rejects = async (promise: Promise<unknown>, message: RegExp) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isUserError(error), String(error)).toBe(true);
  expect((error as Error).message).toMatch(message);
};

describe('the adapter registry', () => {
  it('declares each built-in adapter with its options, and each flag once', () => {
    const names = builtInAdapters().map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining(['model', 'grpc', 'ibverbs', 'kernel', 'mutant:capacity-minus-one']));
    const flags = adapterFlags();
    expect(flags.map((f) => f.flag.flag)).toEqual(['--target <host:port>', '--tls-ca <file>', '--tls-cert <file>', '--tls-key <file>', '--token-file <file>', '--tls-server-name <name>', '--device <name>']);
    expect(flags.find((f) => f.key === 'device')?.adapters).toEqual(['ibverbs', 'kernel']);
  });

  it('refuses an option the adapter does not take, naming the adapters that do', async () => {
    await rejects(createAdapter('model', { device: 'rxe0' }), /^--device is for --adapter ibverbs or kernel, not model$/);
    await rejects(createAdapter('ibverbs', { target: 'h:1' }), /^--target is for --adapter grpc, not ibverbs$/);
    await rejects(createAdapter('model', { colour: 'red' }), /^adapter model: option colour: /);
    ensureVmAdapter('kernel');
    expect(() => ensureVmAdapter('model')).toThrow(/--vm is for --adapter ibverbs or kernel, not model/);
  });

  it('loads an adapter from a module path, validates its options with its own schema, and builds it', async () => {
    const file = await externalModule(WRAPPED_MODEL);
    const definition = await loadExternalAdapter(file);
    expect(definition.name).toBe('wrapped-model');
    const adapter = await createAdapter(file, { label: 'ok' });
    expect((await adapter.info()).implementation).toBe('wrapped ok');
    await adapter.dispose();
    await rejects(createAdapter(file, { label: 'x' }), /^adapter wrapped-model: option label: /);
    await rejects(createAdapter(file, { device: 'rxe0' }), /^--device is for --adapter ibverbs or kernel, not wrapped-model$/);
  });

  it('says what is wrong with a module that is not an adapter, or not there', async () => {
    await rejects(loadExternalAdapter(await externalModule('export default { name: "x", options: {} };')), /does not export an adapter definition: options: a zod object/);
    await rejects(loadExternalAdapter(await externalModule('export const nothing = 1;')), /does not export an adapter definition/);
    await rejects(loadExternalAdapter(await externalModule('throw new Error("boom");')), /could not be loaded: boom/);
    await rejects(createAdapter('./no/such/adapter.js'), /could not be loaded/);
    await rejects(createAdapter('nosuch'), /^unknown adapter 'nosuch'/);
    await rejects(createAdapter('mutant:nosuch'), /^unknown adapter 'mutant:nosuch'/);
  });

  it('runs the suite on an external adapter from the command line, its options given with --adapter-option', async () => {
    const file = await externalModule(WRAPPED_MODEL);
    const out = await mkdtemp(join(tmpdir(), 'rvt-ext-run-'));
    const r = await runCli(['run', '--adapter', file, '--adapter-option', 'label=cli', '--case', 'post_srq_recv/single-wr', '--out', out, '--json'], { CI: '1' });
    // the progress line alone: no error
    expect(r.stderr).toMatch(/^\[1\/1\] pass +post_srq_recv\/single-wr\n$/);
    expect(JSON.parse(r.stdout)).toMatchObject({ gate: { passed: true } });
    const bad = await runCli(['run', '--adapter', file, '--adapter-option', 'label', '--out', out]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/expected key=value/);
  });
});
