import { appendFile } from 'node:fs/promises';
import { clauseEvidence } from './evidence.js';
import { renderStepSummary } from './markdown.js';
import type { RunResults } from './results-schema.js';
import { reproCommand } from './where.js';

// Workflow commands: a message escapes %, CR and LF; a property value also ':' and ','.
const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
const command = (level: 'error' | 'notice', title: string, message: string) => `::${level} title=${escapeProperty(title)}::${escapeData(message)}`;

/**
 * GitHub Actions annotations for a run: the gate first (an error when it fails, a notice when it
 * passes), then one error per failed binding clause with its evidence and the repro command, per
 * unexpected pass and per binding clause nobody verified or waived. GitHub shows the first ten
 * errors of a step on the run's page, so the gate comes first.
 */
export function githubAnnotations(results: RunResults, outDir: string): string[] {
  const { gate } = results;
  const lines = [command(gate.passed ? 'notice' : 'error', `rvt-conform gate: ${results.adapter.adapter} on ${results.adapter.device.name}`, gate.summary)];
  for (const clause of results.clauses.filter((c) => c.binding && (c.status === 'fail' || c.status === 'error'))) {
    const evidence = clauseEvidence(clause, results.cases);
    const replay = evidence && evidence.kase.trace.length > 0 ? `\nreplay: ${reproCommand(evidence.kase.id, outDir)}` : '';
    lines.push(command('error', `${clause.id} ${clause.status === 'fail' ? 'failed' : 'errored'} (${clause.level})`, `${clause.statement}\n${evidence?.line ?? clause.reason ?? ''}${replay}`));
  }
  for (const r of [...results.clauses, ...results.cases].filter((k) => k.status === 'xpass')) {
    lines.push(command('error', `${r.id} passed against its expectation`, `remove the entry at ${r.expectation?.source ?? 'the expectations file'}: ${r.expectation?.reason ?? ''}`));
  }
  const byId = new Map(results.clauses.map((c) => [c.id, c]));
  for (const id of gate.unverified) {
    const clause = byId.get(id);
    lines.push(command('error', `${id} not verified`, `${clause?.status ?? ''}: ${clause?.reason ?? ''}\nobserve it, or waive it in an expectations file with the reason`));
  }
  return lines;
}

/**
 * Under GitHub Actions (GITHUB_ACTIONS=true): appends the step summary to $GITHUB_STEP_SUMMARY
 * and returns the annotations to print; elsewhere does nothing.
 */
export async function publishToGithub(results: RunResults, outDir: string, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  if (env.GITHUB_ACTIONS !== 'true') return [];
  if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, `${renderStepSummary(results)}\n`);
  return githubAnnotations(results, outDir);
}
