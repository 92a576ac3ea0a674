// Every CI output of every tier agrees with its gate: junit.xml and ctrf.json show failures or
// errors exactly when the gate failed, report.md's headline says the gate's verdict (expected
// failures and deviations that do not bind are counted apart in each), and the kernel's own KTAP
// parser (kunit.py parse, from linux-source-6.1) reads results.ktap with report.md's counts.
//   node .ci/check-outputs.mjs conformance-report
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const TARBALL = '/usr/src/linux-source-6.1.tar.xz';
const kunitDir = existsSync(TARBALL) ? mkdtempSync(join(tmpdir(), 'rvt-kunit-')) : undefined;
if (kunitDir !== undefined) execFileSync('tar', ['-xJf', TARBALL, '-C', kunitDir, 'linux-source-6.1/tools/testing/kunit/']);
else console.log(`kunit.py not checked: ${TARBALL} is not installed`);

/** kunit.py's summary of a KTAP file: tests, passed, failed, skipped (crashed and errors count as failed). */
function kunitCounts(file) {
  const out = execFileSync('python3', [join(kunitDir, 'linux-source-6.1/tools/testing/kunit/kunit.py'), 'parse', file], { encoding: 'utf8' });
  const summary = /Testing complete\. Ran (\d+) tests: (.*)$/m.exec(out);
  if (summary === null) return undefined;
  const counts = { tests: Number(summary[1]), passed: 0, failed: 0, skipped: 0, crashed: 0, errors: 0 };
  for (const [, name, n] of summary[2].matchAll(/(\w+): (\d+)/g)) counts[name] = Number(n);
  return counts;
}

const sets = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name === 'results.json') sets.push(dir);
  }
};
walk(process.argv[2] ?? 'conformance-report');
let bad = 0;
for (const dir of sets) {
  const read = (name) => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      return undefined;
    }
  };
  const results = JSON.parse(read('results.json'));
  if (!results.gate) continue; // fuzz.json folders and the like
  const passed = results.gate.passed;
  const problems = [];
  const junit = read('junit.xml');
  if (junit !== undefined) {
    const [, failures, errors] = /<testsuites[^>]* failures="(\d+)" errors="(\d+)"/.exec(junit) ?? [];
    if ((Number(failures) + Number(errors) === 0) !== passed) problems.push(`junit.xml has ${failures} failures and ${errors} errors`);
  }
  const ctrf = read('ctrf.json');
  if (ctrf !== undefined) {
    const { failed, other } = JSON.parse(ctrf).results.summary;
    if ((failed + other === 0) !== passed) problems.push(`ctrf.json has ${failed} failed and ${other} other`);
  }
  const md = read('report.md');
  if (md !== undefined) {
    if (!md.startsWith(`# rvt-conform: ${passed ? 'PASS' : 'FAIL'}`)) problems.push('report.md heads with another verdict');
    const cases = /^Cases: \d+ pass, (\d+) fail, (\d+) error/m.exec(md);
    if (cases && passed && Number(cases[1]) + Number(cases[2]) > 0) problems.push(`report.md counts ${cases[1]} fail and ${cases[2]} error`);
  }
  const ktap = read('results.ktap');
  if (ktap !== undefined && !ktap.trimEnd().endsWith(`${passed ? 'ok' : 'not ok'} ${ktap.match(/^(?:not )?ok (\d+) gate$/m)?.[1]} gate`)) problems.push('results.ktap ends with another gate');
  if (ktap !== undefined && md !== undefined && kunitDir !== undefined) {
    const said = /As kernel CI sees it .*?: (\d+) tests, (\d+) passed .*?, (\d+) failed .*?, (\d+) skipped\./.exec(md);
    // kunit.py changes to its kernel tree's root first: the path must be absolute.
    const parsed = kunitCounts(resolve(dir, 'results.ktap'));
    if (said === null || parsed === undefined) problems.push('no kernel CI counts in report.md, or no summary from kunit.py');
    else {
      const [tests, passedCount, failed, skipped] = said.slice(1).map(Number);
      const got = { tests: parsed.tests, passed: parsed.passed, failed: parsed.failed + parsed.crashed, skipped: parsed.skipped };
      if (JSON.stringify(got) !== JSON.stringify({ tests, passed: passedCount, failed, skipped })) problems.push(`kunit.py parse counts ${JSON.stringify(got)}, report.md ${JSON.stringify({ tests, passed: passedCount, failed, skipped })}`);
      if (parsed.errors > 0) problems.push(`kunit.py parse found ${parsed.errors} KTAP errors`);
    }
  }
  console.log(`${problems.length === 0 ? 'agree' : 'DISAGREE'}: ${dir} (gate ${passed ? 'PASS' : 'FAIL'})${problems.map((p) => `; ${p}`).join('')}`);
  bad += problems.length === 0 ? 0 : 1;
}
if (kunitDir !== undefined) rmSync(kunitDir, { recursive: true, force: true });
console.log(`${sets.length - bad} report sets agree with their gate, ${bad} do not`);
process.exitCode = bad === 0 ? 0 : 1;
