import type { Case } from './case.js';
import { concurrentCases } from './concurrent/cases.js';
import { errorCases } from './errors/cases.js';
import { cqCases } from './errors/cq.js';
import { engineCases } from './errors/engine.js';
import { interruptContextCases } from './interrupt-context.js';
import { postFamilyCases } from './post-family/cases.js';
import { postRecvCases } from './post_recv/cases.js';
import { postSendCases } from './post_send/cases.js';
import { remoteCases } from './post_send/remote.js';
import { postSrqRecvCases } from './post_srq_recv/index.js';
import { lifecycleCases } from './qp/lifecycle.js';
import { transitionCases } from './qp/transitions.js';
import { udCases } from './qp/ud.js';
import { srqLifecycleCases } from './srq/lifecycle.js';
import { srqLimitCases } from './srq/limit.js';

const family = (verb: string) => postFamilyCases.filter((c) => c.verb === verb);

/** Every shared case, grouped by verb; ids are unique (checked by the tests). */
export const allCases: readonly Case[] = [
  ...family('post_srq_recv'),
  ...postSrqRecvCases,
  ...family('post_recv'),
  ...postRecvCases,
  ...family('post_send'),
  ...postSendCases,
  ...remoteCases,
  ...lifecycleCases,
  ...transitionCases,
  ...udCases,
  ...srqLifecycleCases,
  ...srqLimitCases,
  ...errorCases,
  ...cqCases,
  ...engineCases,
  ...interruptContextCases,
  ...concurrentCases,
];
