import { ArmLimit, type Cmd, CycleMr, Destroy, Modify, Post, Query, Resize, Send } from './commands.js';
import type { FuzzCommand } from './report-schema.js';

/**
 * fuzz.json's form of a command (report-schema.ts FuzzCommand), every parameter included: a
 * divergence's sequence as it ran, so `fuzz --replay` runs those very commands again. A
 * fast-check path replays the drawing instead, and what a run draws after a command can depend on
 * what the device answered.
 */
export function specOf(command: object): FuzzCommand {
  if (command instanceof Post) return { kind: 'post', wrs: command.wrs, ...(command.qp === undefined ? {} : { qp: command.qp }) };
  if (command instanceof Send) return { kind: 'send', qp: command.qp, sends: command.sends };
  if (command instanceof ArmLimit) return { kind: 'armLimit', limit: command.limit };
  if (command instanceof Resize) return { kind: 'resize', maxWr: command.maxWr };
  if (command instanceof Modify) return { kind: 'modify', qp: command.qp, to: command.to, mask: command.kind };
  if (command instanceof Query) return { kind: 'query', qp: command.qp };
  if (command instanceof CycleMr) return { kind: 'cycleMr' };
  if (command instanceof Destroy) return { kind: 'destroy', target: command.target };
  throw new Error(`a fuzz command fuzz.json has no form for: ${String(command)}`);
}

/** The command a spec from fuzz.json stands for. */
export function commandOf(spec: FuzzCommand): Cmd {
  switch (spec.kind) {
    case 'post':
      return new Post(spec.wrs, spec.qp);
    case 'send':
      return new Send(spec.qp, spec.sends);
    case 'armLimit':
      return new ArmLimit(spec.limit);
    case 'resize':
      return new Resize(spec.maxWr);
    case 'modify':
      return new Modify(spec.qp, spec.to, spec.mask);
    case 'query':
      return new Query(spec.qp);
    case 'cycleMr':
      return new CycleMr();
    case 'destroy':
      return new Destroy(spec.target);
  }
}
