import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { QpAttrMask, QpState } from '../../../spec/verbs/attrs.js';
import { QP_TRANSITIONS } from '../../../spec/verbs/qp-transitions.js';
import { EXTRACTION_TIMEOUT_MS, TARBALL, hasTarball, kernelTree, prepareKernelSource } from '../../kernel-source.js';

/** A C designated initializer as read: `{ [IB_QPS_INIT] = {...}, .valid = 1, ... }`, or an expression's identifiers. */
type Init = { kind: 'list'; fields: Map<string, Init> } | { kind: 'expr'; names: string[]; text: string };

/**
 * Reads the nested designated initializers of `qp_state_table` (verbs.c): braces, `[X] =` and
 * `.x =` designators, and expressions (`(IB_QP_A | IB_QP_B)`, `1`) kept as the identifiers they OR.
 */
function parseInitializer(text: string): Init {
  const tokens = text.match(/[A-Za-z_][A-Za-z0-9_]*|\d+|[{}[\]=,.|()]/g) ?? [];
  let at = 0;
  const value = (): Init => {
    if (tokens[at] !== '{') {
      const start = at;
      for (let depth = 0; at < tokens.length && !(depth === 0 && (tokens[at] === ',' || tokens[at] === '}')); at++) {
        if (tokens[at] === '(') depth++;
        if (tokens[at] === ')') depth--;
      }
      const expr = tokens.slice(start, at);
      return { kind: 'expr', names: expr.filter((t) => /^[A-Za-z_]/.test(t)), text: expr.join(' ') };
    }
    at++;
    const fields = new Map<string, Init>();
    while (tokens[at] !== '}') {
      let key: string;
      if (tokens[at] === '[') {
        key = tokens[at + 1] ?? '';
        at += 3;
      } else if (tokens[at] === '.') {
        key = tokens[at + 1] ?? '';
        at += 2;
      } else throw new Error(`qp_state_table: a positional initializer at token ${at} (${tokens.slice(at, at + 5).join(' ')})`);
      if (tokens[at++] !== '=') throw new Error(`qp_state_table: no '=' after the designator ${key}`);
      fields.set(key, value());
      if (tokens[at] === ',') at++;
    }
    at++;
    return { kind: 'list', fields };
  };
  return value();
}

/** The table's initializer in verbs.c, comments removed. */
function kernelTable(source: string): Init {
  const start = source.indexOf('qp_state_table[IB_QPS_ERR + 1][IB_QPS_ERR + 1] = {');
  if (start < 0) throw new Error('verbs.c: qp_state_table not found');
  const body = source.slice(source.indexOf('{', start), source.indexOf('\n};', start) + 2).replace(/\/\*[\s\S]*?\*\//g, '');
  return parseInitializer(body);
}

const field = (init: Init | undefined, key: string): Init | undefined => (init?.kind === 'list' ? init.fields.get(key) : undefined);

/** A mask as verbs.c writes it (IB_QP_A | IB_QP_B), as the spec's names, sorted; absent is the empty mask. */
function maskOf(init: Init | undefined): string[] {
  if (init === undefined) return [];
  if (init.kind !== 'expr') throw new Error('a mask that is not an expression');
  return init.names.map((n) => QpAttrMask.parse(n.replace(/^IB_QP_/, ''))).sort();
}

const STATES = QpState.options;
const TYPES = ['RC', 'UD'] as const;

describe.skipIf(!hasTarball)(`spec QP transitions against verbs.c's qp_state_table (${TARBALL})`, () => {
  beforeAll(prepareKernelSource, EXTRACTION_TIMEOUT_MS);

  it('agrees entry for entry: every (cur, next) valid flag, and for RC and UD every required and optional mask', () => {
    const table = kernelTable(readFileSync(join(kernelTree(), 'drivers/infiniband/core/verbs.c'), 'utf8'));
    const kernel: Record<string, unknown> = {};
    const spec: Record<string, unknown> = {};
    for (const cur of STATES) {
      for (const next of STATES) {
        const entry = field(field(table, `IB_QPS_${cur}`), `IB_QPS_${next}`);
        const valid = field(entry, 'valid');
        const key = `${cur} -> ${next}`;
        kernel[key] = valid?.kind === 'expr' && valid.text !== '0'
          ? Object.fromEntries(TYPES.map((t) => [t, { required: maskOf(field(field(entry, 'req_param'), `IB_QPT_${t}`)), optional: maskOf(field(field(entry, 'opt_param'), `IB_QPT_${t}`)) }]))
          : 'invalid';
        const ours = QP_TRANSITIONS[cur]?.[next];
        spec[key] = ours === undefined
          ? 'invalid'
          : Object.fromEntries(TYPES.map((t) => [t, ours[t] === undefined ? 'absent' : { required: [...(ours[t]?.required ?? [])].sort(), optional: [...(ours[t]?.optional ?? [])].sort() }]));
      }
    }
    expect(Object.values(kernel).filter((v) => v !== 'invalid').length).toBeGreaterThan(15);
    expect(spec).toEqual(kernel);
  });
});

describe('the qp_state_table reader', () => {
  it('reads designators, nested lists and OR-ed masks, without comments', () => {
    const table = kernelTable(`x qp_state_table[IB_QPS_ERR + 1][IB_QPS_ERR + 1] = {
      [IB_QPS_RESET] = { [IB_QPS_INIT] = { .valid = 1, .req_param = { [IB_QPT_UD] = (IB_QP_PKEY_INDEX | /* c */ IB_QP_QKEY), } } },
};`);
    const entry = field(field(table, 'IB_QPS_RESET'), 'IB_QPS_INIT');
    expect(field(entry, 'valid')).toEqual({ kind: 'expr', names: [], text: '1' });
    expect(maskOf(field(field(entry, 'req_param'), 'IB_QPT_UD'))).toEqual(['PKEY_INDEX', 'QKEY']);
    expect(maskOf(field(field(entry, 'opt_param'), 'IB_QPT_UD'))).toEqual([]);
  });
});
