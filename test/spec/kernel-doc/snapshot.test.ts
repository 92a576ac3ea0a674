import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../../spec/errors.js';
import { openKernelSource, RDMAVT_DIR } from '../../../spec/kernel-doc/kernel-source.js';
import { EXTRACTION_TIMEOUT_MS, TARBALL, hasTarball, prepareKernelSource, smallTarball } from '../../kernel-source.js';
import type { Diagnostic } from '../../../spec/kernel-doc/schema.js';
import {
  buildSnapshot,
  diffSnapshots,
  loadSnapshot,
  renderDrift,
  serializeSnapshot,
  type Snapshot,
} from '../../../spec/kernel-doc/snapshot.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/kernel-doc/${name}`, import.meta.url), 'utf8');
const PINNED_PATH = new URL('../../../spec/snapshots/rdmavt.json', import.meta.url);
const QP_C = `/**
 * rvt_qp_exit - clean up qps on device exit
 * @rdi: rvt dev structure
 *
 * Return the number of leaks.
 */
int rvt_qp_exit(struct rvt_dev_info *rdi)
{
`;

/** A C file with no kernel-doc comment: the snapshot still pins its hash. */
const UNDOCUMENTED = 'static int quiet(void)\n{\n\treturn 0;\n}\n';

describe('buildSnapshot, serializeSnapshot, loadSnapshot', () => {
  let dir = '';
  let snapshot: Snapshot;
  const diagnostics: Diagnostic[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rvt-snapshot-'));
    await mkdir(join(dir, RDMAVT_DIR), { recursive: true });
    await writeFile(join(dir, 'Makefile'), 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 7\nEXTRAVERSION =\n');
    await writeFile(join(dir, RDMAVT_DIR, 'qp.c'), QP_C);
    await writeFile(join(dir, RDMAVT_DIR, 'srq.c'), fixture('srq.c'));
    for (const file of ['mr.c', 'cq.c', 'ah.c']) await writeFile(join(dir, RDMAVT_DIR, file), UNDOCUMENTED);
    snapshot = await buildSnapshot(await openKernelSource(dir), { onDiagnostic: (d) => diagnostics.push(d) });
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('pins the kernel version, the source kind and each file with its hash and functions', () => {
    expect(snapshot.kernel).toEqual({ version: '6.1.7', source: 'tree' });
    expect(snapshot.files.map((file) => [file.path, file.sha256, file.functions.length])).toEqual([
      [`${RDMAVT_DIR}/qp.c`, createHash('sha256').update(QP_C).digest('hex'), 1],
      [`${RDMAVT_DIR}/srq.c`, createHash('sha256').update(fixture('srq.c')).digest('hex'), 5],
      ...['mr.c', 'cq.c', 'ah.c'].map((file) => [`${RDMAVT_DIR}/${file}`, createHash('sha256').update(UNDOCUMENTED).digest('hex'), 0]),
    ]);
    expect(diagnostics.map((d) => `${d.file}:${d.line}:${d.code}`)).toEqual([`${RDMAVT_DIR}/qp.c:5:inferred-return`]);
  });

  it('serializes stably: no host path, key order from the schema, trailing newline, round trip', () => {
    const text = serializeSnapshot(snapshot);
    expect(text).not.toContain(dir);
    expect(text.endsWith('}\n')).toBe(true);
    expect(serializeSnapshot(loadSnapshot(text, 'x.json'))).toBe(text);
    const reordered = { files: snapshot.files, kernel: { source: 'tree', version: '6.1.7' }, snapshotVersion: 1 };
    expect(serializeSnapshot(reordered as Snapshot)).toBe(text);
  });

  it('rejects a file that is not JSON, or not a snapshot, naming where and what', () => {
    expect(() => loadSnapshot('{', 'spec/pinned.json')).toThrow(UserError);
    expect(() => loadSnapshot('{', 'spec/pinned.json')).toThrow(/^spec\/pinned\.json is not valid JSON/);
    const broken = JSON.parse(serializeSnapshot(snapshot));
    broken.files[0].functions[0].line = 'one';
    expect(() => loadSnapshot(JSON.stringify(broken), 'spec/pinned.json')).toThrow(
      /spec\/pinned\.json is not a valid kernel-doc spec snapshot:[\s\S]*expected number, received string\n  → at files\[0\]\.functions\[0\]\.line/,
    );
  });
});

describe('the committed pinned snapshot', () => {
  it('loads, and holds the 44 functions of qp.c, 5 of srq.c, 20 of mr.c, 7 of cq.c and 5 of ah.c', () => {
    const pinned = loadSnapshot(readFileSync(PINNED_PATH, 'utf8'), 'spec/snapshots/rdmavt.json');
    expect(pinned.files.map((file) => [file.path, file.functions.length])).toEqual([
      [`${RDMAVT_DIR}/qp.c`, 44],
      [`${RDMAVT_DIR}/srq.c`, 5],
      [`${RDMAVT_DIR}/mr.c`, 20],
      [`${RDMAVT_DIR}/cq.c`, 7],
      [`${RDMAVT_DIR}/ah.c`, 5],
    ]);
  });
});

describe('diffSnapshots and renderDrift', () => {
  const pinned = loadSnapshot(readFileSync(PINNED_PATH, 'utf8'), 'pinned');

  /** The pinned snapshot with one function edited. */
  function edited(name: string, edit: (fn: Snapshot['files'][number]['functions'][number]) => void): Snapshot {
    const copy = structuredClone(pinned);
    const fn = copy.files.flatMap((file) => file.functions).find((candidate) => candidate.name === name)!;
    edit(fn);
    return copy;
  }

  it('finds no drift between a snapshot and itself, nor for re-wrapped text, markup or moved lines', () => {
    const rewrapped = edited('rvt_post_srq_recv', (fn) => {
      fn.line += 10;
      fn.params[2]!.description = fn.params[2]!.description.replace(' is put', '\n  is put');
      // Markup only: the rendered page reads the same.
      fn.sections = fn.sections.map((section) => ({ ...section, text: section.text.replace('errno', '%errno') }));
      fn.params[0]!.description = fn.params[0]!.description.replace(/^srq/, '@srq');
    });
    expect(diffSnapshots(pinned, rewrapped)).toEqual([]);
    expect(renderDrift([])).toBe('No drift: the documented functions and types match the pinned snapshot.\n');
  });

  it('reports section, parameter, signature and function changes as plain data and as text', () => {
    let other = edited('rvt_post_srq_recv', (fn) => {
      fn.sections = [
        { name: 'Return', text: '0 on success, else -errno', inferred: false },
        { name: 'Context', text: 'Any context.', inferred: false },
      ];
      fn.params = fn.params.filter((param) => param.name !== 'bad_wr');
      fn.signature!.text = fn.signature!.text.replace('const struct ib_recv_wr *wr', 'struct ib_recv_wr *wr');
    });
    other = { ...other, files: other.files.map((file) => ({ ...file, functions: file.functions.filter((fn) => fn.name !== 'rvt_comm_est') })) };
    const srq = other.files[1]!;
    srq.functions.push({ ...srq.functions[0]!, name: 'rvt_resize_srq', brief: 'resize an SRQ' });

    const drift = diffSnapshots(pinned, other);
    expect(drift.map((entry) => [entry.kind, entry.function, entry.field])).toEqual([
      ['signature-changed', 'rvt_post_srq_recv', 'signature'],
      ['param-removed', 'rvt_post_srq_recv', 'params.bad_wr'],
      ['section-changed', 'rvt_post_srq_recv', 'sections.Return'],
      ['section-added', 'rvt_post_srq_recv', 'sections.Context'],
      ['function-removed', 'rvt_comm_est', ''],
      ['function-added', 'rvt_resize_srq', ''],
    ]);
    expect(drift[2]).toEqual({
      kind: 'section-changed',
      function: 'rvt_post_srq_recv',
      file: `${RDMAVT_DIR}/qp.c`,
      field: 'sections.Return',
      before: '0 on success else errno',
      after: '0 on success, else -errno',
    });
    expect(renderDrift(drift)).toBe(`6 changes to the documented functions and types:

${RDMAVT_DIR}/qp.c
  rvt_post_srq_recv(): signature changed
    - int rvt_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr, const struct ib_recv_wr **bad_wr)
    + int rvt_post_srq_recv(struct ib_srq *ibsrq, struct ib_recv_wr *wr, const struct ib_recv_wr **bad_wr)
  rvt_post_srq_recv(): @bad_wr removed
    - A pointer to the first WR to cause a problem is put here
  rvt_post_srq_recv(): Return: changed
    - 0 on success else errno
    + 0 on success, else -errno
  rvt_post_srq_recv(): Context: added
    + Any context.
  rvt_comm_est(): no longer documented

${RDMAVT_DIR}/srq.c
  rvt_resize_srq(): newly documented: resize an SRQ
`);
  });
});

describe('diffSnapshots on a struct and an enum of ib_verbs.h', () => {
  const pinned = loadSnapshot(readFileSync(new URL('../../../spec/snapshots/ib_verbs.json', import.meta.url), 'utf8'), 'ib_verbs.json');

  /** The pinned ib_verbs.h with one type edited. */
  function editedType(name: string, edit: (type: Snapshot['files'][number]['types'][number]) => void): Snapshot {
    const copy = structuredClone(pinned);
    edit(copy.files[0]!.types.find((candidate) => candidate.name === name)!);
    return copy;
  }

  it('pins the struct and enum pages of ib_verbs.h with their members', () => {
    const types = pinned.files[0]!.types;
    expect(types.map((type) => `${type.kind} ${type.name}`)).toEqual([
      'struct rdma_stat_desc',
      'struct rdma_hw_stats',
      'enum ib_mr_type',
      'struct ib_mr_status',
      'struct rdma_netdev',
      'struct ib_device_ops',
    ]);
    expect(types.find((type) => type.name === 'ib_mr_status')!.members.map((member) => member.name)).toEqual(['fail_status', 'sig_err']);
  });

  it('reports a member added, removed or redescribed, and not a change of markup', () => {
    const markup = editedType('ib_mr_type', (type) => {
      type.members[0]!.description = type.members[0]!.description.replace('memory', '%memory');
    });
    expect(markup).not.toEqual(pinned);
    expect(diffSnapshots(pinned, markup)).toEqual([]);
    const other = editedType('ib_mr_status', (type) => {
      type.members[0]!.description = 'which checks failed';
      type.members.splice(1, 1, { name: 'sig_errs', description: 'the errors' });
    });
    const drift = diffSnapshots(pinned, other);
    expect(drift.map((entry) => [entry.kind, entry.function, entry.field])).toEqual([
      ['member-changed', 'struct ib_mr_status', 'members.fail_status'],
      ['member-removed', 'struct ib_mr_status', 'members.sig_err'],
      ['member-added', 'struct ib_mr_status', 'members.sig_errs'],
    ]);
    expect(renderDrift(drift.slice(2))).toBe(`1 change to the documented functions and types:

include/rdma/ib_verbs.h
  struct ib_mr_status: @sig_errs added
    + the errors
`);
  });
});

const absent = !hasTarball;

describe.skipIf(absent)(
  absent
    ? `snapshot of the real kernel (skipped: ${TARBALL} is absent; apt-get install linux-source-6.1 to run it)`
    : "snapshot of the real kernel (linux-source-6.1's members, packed as a tarball once per machine)",
  () => {
    beforeAll(prepareKernelSource, EXTRACTION_TIMEOUT_MS);

    it('documents the functions of qp.c (44), srq.c (5), mr.c (20), cq.c (7) and ah.c (5), as pinned', async () => {
      const built = await buildSnapshot(await openKernelSource(smallTarball()));
      expect(built.kernel).toEqual({ version: expect.stringMatching(/^6\.1\./), source: 'linux-source tarball' });
      const names = built.files.map((file) => file.functions.map((fn) => fn.name).join(' '));
      expect(names).toEqual([
        'init_qpn_table free_qpn_table rvt_driver_qp_init rvt_free_qp_cb rvt_free_all_qps rvt_qp_exit alloc_qpn ' +
          'rvt_clear_mr_refs rvt_swqe_has_lkey rvt_qp_sends_has_lkey rvt_qp_acks_has_lkey rvt_qp_mr_clean ' +
          'rvt_remove_qp rvt_alloc_rq rvt_init_qp _rvt_reset_qp rvt_reset_qp rvt_free_qpn get_allowed_ops ' +
          'free_ud_wq_attr alloc_ud_wq_attr rvt_create_qp rvt_error_qp rvt_modify_qp rvt_destroy_qp rvt_query_qp ' +
          'rvt_post_recv rvt_qp_valid_operation rvt_qp_is_avail rvt_post_one_wr rvt_post_send rvt_post_srq_recv ' +
          'get_rvt_head rvt_get_rwqe rvt_comm_est rvt_add_rnr_timer rvt_stop_rc_timers rvt_stop_rnr_timer ' +
          'rvt_del_timers_sync rvt_qp_iter_init rvt_qp_iter_next rvt_qp_iter rvt_copy_sge rvt_ruc_loopback',
        'rvt_driver_srq_init rvt_create_srq rvt_modify_srq rvt_query_srq rvt_destroy_srq',
        'rvt_driver_mr_init rvt_mr_exit rvt_alloc_lkey rvt_free_lkey rvt_get_dma_mr rvt_reg_user_mr rvt_dereg_clean_qp_cb ' +
          'rvt_dereg_clean_qps rvt_check_refs rvt_mr_has_lkey rvt_ss_has_lkey rvt_dereg_mr rvt_alloc_mr rvt_set_page ' +
          'rvt_map_mr_sg rvt_fast_reg_mr rvt_invalidate_rkey rvt_sge_adjacent rvt_lkey_ok rvt_rkey_ok',
        'rvt_cq_enter rvt_create_cq rvt_destroy_cq rvt_req_notify_cq rvt_poll_cq rvt_driver_cq_init rvt_cq_exit',
        'rvt_check_ah rvt_create_ah rvt_destroy_ah rvt_modify_ah rvt_query_ah',
      ]);
      expect(built.files.map((file) => file.functions.length)).toEqual([44, 5, 20, 7, 5]);
      const pinned = loadSnapshot(readFileSync(PINNED_PATH, 'utf8'), 'pinned');
      const drift = diffSnapshots(pinned, built);
      expect(drift, renderDrift(drift)).toEqual([]);
    }, 300_000);
  },
);
