import type { Clause } from './schema.js';
import { code, kdoc, man, SRQ_C, VERBS_C } from './sources.js';

const MODIFY_NOTES = man('ibv_modify_srq(3)', 'NOTES', 'If any of the modify attributes is invalid, none of the attributes will be modified.');
const RESIZE_CAP = man('ibv_modify_srq(3)', 'NOTES', 'Not all devices support resizing SRQs. To check if a device supports it, check if the IBV_DEVICE_SRQ_RESIZE bit is set');

/** SRQ lifecycle: rvt_create_srq, rvt_modify_srq, rvt_query_srq, rvt_destroy_srq (srq.c). */
export const srqLifecycleClauses: Clause[] = [
  {
    id: 'create_srq.limits.above-device-rejected',
    verb: 'create_srq',
    statement: 'max_wr above the device\'s max_srq_wr or max_sge above max_srq_sge fails the create.',
    sources: [man('ibv_query_device(3)', 'DESCRIPTION', 'int max_srq_wr; /* Maximum number of WRs per SRQ */'), kdoc('rvt_create_srq', 'Return', SRQ_C)],
    level: 'documented',
    covers: ['rvt_create_srq'],
  },
  {
    id: 'create_srq.limits.einval',
    verb: 'create_srq',
    statement: 'rdmavt rejects max_wr 0, max_sge 0, and values above the device limits with EINVAL.',
    sources: [code('rvt_create_srq', 'max_sge == 0 || max_sge > max_srq_sge || max_wr == 0 || max_wr > max_srq_wr: -EINVAL', SRQ_C)],
    level: 'reference',
    covers: ['rvt_create_srq'],
  },
  {
    id: 'create_srq.type.basic-only',
    verb: 'create_srq',
    statement: 'rdmavt creates basic SRQs only: an XRC or a tag-matching SRQ is refused with EOPNOTSUPP, before any other check.',
    sources: [code('rvt_create_srq', 'if (srq_init_attr->srq_type != IB_SRQT_BASIC) return -EOPNOTSUPP;', SRQ_C)],
    level: 'reference',
    covers: ['rvt_create_srq'],
  },
  {
    id: 'create_srq.limit-arms',
    verb: 'create_srq',
    statement: 'rdmavt takes the srq_limit given at create unchecked: a non-zero value arms the limit event.',
    sources: [code('rvt_create_srq', 'srq->limit = srq_init_attr->attr.srq_limit', SRQ_C)],
    level: 'reference',
    covers: ['rvt_create_srq'],
  },
  {
    id: 'create_srq.attr.written-back',
    verb: 'create_srq',
    statement:
      'A successful create writes the SRQ\'s actual max_wr and max_sge back into the init attr it was given: each at least what was asked, and the values query_srq then reports.',
    sources: [
      man('ibv_create_srq(3)', 'DESCRIPTION', 'will update the srq_init_attr struct with the original values of the SRQ that was created; the values of max_wr and max_sge will be greater than or equal to the values requested'),
      code('ib_create_srq_user', 'kernel-doc: "If SRQ creation succeeds, then the attributes are updated to the actual capabilities of the created SRQ"', VERBS_C),
    ],
    level: 'documented',
    covers: ['rvt_create_srq'],
  },
  {
    id: 'query_srq.reports',
    verb: 'query_srq',
    statement: 'query_srq reports max_wr and max_sge at least as requested and the current limit.',
    sources: [man('ibv_query_srq(3)', 'DESCRIPTION', 'ibv_query_srq() gets the attributes of the SRQ srq'), kdoc('rvt_query_srq', 'Return', SRQ_C)],
    level: 'documented',
    covers: ['rvt_query_srq'],
  },
  {
    id: 'modify_srq.limit.arm-disarm',
    verb: 'modify_srq',
    statement: 'Modify with LIMIT sets srq_limit (query shows it); a limit of 0 disarms.',
    sources: [man('ibv_modify_srq(3)', 'NOTES', 'Modifying the srq_limit arms the SRQ to produce an IBV_EVENT_SRQ_LIMIT_REACHED "low watermark" asynchronous event'), kdoc('rvt_modify_srq', 'Return', SRQ_C)],
    level: 'documented',
    covers: ['rvt_modify_srq'],
  },
  {
    id: 'modify_srq.limit.too-large-einval',
    verb: 'modify_srq',
    statement: 'rdmavt rejects a limit above max_wr (srq_limit >= ring size) with EINVAL.',
    sources: [code('rvt_modify_srq', 'IB_SRQ_LIMIT: attr->srq_limit >= srq->rq.size: -EINVAL', SRQ_C)],
    level: 'reference',
    covers: ['rvt_modify_srq'],
  },
  {
    id: 'modify_srq.invalid-modifies-nothing',
    verb: 'modify_srq',
    statement: 'A modify with any invalid attribute changes nothing: max_wr and the limit read as before.',
    sources: [MODIFY_NOTES],
    level: 'documented',
    covers: ['rvt_modify_srq'],
  },
  {
    id: 'modify_srq.resize.keeps-queued',
    verb: 'modify_srq',
    statement: 'Resizing (MAX_WR) keeps the queued WQEs, which are then consumed in their original order; the new max_wr is reported.',
    sources: [RESIZE_CAP, code('rvt_modify_srq', 'copies the WQEs from tail to head into the new ring', SRQ_C)],
    level: 'documented',
    covers: ['rvt_modify_srq'],
  },
  {
    id: 'modify_srq.resize.below-queued-einval',
    verb: 'modify_srq',
    statement: 'Shrinking below the number of queued WQEs fails with EINVAL.',
    sources: [code('rvt_modify_srq', 'size <= n (queued): -EINVAL', SRQ_C)],
    level: 'reference',
    covers: ['rvt_modify_srq'],
  },
  {
    id: 'destroy_srq.attached-fails',
    verb: 'destroy_srq',
    statement: 'Destroying an SRQ that a QP still uses fails; after the QP is destroyed it succeeds.',
    sources: [man('ibv_create_srq(3)', 'NOTES', 'ibv_destroy_srq() fails if any queue pair is still associated with this SRQ.'), kdoc('rvt_destroy_srq', 'brief', SRQ_C)],
    level: 'documented',
    covers: ['rvt_destroy_srq'],
  },
];
