// Every CI output of every tier agrees with its gate: junit.xml and ctrf.json show failures or
// errors exactly when the gate failed, and report.md's headline says the gate's verdict
// (expected failures and deviations that do not bind are counted apart in each).
//   node .ci/check-outputs.mjs conformance-report
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
  console.log(`${problems.length === 0 ? 'agree' : 'DISAGREE'}: ${dir} (gate ${passed ? 'PASS' : 'FAIL'})${problems.map((p) => `; ${p}`).join('')}`);
  bad += problems.length === 0 ? 0 : 1;
}
console.log(`${sets.length - bad} report sets agree with their gate, ${bad} do not`);
process.exitCode = bad === 0 ? 0 : 1;
