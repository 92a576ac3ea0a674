import { MrAccess, PortAttr, PortState, QpAttrMask, QpState, QpType, SrqAttrMask } from '../../spec/verbs/attrs.js';
import { AsyncEventType } from '../../spec/verbs/events.js';
import { WcOpcode, WcStatus } from '../../spec/verbs/wc.js';
import { SendFlag, SendOpcode } from '../../spec/verbs/wr.js';
import type { VerbsBinding } from './native/index.js';

/** A C enum or flag set seen through our names: `IBV_<prefix><name>` in the binding's constants. */
export interface NamedEnum<N extends string> {
  value(name: N): number;
  /** The name of a value; throws on a value the enum does not list (a provider returning garbage). */
  name(value: number): N;
  /** Like `name`, but undefined for a value with no name (e.g. a field a state leaves unset, 0). */
  nameOrUndefined(value: number): N | undefined;
  /** OR of the named flags. */
  flags(names: readonly N[]): number;
  /** The names of the flags set in `flags`, in the enum's order. */
  names(flags: number): N[];
}

function namedEnum<N extends string>(constants: VerbsBinding['constants'], prefix: string, names: readonly N[]): NamedEnum<N> {
  const byName = new Map<N, number>();
  for (const name of names) {
    const value = (constants as Record<string, number | undefined>)[`IBV_${prefix}${name}`];
    // The constant list is checked against the addon by a test; a gap here is a build mismatch.
    if (value === undefined) throw new Error(`the native binding has no constant IBV_${prefix}${name}`);
    byName.set(name, value);
  }
  const byValue = new Map([...byName].map(([name, value]) => [value, name]));
  const nameOrUndefined = (value: number) => byValue.get(value);
  return {
    value: (name) => byName.get(name) as number,
    name: (value) => {
      const name = nameOrUndefined(value);
      if (name === undefined) throw new Error(`IBV_${prefix}* has no value ${value}`);
      return name;
    },
    nameOrUndefined,
    flags: (list) => list.reduce((all, name) => all | (byName.get(name) as number), 0),
    names: (flags) => names.filter((name) => (flags & (byName.get(name) as number)) !== 0),
  };
}

const MTUS = ['256', '512', '1024', '2048', '4096'] as const;

/** Every enum the session translates, built from the constants of the header the addon was compiled against. */
export function verbsNames(constants: VerbsBinding['constants']) {
  return {
    qpType: namedEnum(constants, 'QPT_', QpType.options),
    qpState: namedEnum(constants, 'QPS_', QpState.options),
    portState: namedEnum(constants, 'PORT_', PortState.options),
    linkLayer: namedEnum(constants, 'LINK_LAYER_', PortAttr.shape.link_layer.options),
    mtu: namedEnum(constants, 'MTU_', MTUS),
    access: namedEnum(constants, 'ACCESS_', MrAccess.options),
    srqMask: namedEnum(constants, 'SRQ_', SrqAttrMask.options),
    qpMask: namedEnum(constants, 'QP_', QpAttrMask.options),
    sendOpcode: namedEnum(constants, 'WR_', SendOpcode.options),
    sendFlag: namedEnum(constants, 'SEND_', SendFlag.options),
    wcStatus: namedEnum(constants, 'WC_', WcStatus.options),
    wcOpcode: namedEnum(constants, 'WC_', WcOpcode.options),
    eventType: namedEnum(constants, 'EVENT_', AsyncEventType.options),
  };
}
export type VerbsNames = ReturnType<typeof verbsNames>;
