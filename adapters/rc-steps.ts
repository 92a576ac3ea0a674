import type { Mtu, PortAttr, QpAttr, QpAttrMask } from '../spec/verbs/attrs.js';

export type UpState = 'INIT' | 'RTR' | 'RTS';

/** What a connection may choose: the requester's RNR retry count and both PSNs (0 unless given). */
export interface RcOptions {
  rnr_retry?: number;
  sq_psn?: number;
  rq_psn?: number;
}

export interface RcStep {
  to: UpState;
  attr: QpAttr;
  mask: QpAttrMask[];
}

/**
 * The RC steps RESET -> INIT -> RTR -> RTS with the attributes each requires, aimed at `destQpNum`
 * on port 1 of the same device (loopback): what the shared suite's pairs and the adapters' own
 * concurrent rigs use, from the port's attributes and its GID 0.
 */
export function rcSteps(port: Pick<PortAttr, 'active_mtu' | 'link_layer' | 'lid'>, gid: string, destQpNum: number, options: RcOptions = {}): RcStep[] {
  const path_mtu = Math.min(port.active_mtu, 1024) as Mtu;
  const ethernet = port.link_layer === 'ETHERNET';
  return [
    {
      to: 'INIT',
      attr: { qp_state: 'INIT', pkey_index: 0, port_num: 1, qp_access_flags: ['LOCAL_WRITE', 'REMOTE_WRITE', 'REMOTE_READ'] },
      mask: ['STATE', 'PKEY_INDEX', 'PORT', 'ACCESS_FLAGS'],
    },
    {
      to: 'RTR',
      attr: {
        qp_state: 'RTR',
        path_mtu,
        dest_qp_num: destQpNum,
        rq_psn: options.rq_psn ?? 0,
        max_dest_rd_atomic: 1,
        min_rnr_timer: 1,
        ah_attr: {
          dlid: port.lid,
          sl: 0,
          port_num: 1,
          is_global: ethernet,
          ...(ethernet ? { grh: { dgid: gid, sgid_index: 0, hop_limit: 1, flow_label: 0, traffic_class: 0 } } : {}),
        },
      },
      mask: ['STATE', 'AV', 'PATH_MTU', 'DEST_QPN', 'RQ_PSN', 'MAX_DEST_RD_ATOMIC', 'MIN_RNR_TIMER'],
    },
    {
      to: 'RTS',
      attr: { qp_state: 'RTS', timeout: 14, retry_cnt: 7, rnr_retry: options.rnr_retry ?? 7, sq_psn: options.sq_psn ?? 0, max_rd_atomic: 1 },
      mask: ['STATE', 'TIMEOUT', 'RETRY_CNT', 'RNR_RETRY', 'SQ_PSN', 'MAX_QP_RD_ATOMIC'],
    },
  ];
}
