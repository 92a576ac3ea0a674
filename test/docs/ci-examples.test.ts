import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { registerRunCommand } from '../../cli/commands/run.js';
import { runCli } from '../cli-in-process.js';
import { ROOT } from '../helpers.js';

const example = (name: string) => readFile(join(ROOT, 'docs', 'ci', name), 'utf8');

interface RunFlags {
  adapter: string;
  out: string;
  expectations?: string;
  device?: string;
  target?: string;
  tlsCa?: string;
  tlsCert?: string;
  tlsKey?: string;
  tokenFile?: string;
}

/** A run through the agent leaves its gate (exit 1) to compare and fails on anything else. */
const GATE_TO_COMPARE = ' || [ $? -eq 1 ]';

/** An example's rvt-conform command, parsed by the real `run` command: a typo in a flag fails here. */
async function runFlags(line: string): Promise<RunFlags> {
  const words = line.replace(GATE_TO_COMPARE, '').trim().split(/\s+/);
  expect(words.slice(0, 3)).toEqual(['npx', 'rvt-conform', 'run']);
  const program = new Command('rvt-conform').exitOverride();
  registerRunCommand(program);
  const run = program.commands.find((c) => c.name() === 'run');
  if (run === undefined) throw new Error('no run command');
  let flags: RunFlags | undefined;
  run.exitOverride().action((parsed: RunFlags) => {
    flags = parsed;
  });
  // parseAsync: run's config hook (preAction) is asynchronous.
  await program.parseAsync(words.slice(2), { from: 'user' });
  if (flags === undefined) throw new Error(`not parsed: ${line}`);
  expect(existsSync(join(ROOT, flags.expectations ?? 'missing')), `${flags.expectations} exists`).toBe(true);
  return flags;
}

/** The model's command of an example, run as CI would run it: it must pass the gate here. */
async function runsGreen(flags: RunFlags, line: string): Promise<void> {
  const out = await mkdtemp(join(tmpdir(), 'rvt-ci-example-'));
  const args = line.trim().split(/\s+/).slice(2).map((w) => (w === flags.out ? out : w));
  // In this process: the command line is the point, and its paths are relative to the root, as the CLI's here are.
  expect(process.cwd()).toBe(ROOT.replace(/\/$/, ''));
  const r = await runCli([...args, '--quiet']);
  expect(r.exitCode, r.stderr).toBe(0);
  expect(existsSync(join(out, 'junit.xml'))).toBe(true);
}

const rvtConformLine = (lines: readonly string[]) => {
  const found = lines.filter((l) => l.includes('rvt-conform run'));
  expect(found).toHaveLength(1);
  return found[0] ?? '';
};

/**
 * The job through the lab agent: authenticated (CA, client certificate, token), its gate left to
 * compare, which judges the run against a stored baseline and writes the two runs' matrix.
 */
function throughTheAgent(flags: RunFlags, runLine: string, lines: readonly string[]): void {
  expect(flags).toMatchObject({ adapter: 'grpc', target: expect.stringMatching(/:7471$/) });
  for (const credential of [flags.tlsCa, flags.tlsCert, flags.tlsKey, flags.tokenFile]) expect(credential).toBeDefined();
  expect(runLine.endsWith(GATE_TO_COMPARE), runLine).toBe(true);
  const compare = lines.slice(lines.indexOf(runLine) + 1).find((l) => l.includes('rvt-conform compare'));
  expect(compare?.split(/\s+/)).toEqual([
    'npx', 'rvt-conform', 'compare', expect.stringMatching(/^conformance-baseline\/.*\/results\.json$/), `${flags.out}/results.json`, '--html', `${flags.out}/compare.html`,
  ]);
}

describe('the CI examples in docs/ci', () => {
  it('GitHub Actions: each job installs, runs the gate, and keeps the reports whether it passed or not', async () => {
    const workflow = parseYaml(await example('github-actions.yml')) as {
      on: unknown;
      jobs: Record<string, { concurrency?: unknown; steps: { run?: string; uses?: string; if?: string; env?: Record<string, string>; with?: { path?: string } }[] }>;
    };
    expect(workflow.on).toBeDefined();
    expect(Object.keys(workflow.jobs)).toEqual(['model', 'device', 'lab']);
    for (const [name, job] of Object.entries(workflow.jobs)) {
      const runs = job.steps.map((s) => s.run ?? '');
      const line = rvtConformLine(runs);
      const flags = await runFlags(line);
      expect(runs.indexOf('npm ci'), name).toBeLessThan(runs.indexOf(line));
      const upload = job.steps.slice(runs.indexOf(line)).find((s) => s.uses?.startsWith('actions/upload-artifact@'));
      expect(upload, name).toMatchObject({ if: 'always()', with: { path: flags.out } });
      if (flags.adapter === 'model') await runsGreen(flags, line);
      else if (name === 'lab') {
        throughTheAgent(flags, line, runs);
        // one run at a time on the device, queued rather than cancelled; the credentials from secrets
        expect(job.concurrency).toEqual({ group: expect.any(String), 'cancel-in-progress': false });
        const secrets = job.steps.slice(0, runs.indexOf(line)).flatMap((s) => Object.values(s.env ?? {}));
        expect(secrets.filter((v) => v.startsWith('${{ secrets.'))).toHaveLength(4);
      } else expect(flags).toMatchObject({ adapter: 'ibverbs', device: 'rxe0' });
    }
  });

  it('GitLab CI: each job publishes junit.xml from the --out it ran with, always', async () => {
    const pipeline = parseYaml(await example('gitlab-ci.yml')) as Record<string, { script?: string[]; resource_group?: string; artifacts?: { when: string; paths: string[]; reports: { junit: string } } }>;
    const jobs = Object.entries(pipeline).filter(([, job]) => job.script !== undefined);
    expect(jobs.map(([name]) => name)).toEqual(['conformance:model', 'conformance:rxe0', 'conformance:lab1']);
    for (const [name, job] of jobs) {
      const line = rvtConformLine(job.script ?? []);
      const flags = await runFlags(line);
      expect(job.artifacts, name).toEqual({ when: 'always', paths: [`${flags.out}/`], reports: { junit: `${flags.out}/junit.xml` } });
      if (flags.adapter === 'model') await runsGreen(flags, line);
      if (flags.adapter === 'grpc') {
        throughTheAgent(flags, line, job.script ?? []);
        expect(job.resource_group, name).toBeDefined();
      }
    }
  });

  it('Jenkins: the pipeline runs the gate in a stage and publishes junit.xml and the reports in post { always }', async () => {
    const text = await example('Jenkinsfile');
    // The declarative pipeline's blocks, by nesting: where each step stands.
    const blocks: string[] = [];
    const where = new Map<string, string[]>();
    for (const line of text.split('\n').map((l) => l.replace(/\/\/.*$/, '').trim())) {
      const step = /^(\w+)\s/.exec(line)?.[1];
      if (step !== undefined && !line.endsWith('{')) where.set(`${step} ${line.slice(step.length).trim()}`, [...blocks]);
      const opened = /^(\w+)(?:\s*\([^)]*\))?\s*\{$/.exec(line) ?? /^(\w+)\s+\{.*\}$/.exec(line);
      if (line.endsWith('{') && opened) blocks.push(opened[1] ?? '');
      if (line === '}') expect(blocks.pop(), 'balanced braces').toBeDefined();
    }
    expect(blocks).toEqual([]);
    const sh = [...where.keys()].filter((k) => k.startsWith("sh '")).map((k) => k.slice(4, -1));
    const lines = sh.filter((l) => l.includes('rvt-conform run'));
    expect(lines).toHaveLength(2);
    const published = (step: string) => [...where.entries()].find(([key]) => key === step || key.startsWith(`${step}, `))?.[1];
    for (const line of lines) {
      const flags = await runFlags(line);
      expect(where.get(`sh '${line}'`)).toEqual(['pipeline', 'stages', 'stage', 'steps']);
      expect(published(`junit testResults: '${flags.out}/junit.xml'`)).toEqual(['pipeline', 'post', 'always']);
      expect(published(`archiveArtifacts artifacts: '${flags.out}/**'`)).toEqual(['pipeline', 'post', 'always']);
      if (flags.adapter === 'grpc') throughTheAgent(flags, line, sh);
    }
    // the lab stage holds the device, and takes its four credentials from Jenkins
    expect([...where.entries()].find(([key]) => key.startsWith('options { lock('))?.[1]).toEqual(['pipeline', 'stages', 'stage']);
    expect([...where.keys()].filter((key) => / = credentials\('/.test(key))).toHaveLength(4);
  });
});
