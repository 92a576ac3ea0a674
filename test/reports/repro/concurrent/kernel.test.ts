import { describe, expect, it } from 'vitest';
import { isSplatLine } from '../../../../adapters/kernel/kmsg.js';
import { readResults } from '../../../../reports/read-results.js';
import { MODULE_NAME, renderKernelRepro } from '../../../../reports/repro/kernel/module.js';
import { UserError } from '../../../../spec/errors.js';
import { casePlan, concurrentWorkload } from '../../../../suites/concurrent/cases.js';
import { casesNamed, resultsFor } from '../../fixture.js';
import { embeddedPlan } from './embedded-plan.js';

// A real kernel-adapter recording (k61, rvt_sim0), and the case rdmavt's run skips (it locks up), recorded on the model.
const RDMAVT_CONCURRENT = 'test/fixtures/repro/k61-kernel-rdmavt-concurrent.json';
const RESIZE = 'concurrent/resize-while-posting';

const source = (files: Record<string, string>) => files[`${MODULE_NAME}.c`] ?? '';
const resizeModule = async () => source(renderKernelRepro(await resultsFor({ cases: casesNamed(RESIZE) }), RESIZE, 'model.json', { device: 'rvt_sim0' }));
const workloadOf = (caseId: string) => {
  const workload = concurrentWorkload(caseId);
  if (workload === undefined) throw new Error(`no workload for ${caseId}`);
  return workload;
};

describe('repro --as module of a concurrent case: a module that runs its workload', () => {
  it('embeds the plan its seed gives, on the device named, and says which seed', async () => {
    const c = await resizeModule();
    // The model's max_srq_sge does not matter here: the case posts no SGEs.
    expect(embeddedPlan(c)).toEqual(casePlan(workloadOf(RESIZE), { max_srq_sge: 0 }));
    expect(embeddedPlan(c).resizes).toHaveLength(8);
    expect(c).toContain('the plan rvt-conform draws from seed 17002 (suites/concurrent/plan.ts), embedded as data.');
    expect(c).toContain('static char *device = "rvt_sim0";');
    // Nothing of rvt-conform: the kernel's headers only.
    expect(c.match(/#include <[^>]+>/g)?.every((h) => /<(linux|rdma)\//.test(h))).toBe(true);
    expect(c.startsWith('// SPDX-License-Identifier: GPL-2.0\n')).toBe(true);
  });

  it("embeds a kernel recording's plan, which is its seed's on the recorded device", async () => {
    const results = await readResults(RDMAVT_CONCURRENT);
    const c = source(renderKernelRepro(results, 'concurrent/posters-and-consumers', RDMAVT_CONCURRENT));
    const recorded = results.cases[0]?.trace.find((t) => t.call === 'runConcurrent')?.args;
    expect(embeddedPlan(c)).toEqual(recorded);
    expect(embeddedPlan(c)).toEqual(casePlan(workloadOf('concurrent/posters-and-consumers'), { max_srq_sge: 96 }));
    expect(c).toContain('#define PLAN_NUM_SGE 16');
    expect(c).not.toContain('NOT the recorded one');
  });

  it("runs the plan's actors as rvtc does: kthread posters, consumers over loopback RC pairs on the SRQ, a resizer and an armer", async () => {
    const c = await resizeModule();
    expect(c).toContain('ret = ib_post_srq_recv(srq, p->wrs, &bad);');
    expect(c).toContain('ret = ib_post_send(c->send_qp, &wr, &bad);');
    expect(c).toContain('m->rets[i] = ib_modify_srq(srq, &attr, m->arm ? IB_SRQ_LIMIT : IB_SRQ_MAX_WR);');
    expect(c).toContain('c->recv_qp = create_rc_qp(c->recv_cq, srq);');
    expect(c).toMatch(/kthread_create_on_cpu\(poster_thread, p, cpumask_local_spread\(i, NUMA_NO_NODE\),/);
    expect(c).toContain('hrtimer_start(&posters[i].timer, ns_to_ktime(HARDIRQ_TICK_NS),');
    // Where it comes from, said once.
    expect(c).toContain("The workload's engine: a cut of rvt-conform's rvtc_concurrent.c (GPL-2.0),");
  });

  it('compares the clauses it can judge, recorded against replayed, and names the one it cannot', async () => {
    const c = await resizeModule();
    expect(c).toMatch(/check_str\(\d+, "runConcurrent", "the workload", "finished",\n\t\t  run_error \? "stopped" : "finished"\);/);
    expect(c).toMatch(/check_str\(\d+, "runConcurrent", "exactly-once", "held",\n/);
    expect(c).toMatch(/check_str\(\d+, "runConcurrent", "fifo", "held",\n\t\t  t\.out_of_order \? "broken" : "held"\);/);
    expect(c).toContain('post_srq_recv.concurrent.capacity-exact: not judged here (it needs the history');
    expect(c).toMatch(/concurrent\/resize-while-posting: reproduced: every result as in the model adapter's recording/);
  });

  it('leaves no verdict, and stays loaded, when a thread never returns: a lockup is the reproduction, the kernel log its evidence', async () => {
    const c = await resizeModule();
    const stuck = c.slice(c.indexOf('ret = wait_workload();'), c.indexOf('reap_workload();\n\t\tjudge_workload();'));
    expect(stuck).toContain('no verdict: %d thread(s) of the workload never returned');
    expect(stuck).toMatch(/\n\t\t\treturn 0;\n\t\t\}\n\t\t$/);
    // `rvt-conform vm --run-repro` reads the verdict from these words: a stuck run must have neither.
    expect(stuck).not.toMatch(/: (not )?reproduced: /);
    const printed = [...c.matchAll(/pr_info\(\s*("(?:[^"\\]|\\.)*")/g)].map((m) => m[1] ?? '');
    expect(printed.length).toBeGreaterThan(10);
    expect(printed.filter(isSplatLine)).toEqual([]);
  });

  it('runs the workload rounds= times, each on a rig of its own, the verdict over them all', async () => {
    const c = await resizeModule();
    expect(c).toContain('module_param(rounds, uint, 0444);');
    expect(c).toMatch(/for \(round = 1; round <= rounds; round\+\+\) \{\n\t\treset_workload\(\);\n\t\tret = build_rig\(\);/);
    expect(c).toMatch(/\t\tjudge_workload\(\);\n\t\tdestroy_rig\(\);\n\t\}\n\tib_unregister_event_handler\(&device_events\);\n\tib_device_put\(dev\);\n\tif \(differences\)/);
  });

  it('refuses a workload whose SENDs carry a payload, which it does not replay yet', async () => {
    const results = await resultsFor({ cases: casesNamed('concurrent/payload-placement') });
    expect(() => renderKernelRepro(results, 'concurrent/payload-placement', 'model.json', { device: 'rvt_sim0' })).toThrow(UserError);
  });
});
