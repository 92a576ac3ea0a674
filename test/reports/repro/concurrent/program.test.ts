import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { readResults } from '../../../../reports/read-results.js';
import { renderRepro } from '../../../../reports/repro/program.js';
import { casePlan, concurrentWorkload } from '../../../../suites/concurrent/cases.js';
import { casesNamed, resultsFor } from '../../fixture.js';
import { embeddedPlan } from './embedded-plan.js';

const RDMAVT_CONCURRENT = 'test/fixtures/repro/k61-kernel-rdmavt-concurrent.json';
const LIMIT = 'concurrent/limit-while-consuming';
const RESIZE = 'concurrent/resize-while-posting';

const fromModel = async (caseId: string) => renderRepro(await resultsFor({ cases: casesNamed(caseId) }), caseId, 'model.json');
const seedPlan = (caseId: string) => {
  const workload = concurrentWorkload(caseId);
  if (workload === undefined) throw new Error(`no workload for ${caseId}`);
  return casePlan(workload, { max_srq_sge: 0 });
};

describe('repro of a concurrent case, the program: the workload through libibverbs with pthreads', () => {
  it('embeds the plan its seed gives and says which seed', async () => {
    const c = await fromModel(LIMIT);
    expect(embeddedPlan(c)).toEqual(seedPlan(LIMIT));
    expect(embeddedPlan(c).arms).toHaveLength(12);
    expect(c).toContain('the plan rvt-conform draws from seed 17003 (suites/concurrent/plan.ts), embedded as data.');
  });

  it('runs the actors as the native engine does, and counts the limit events its event reader sees', async () => {
    const c = await fromModel(RESIZE);
    expect(c).toContain('ret = ibv_post_srq_recv(srq, wrs, &bad);');
    expect(c).toContain('int ret = ibv_post_send(c->send_qp, &wr, &bad);');
    expect(c).toContain('m->rets[i] = ibv_modify_srq(srq, &attr, m->arm ? IBV_SRQ_LIMIT : IBV_SRQ_MAX_WR);');
    expect(c).toContain('if (event.event_type == IBV_EVENT_SRQ_LIMIT_REACHED && event.element.srq == srq)');
    expect(c).toContain('pthread_create(&resizer.thread, NULL, modifier_thread, &resizer);');
  });

  it('compares the clauses it can judge, recorded against replayed, once-per-arm included', async () => {
    const c = await fromModel(LIMIT);
    expect(c).toMatch(/check_str\(\d+, "runConcurrent", "once-per-arm", "held",\n\t\t  \(unsigned int\)atomic_load\(&limit_events\) > t\.arms_ok \? "broken" : "held"\);/);
    expect(c).toContain('note: srq_limit.concurrent.fires-below: not judged here');
    expect(c).toContain('return differences ? 1 : 0;');
  });

  it('ends with exit status 3 and no verdict when a thread never returns (a thread stuck in the kernel)', async () => {
    const c = await fromModel(RESIZE);
    expect(c).toMatch(/if \(wait_workload\(\)\) \{\n\t\t\tputs\("concurrent\/resize-while-posting: no verdict: [^"]*"\);\n\t\t\t_exit\(3\);\n\t\t\}/);
  });

  it('runs the workload REPRO_ROUNDS times, each on a rig of its own', async () => {
    const c = await fromModel(RESIZE);
    expect(c).toContain('const char *env = getenv("REPRO_ROUNDS");');
    expect(c).toMatch(/for \(long round = 1; round <= rounds\(\); round\+\+\) \{\n\t\treset_workload\(\);\n\t\tif \(build_rig\(\) \|\| start_workload\(\)\) \{/);
  });

  it.skipIf(!existsSync('/usr/include/infiniband/verbs.h'))(
    'compiles against the installed libibverbs headers with -Wall -Werror (needs libibverbs-dev)',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'rvt-crepro-'));
      const programs = [await fromModel(RESIZE), await fromModel(LIMIT), renderRepro(await readResults(RDMAVT_CONCURRENT), 'concurrent/posters-and-consumers', RDMAVT_CONCURRENT)];
      for (const [i, text] of programs.entries()) {
        const file = join(dir, `repro-${i}.c`);
        await writeFile(file, text);
        // As `rvt-conform vm --run-repro` builds it.
        const cc = await execa('cc', ['-std=gnu11', '-Wall', '-Werror', '-o', join(dir, `repro-${i}`), file, '-libverbs'], { reject: false, all: true });
        expect(cc.exitCode, cc.all).toBe(0);
      }
    },
    60_000,
  );
});
