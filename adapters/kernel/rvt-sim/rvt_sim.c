// SPDX-License-Identifier: GPL-2.0
/*
 * rvt_sim: a simulated rdmavt device, so that Debian's stock rdmavt.ko (or
 * one built from a patched source) runs without hfi1 or qib hardware.
 *
 * It registers rvt_sim0: one port, active, InfiniBand link layer, virtual DMA
 * (no parent DMA device). Every verb is rdmavt's own; this module only does
 * what rdmavt requires of a driver, the least a real one would, each callback
 * naming the qib function it stands in for. Sends to a connected QP go
 * through rdmavt's own loopback engine, rvt_ruc_loopback(), as qib_do_send()
 * does when the destination LID is the port's own (here it always is); UD
 * sends to the port's LID are delivered to the local QP as qib_ud_loopback()
 * does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <rdma/ib_hdrs.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_vt.h>
#include <rdma/rdmavt_qp.h>

static bool qib_id;
module_param(qib_id, bool, 0444);
MODULE_PARM_DESC(qib_id, "present as RDMA_DRIVER_QIB, so rdma-core's ipathverbs provider binds to the device");

/* hfi1's module defaults (hfi1_max_*), the numbers the reference model uses too. */
#define SIM_MAX_QPS		16384
#define SIM_MAX_QP_WRS		0x3FFF
#define SIM_MAX_SGES		96
#define SIM_MAX_CQS		0x1FFFF
#define SIM_MAX_CQES		0x2FFFF
#define SIM_MAX_PDS		0xFFFF
#define SIM_MAX_AHS		0xFFFF
#define SIM_MAX_SRQS		1024
#define SIM_MAX_SRQ_WRS		0x1FFFF
#define SIM_MAX_SRQ_SGES	128
#define SIM_MAX_RDMA_ATOMIC	16
#define SIM_LID			1
#define SIM_GUID		0x0002c90300a1b2c3ULL
/* qib's QP number layout: one reserved QPN, 24-bit PSNs. */
#define SIM_KD_QP		0x656b78
#define SIM_PSN_MASK		0xFFFFFF
#define SIM_PSN_SHIFT		8

struct rvt_sim_dev {
	struct rvt_dev_info rdi;	/* first: rvt_alloc_device() allocates around it */
	struct rvt_ibport port;
	u16 pkeys[1];
	struct workqueue_struct *wq;
};

struct rvt_sim_qp {
	struct rvt_qp *owner;
	struct work_struct send_work;
};

static struct device *rvt_sim_parent;
static struct rvt_sim_dev *rvt_sim;

/* rdmavt prints every message through the driver's PCI device (vt.h's rvt_pr_*). */
static struct pci_dev rvt_sim_pci = {
	.dev = { .init_name = "rvt_sim" },
};

static const struct rvt_operation_params rvt_sim_post_parms[RVT_OPERATION_MAX] = {
	[IB_WR_RDMA_WRITE] = {
		.length = sizeof(struct ib_rdma_wr),
		.qpt_support = BIT(IB_QPT_UC) | BIT(IB_QPT_RC),
	},
	[IB_WR_RDMA_READ] = {
		.length = sizeof(struct ib_rdma_wr),
		.qpt_support = BIT(IB_QPT_RC),
		.flags = RVT_OPERATION_ATOMIC,
	},
	[IB_WR_ATOMIC_CMP_AND_SWP] = {
		.length = sizeof(struct ib_atomic_wr),
		.qpt_support = BIT(IB_QPT_RC),
		.flags = RVT_OPERATION_ATOMIC | RVT_OPERATION_ATOMIC_SGE,
	},
	[IB_WR_ATOMIC_FETCH_AND_ADD] = {
		.length = sizeof(struct ib_atomic_wr),
		.qpt_support = BIT(IB_QPT_RC),
		.flags = RVT_OPERATION_ATOMIC | RVT_OPERATION_ATOMIC_SGE,
	},
	[IB_WR_RDMA_WRITE_WITH_IMM] = {
		.length = sizeof(struct ib_rdma_wr),
		.qpt_support = BIT(IB_QPT_UC) | BIT(IB_QPT_RC),
	},
	[IB_WR_SEND] = {
		.length = sizeof(struct ib_send_wr),
		.qpt_support = BIT(IB_QPT_UD) | BIT(IB_QPT_SMI) | BIT(IB_QPT_GSI) |
			       BIT(IB_QPT_UC) | BIT(IB_QPT_RC),
	},
	[IB_WR_SEND_WITH_IMM] = {
		.length = sizeof(struct ib_send_wr),
		.qpt_support = BIT(IB_QPT_UD) | BIT(IB_QPT_SMI) | BIT(IB_QPT_GSI) |
			       BIT(IB_QPT_UC) | BIT(IB_QPT_RC),
	},
};

static const enum ib_wc_opcode rvt_sim_wc_opcode[] = {
	[IB_WR_RDMA_WRITE] = IB_WC_RDMA_WRITE,
	[IB_WR_RDMA_WRITE_WITH_IMM] = IB_WC_RDMA_WRITE,
	[IB_WR_SEND] = IB_WC_SEND,
	[IB_WR_SEND_WITH_IMM] = IB_WC_SEND,
	[IB_WR_RDMA_READ] = IB_WC_RDMA_READ,
	[IB_WR_ATOMIC_CMP_AND_SWP] = IB_WC_COMP_SWAP,
	[IB_WR_ATOMIC_FETCH_AND_ADD] = IB_WC_FETCH_ADD,
};

/* The send engine */

/* qib_send_ok(): not busy, not waiting for a resource. */
static bool rvt_sim_send_ok(struct rvt_qp *qp)
{
	return !(qp->s_flags & (RVT_S_BUSY | RVT_S_ANY_WAIT_IO)) &&
		(qp->s_hdrwords || (qp->s_flags & RVT_S_RESP_PENDING) ||
		 !(qp->s_flags & RVT_S_ANY_WAIT_SEND));
}

/* qib_make_grh(): the GRH a UD receive finds before the payload. */
static void rvt_sim_make_grh(struct ib_grh *hdr, const struct ib_global_route *grd,
			     u32 length)
{
	hdr->version_tclass_flow =
		cpu_to_be32((IB_GRH_VERSION << IB_GRH_VERSION_SHIFT) |
			    (grd->traffic_class << IB_GRH_TCLASS_SHIFT) |
			    (grd->flow_label << IB_GRH_FLOW_SHIFT));
	hdr->paylen = cpu_to_be16(length);
	hdr->next_hdr = IB_GRH_NEXT_HDR;
	hdr->hop_limit = grd->hop_limit;
	hdr->sgid.global.subnet_prefix = rvt_sim->port.gid_prefix;
	hdr->sgid.global.interface_id = cpu_to_be64(SIM_GUID);
	hdr->dgid = grd->dgid;
}

/*
 * qib_ud_loopback() (hfi1's ud_loopback()): a UD send addressed to this
 * port lands in the destination QP's receive queue, through rdmavt's
 * rvt_get_rwqe(), as a packet from the wire would. A datagram that cannot
 * be delivered (no such QP, wrong type or state, Q_Key mismatch, no
 * receive posted, too big for the receive) is dropped, as on the wire.
 * The port has one P_Key, so the P_Key check always passes.
 */
static void rvt_sim_ud_loopback(struct rvt_qp *sqp, struct rvt_swqe *swqe)
{
	struct rdma_ah_attr *ah_attr = rvt_get_swqe_ah_attr(swqe);
	enum ib_qp_type sqptype, dqptype;
	struct rvt_sge_state ssge;
	struct rvt_qp *qp;
	unsigned long flags;
	struct ib_wc wc;
	u32 length;
	int ret;

	rcu_read_lock();
	qp = rvt_lookup_qpn(&rvt_sim->rdi, &rvt_sim->port,
			    rvt_get_swqe_remote_qpn(swqe));
	if (!qp)
		goto drop;
	sqptype = sqp->ibqp.qp_type == IB_QPT_GSI ? IB_QPT_UD : sqp->ibqp.qp_type;
	dqptype = qp->ibqp.qp_type == IB_QPT_GSI ? IB_QPT_UD : qp->ibqp.qp_type;
	if (dqptype != sqptype ||
	    !(ib_rvt_state_ops[qp->state] & RVT_PROCESS_RECV_OK))
		goto drop;
	/* A Q_Key with the high bit set means the sender's own (IBA 10.2.5). */
	if (qp->ibqp.qp_num) {
		u32 qkey = (int)rvt_get_swqe_remote_qkey(swqe) < 0 ?
			   sqp->qkey : rvt_get_swqe_remote_qkey(swqe);

		if (qkey != qp->qkey)
			goto drop;
	}

	length = swqe->length;
	memset(&wc, 0, sizeof(wc));
	wc.byte_len = length + sizeof(struct ib_grh);
	if (swqe->wr.opcode == IB_WR_SEND_WITH_IMM) {
		wc.wc_flags = IB_WC_WITH_IMM;
		wc.ex.imm_data = swqe->wr.ex.imm_data;
	}

	spin_lock_irqsave(&qp->r_lock, flags);
	if (qp->r_flags & RVT_R_REUSE_SGE) {
		qp->r_flags &= ~RVT_R_REUSE_SGE;
	} else {
		ret = rvt_get_rwqe(qp, false);
		if (ret < 0) {
			rvt_rc_error(qp, IB_WC_LOC_QP_OP_ERR);
			goto unlock;
		}
		if (!ret)
			goto unlock;
	}
	/* Too big for the receive: dropped, and the receive WQE kept. */
	if (unlikely(wc.byte_len > qp->r_len)) {
		qp->r_flags |= RVT_R_REUSE_SGE;
		goto unlock;
	}
	if (rdma_ah_get_ah_flags(ah_attr) & IB_AH_GRH) {
		struct ib_grh grh;

		rvt_sim_make_grh(&grh, rdma_ah_read_grh(ah_attr), length);
		rvt_copy_sge(qp, &qp->r_sge, &grh, sizeof(grh), true, false);
		wc.wc_flags |= IB_WC_GRH;
	} else {
		rvt_skip_sge(&qp->r_sge, sizeof(struct ib_grh), true);
	}
	ssge.sg_list = swqe->sg_list + 1;
	ssge.sge = *swqe->sg_list;
	ssge.num_sge = swqe->wr.num_sge;
	while (length) {
		u32 len = rvt_get_sge_length(&ssge.sge, length);

		rvt_copy_sge(qp, &qp->r_sge, ssge.sge.vaddr, len, true, false);
		rvt_update_sge(&ssge, len, false);
		length -= len;
	}
	rvt_put_ss(&qp->r_sge);
	if (!test_and_clear_bit(RVT_R_WRID_VALID, &qp->r_aflags))
		goto unlock;
	wc.wr_id = qp->r_wr_id;
	wc.status = IB_WC_SUCCESS;
	wc.opcode = IB_WC_RECV;
	wc.qp = &qp->ibqp;
	wc.src_qp = sqp->ibqp.qp_num;
	wc.pkey_index = qp->ibqp.qp_type == IB_QPT_GSI ?
			rvt_get_swqe_pkey_index(swqe) : 0;
	wc.slid = SIM_LID;
	wc.sl = rdma_ah_get_sl(ah_attr);
	wc.port_num = qp->port_num;
	rvt_recv_cq(qp, &wc, swqe->wr.send_flags & IB_SEND_SOLICITED);
unlock:
	spin_unlock_irqrestore(&qp->r_lock, flags);
drop:
	rcu_read_unlock();
}

/*
 * qib_make_ud_req() as qib_do_send() drives it: in the error state the
 * queue is flushed; otherwise each WQE addressed to this port's LID is
 * looped back, and any other leaves for a wire this device does not have,
 * completing as sent like a datagram that no one receives.
 */
static void rvt_sim_send_ud(struct rvt_qp *qp)
{
	struct rdma_ah_attr *ah_attr;
	struct rvt_swqe *wqe;
	unsigned long flags;

	spin_lock_irqsave(&qp->s_lock, flags);
	for (;;) {
		if (!(ib_rvt_state_ops[qp->state] & RVT_PROCESS_NEXT_SEND_OK)) {
			if (!(ib_rvt_state_ops[qp->state] & RVT_FLUSH_SEND) ||
			    qp->s_last == READ_ONCE(qp->s_head))
				break;
			rvt_send_complete(qp, rvt_get_swqe_ptr(qp, qp->s_last),
					  IB_WC_WR_FLUSH_ERR);
			continue;
		}
		if (qp->s_cur == READ_ONCE(qp->s_head))
			break;
		wqe = rvt_get_swqe_ptr(qp, qp->s_cur);
		if (++qp->s_cur >= qp->s_size)
			qp->s_cur = 0;
		ah_attr = rvt_get_swqe_ah_attr(wqe);
		if (rdma_ah_get_dlid(ah_attr) == SIM_LID) {
			spin_unlock_irqrestore(&qp->s_lock, flags);
			rvt_sim_ud_loopback(qp, wqe);
			spin_lock_irqsave(&qp->s_lock, flags);
		}
		rvt_send_complete(qp, wqe, IB_WC_SUCCESS);
	}
	spin_unlock_irqrestore(&qp->s_lock, flags);
}

/* qib_do_send(): the destination is always this port, so RC/UC loop back. */
static void rvt_sim_do_send(struct rvt_qp *qp)
{
	if (qp->ibqp.qp_type == IB_QPT_RC || qp->ibqp.qp_type == IB_QPT_UC)
		rvt_ruc_loopback(qp);
	else
		rvt_sim_send_ud(qp);
}

static void rvt_sim_send_work(struct work_struct *work)
{
	struct rvt_sim_qp *priv = container_of(work, struct rvt_sim_qp, send_work);

	rvt_sim_do_send(priv->owner);
}

/* _qib_schedule_send(): progress happens on the device's workqueue. */
static bool rvt_sim_schedule_send_no_lock(struct rvt_qp *qp)
{
	struct rvt_sim_qp *priv = qp->priv;

	return queue_work(rvt_sim->wq, &priv->send_work);
}

/* qib_schedule_send(): called with s_lock held. */
static bool rvt_sim_schedule_send(struct rvt_qp *qp)
{
	lockdep_assert_held(&qp->s_lock);
	if (rvt_sim_send_ok(qp))
		return rvt_sim_schedule_send_no_lock(qp);
	return false;
}

/* QP private data and the hooks around reset, error and destroy */

/* qib_qp_priv_alloc() */
static void *rvt_sim_qp_priv_alloc(struct rvt_dev_info *rdi, struct rvt_qp *qp)
{
	struct rvt_sim_qp *priv = kzalloc(sizeof(*priv), GFP_KERNEL);

	if (!priv)
		return ERR_PTR(-ENOMEM);
	priv->owner = qp;
	INIT_WORK(&priv->send_work, rvt_sim_send_work);
	return priv;
}

/* qib_qp_priv_free() */
static void rvt_sim_qp_priv_free(struct rvt_dev_info *rdi, struct rvt_qp *qp)
{
	struct rvt_sim_qp *priv = qp->priv;

	cancel_work_sync(&priv->send_work);
	kfree(priv);
}

/* qib_stop_send_queue(): no more progress for this QP until it is restarted. */
static void rvt_sim_stop_send_queue(struct rvt_qp *qp)
{
	struct rvt_sim_qp *priv = qp->priv;

	cancel_work_sync(&priv->send_work);
}

/* qib_notify_qp_reset(), qib_flush_qp_waiters(), qib_notify_error_qp(), qib_quiesce_qp():
 * qib drops the QP from its DMA and PIO wait lists and waits for DMA; this
 * device has neither, so there is nothing to do.
 */
static void rvt_sim_qp_nothing(struct rvt_qp *qp)
{
}

/*
 * qib_restart_rc(): a real driver rewinds its send state to @psn and sends
 * again. rvt_ruc_loopback() never waits for an ACK, so the retry timer that
 * calls this has nothing to rewind: progress is all that is left to make.
 */
static void rvt_sim_restart_rc(struct rvt_qp *qp, u32 psn, int wait)
{
	rvt_sim_schedule_send_no_lock(qp);
}

/* qib_free_all_qps(): the QPs still in use at unregister, QP0 and QP1 of the port. */
static unsigned int rvt_sim_free_all_qps(struct rvt_dev_info *rdi)
{
	struct rvt_sim_dev *sim = container_of(rdi, struct rvt_sim_dev, rdi);
	unsigned int in_use = 0;

	rcu_read_lock();
	if (rcu_dereference(sim->port.qp[0]))
		in_use++;
	if (rcu_dereference(sim->port.qp[1]))
		in_use++;
	rcu_read_unlock();
	return in_use;
}

/* qib_get_pmtu_from_attr(): the path MTU, bounded by the port's. */
static int rvt_sim_get_pmtu_from_attr(struct rvt_dev_info *rdi, struct rvt_qp *qp,
				      struct ib_qp_attr *attr)
{
	if (ib_mtu_enum_to_int(attr->path_mtu) == -1)
		return -EINVAL;
	return min_t(int, attr->path_mtu, IB_MTU_4096);
}

/* qib_mtu_from_qp() */
static u32 rvt_sim_mtu_from_qp(struct rvt_dev_info *rdi, struct rvt_qp *qp, u32 pmtu)
{
	return ib_mtu_enum_to_int(pmtu);
}

/* qib_mtu_to_path_mtu() */
static int rvt_sim_mtu_to_path_mtu(u32 mtu)
{
	return ib_mtu_int_to_enum(mtu);
}

/* The port */

/* qib_query_port(): always up, LID 1, 4 KiB MTU. */
static int rvt_sim_query_port_state(struct rvt_dev_info *rdi, u32 port_num,
				    struct ib_port_attr *props)
{
	props->lid = SIM_LID;
	props->lmc = 0;
	props->state = IB_PORT_ACTIVE;
	props->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	props->gid_tbl_len = 1;
	props->active_width = IB_WIDTH_4X;
	props->active_speed = IB_SPEED_QDR;
	props->max_mtu = IB_MTU_4096;
	props->active_mtu = IB_MTU_4096;
	props->max_vl_num = 1;
	return 0;
}

/* qib_get_guid_be(): one GUID. */
static int rvt_sim_get_guid_be(struct rvt_dev_info *rdi, struct rvt_ibport *rvp,
			       int guid_index, __be64 *guid)
{
	if (guid_index != 0)
		return -EINVAL;
	*guid = cpu_to_be64(SIM_GUID);
	return 0;
}

/* qib_shut_down_port() and qib_cap_mask_chg(): no link, no SM to tell. */
static int rvt_sim_shut_down_port(struct rvt_dev_info *rdi, u32 port_num)
{
	return 0;
}

static void rvt_sim_cap_mask_chg(struct rvt_dev_info *rdi, u32 port_num)
{
}

/* qib_get_pci_dev() */
static struct pci_dev *rvt_sim_get_pci_dev(struct rvt_dev_info *rdi)
{
	return &rvt_sim_pci;
}

/* qib_modify_device(): nothing to modify. */
static int rvt_sim_modify_device(struct ib_device *device, int mask,
				 struct ib_device_modify *props)
{
	return -EOPNOTSUPP;
}

static const struct attribute_group *rvt_sim_port_groups[] = { NULL };

static const struct ib_device_ops rvt_sim_dev_ops = {
	.owner = THIS_MODULE,
	.port_groups = rvt_sim_port_groups,
	.modify_device = rvt_sim_modify_device,
};

static const struct ib_device_ops rvt_sim_qib_ops = {
	.driver_id = RDMA_DRIVER_QIB,
};

/* qib_fill_device_attr() */
static void rvt_sim_fill_device_attr(struct rvt_dev_info *rdi)
{
	struct ib_device_attr *props = &rdi->dparms.props;

	props->max_pd = SIM_MAX_PDS;
	props->max_ah = SIM_MAX_AHS;
	props->device_cap_flags = IB_DEVICE_BAD_PKEY_CNTR | IB_DEVICE_BAD_QKEY_CNTR |
		IB_DEVICE_SHUTDOWN_PORT | IB_DEVICE_SYS_IMAGE_GUID |
		IB_DEVICE_RC_RNR_NAK_GEN | IB_DEVICE_PORT_ACTIVE_EVENT |
		IB_DEVICE_SRQ_RESIZE;
	props->page_size_cap = PAGE_SIZE;
	props->sys_image_guid = cpu_to_be64(SIM_GUID);
	props->max_mr_size = ~0ULL;
	props->max_qp = SIM_MAX_QPS;
	props->max_qp_wr = SIM_MAX_QP_WRS;
	props->max_send_sge = SIM_MAX_SGES;
	props->max_recv_sge = SIM_MAX_SGES;
	props->max_sge_rd = SIM_MAX_SGES;
	props->max_cq = SIM_MAX_CQS;
	props->max_cqe = SIM_MAX_CQES;
	props->max_mr = SIM_MAX_PDS;
	props->max_qp_rd_atom = SIM_MAX_RDMA_ATOMIC;
	props->max_qp_init_rd_atom = 255;
	props->max_srq = SIM_MAX_SRQS;
	props->max_srq_wr = SIM_MAX_SRQ_WRS;
	props->max_srq_sge = SIM_MAX_SRQ_SGES;
	props->atomic_cap = IB_ATOMIC_GLOB;
	props->max_pkeys = 1;
	props->max_mcast_grp = 16384;
	props->max_mcast_qp_attach = 16;
	props->max_total_mcast_qp_attach = 16 * 16384;
}

static void rvt_sim_fill_driver(struct rvt_sim_dev *sim)
{
	struct rvt_dev_info *rdi = &sim->rdi;
	struct rvt_driver_provided *f = &rdi->driver_f;

	f->get_pci_dev = rvt_sim_get_pci_dev;
	f->qp_priv_alloc = rvt_sim_qp_priv_alloc;
	f->qp_priv_free = rvt_sim_qp_priv_free;
	f->notify_qp_reset = rvt_sim_qp_nothing;
	f->flush_qp_waiters = rvt_sim_qp_nothing;
	f->notify_error_qp = rvt_sim_qp_nothing;
	f->quiesce_qp = rvt_sim_qp_nothing;
	f->stop_send_queue = rvt_sim_stop_send_queue;
	f->notify_restart_rc = rvt_sim_restart_rc;
	f->free_all_qps = rvt_sim_free_all_qps;
	f->do_send = rvt_sim_do_send;
	f->schedule_send = rvt_sim_schedule_send;
	/* Not checked by rdmavt, but rvt_post_send() calls it for a list of more than one WR. */
	f->schedule_send_no_lock = rvt_sim_schedule_send_no_lock;
	f->get_pmtu_from_attr = rvt_sim_get_pmtu_from_attr;
	f->mtu_from_qp = rvt_sim_mtu_from_qp;
	f->mtu_to_path_mtu = rvt_sim_mtu_to_path_mtu;
	f->query_port_state = rvt_sim_query_port_state;
	f->get_guid_be = rvt_sim_get_guid_be;
	f->shut_down_port = rvt_sim_shut_down_port;
	f->cap_mask_chg = rvt_sim_cap_mask_chg;

	rdi->post_parms = rvt_sim_post_parms;
	rdi->wc_opcode = rvt_sim_wc_opcode;
	rvt_sim_fill_device_attr(rdi);
	rdi->dparms.max_rdma_atomic = SIM_MAX_RDMA_ATOMIC;
	rdi->dparms.lkey_table_size = 16;
	rdi->dparms.qp_table_size = 256;
	rdi->dparms.qpn_start = 1;
	rdi->dparms.qpn_res_start = SIM_KD_QP;
	rdi->dparms.qpn_res_end = SIM_KD_QP;
	rdi->dparms.qpn_inc = 1;
	rdi->dparms.qos_shift = 1;
	rdi->dparms.psn_mask = SIM_PSN_MASK;
	rdi->dparms.psn_shift = SIM_PSN_SHIFT;
	rdi->dparms.psn_modify_mask = SIM_PSN_MASK;
	rdi->dparms.nports = 1;
	rdi->dparms.npkeys = 1;
	/* rvt_create_cq() takes cpumask_of_node(node): it must be an online node. */
	rdi->dparms.node = first_online_node;
	rdi->dparms.core_cap_flags = RDMA_CORE_PORT_IBA_IB;
	rdi->dparms.max_mad_size = IB_MGMT_MAD_SIZE;
	rdi->dparms.sge_copy_mode = RVT_SGE_COPY_MEMCPY;
}

static int __init rvt_sim_init(void)
{
	struct rvt_sim_dev *sim;
	int ret;

	rvt_sim_parent = root_device_register("rvt_sim");
	if (IS_ERR(rvt_sim_parent))
		return PTR_ERR(rvt_sim_parent);

	sim = container_of(rvt_alloc_device(sizeof(*sim), 1), struct rvt_sim_dev, rdi);
	if (!sim) {
		ret = -ENOMEM;
		goto err_parent;
	}
	sim->wq = alloc_workqueue("rvt_sim", WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	if (!sim->wq) {
		ret = -ENOMEM;
		goto err_dev;
	}
	rvt_sim = sim;
	rvt_sim_fill_driver(sim);

	sim->rdi.ibdev.dev.parent = rvt_sim_parent;
	sim->rdi.ibdev.node_guid = cpu_to_be64(SIM_GUID);
	sim->rdi.ibdev.phys_port_cnt = 1;
	strscpy(sim->rdi.ibdev.node_desc, "rvt-conform simulated rdmavt device",
		sizeof(sim->rdi.ibdev.node_desc));
	ret = dev_set_name(&sim->rdi.ibdev.dev, "rvt_sim%%d");
	if (ret)
		goto err_wq;
	/* Set before rvt_register_device(): ib_set_device_ops() never overwrites. */
	ib_set_device_ops(&sim->rdi.ibdev, &rvt_sim_dev_ops);
	if (qib_id)
		ib_set_device_ops(&sim->rdi.ibdev, &rvt_sim_qib_ops);

	sim->pkeys[0] = 0xffff;
	rvt_init_port(&sim->rdi, &sim->port, 0, sim->pkeys);
	sim->port.sm_lid = SIM_LID;
	sim->port.gid_prefix = cpu_to_be64(0xfe80000000000000ULL);

	ret = rvt_register_device(&sim->rdi);
	if (ret)
		goto err_wq;
	pr_info("registered %s on rdmavt%s\n", dev_name(&sim->rdi.ibdev.dev),
		qib_id ? " (as a qib device)" : "");
	return 0;

err_wq:
	destroy_workqueue(sim->wq);
err_dev:
	rvt_dealloc_device(&sim->rdi);
err_parent:
	root_device_unregister(rvt_sim_parent);
	rvt_sim = NULL;
	return ret;
}

static void __exit rvt_sim_exit(void)
{
	rvt_unregister_device(&rvt_sim->rdi);
	destroy_workqueue(rvt_sim->wq);
	rvt_dealloc_device(&rvt_sim->rdi);
	root_device_unregister(rvt_sim_parent);
}

module_init(rvt_sim_init);
module_exit(rvt_sim_exit);

MODULE_AUTHOR("rvt-conform");
MODULE_DESCRIPTION("A simulated rdmavt device, so the real rdmavt runs without hardware");
MODULE_LICENSE("GPL");
