import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { type Server, type Socket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STAGE1_READY } from '../../vm/guest-init.js';
import { RESUME_OFF_ENV, goLine, planAfterHang, resumePlan, savedGuestPath, startGuest } from '../../vm/resume.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rvt-resume-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('the saved guest', () => {
  it('is one file per QEMU, boot files and command-line shape, apart from the paths that change per run', () => {
    const qemu = join(dir, 'qemu');
    const kernel = join(dir, 'vmlinux');
    for (const file of [qemu, kernel]) writeFileSync(file, 'x');
    const path = savedGuestPath(dir, '6.1.0-57-amd64', qemu, [kernel], ['-m', '2048']);
    expect(path).toMatch(new RegExp(`^${dir}/saved/guest-6\\.1\\.0-57-amd64-[0-9a-f]{16}\\.state$`));
    expect(savedGuestPath(dir, '6.1.0-57-amd64', qemu, [kernel], ['-m', '2048'])).toBe(path);
    expect(savedGuestPath(dir, '6.1.0-57-amd64', qemu, [kernel], ['-m', '1024'])).not.toBe(path);
    utimesSync(kernel, new Date(0), new Date(0));
    expect(savedGuestPath(dir, '6.1.0-57-amd64', qemu, [kernel], ['-m', '2048'])).not.toBe(path);
  });

  it('is used when there, saved when not, and neither when turned off', () => {
    const path = join(dir, 'guest.state');
    expect(resumePlan(path)).toEqual({ kind: 'save', path });
    writeFileSync(path, '');
    expect(resumePlan(path)).toEqual({ kind: 'resume', path });
    vi.stubEnv(RESUME_OFF_ENV, '0');
    expect(resumePlan(path)).toEqual({ kind: 'cold' });
  });

  it('is saved afresh by the boot after a hung one, unless turned off: a hung save left none, a hung resume may have come from a bad one', async () => {
    const path = join(dir, 'guest.state');
    expect(await planAfterHang({ kind: 'save', path })).toEqual({ kind: 'save', path });
    writeFileSync(path, 'a saved guest that hung on resume');
    expect(await planAfterHang({ kind: 'resume', path })).toEqual({ kind: 'save', path });
    expect(existsSync(path)).toBe(false);
    writeFileSync(path, 'kept');
    expect(await planAfterHang({ kind: 'cold' })).toEqual({ kind: 'cold' });
    expect(existsSync(path)).toBe(true);
  });

  it("says go with the host's time in seconds and 32 bytes of fresh entropy", () => {
    const line = goLine(1_796_299_452_999);
    expect(line).toMatch(/^go 1796299452 [0-9a-f]{64}\n$/);
    expect(goLine().split(' ')[2]).not.toBe(line.split(' ')[2]);
  });
});

/**
 * A stand-in for QEMU's two sockets: QMP answers as QEMU 7.2 does (a greeting, then one answer per
 * command) and a migration to `exec:cat > FILE` writes FILE, as the real cat would.
 */
async function fakeQemu(options: { status: string[]; migration?: 'completed' | 'failed' }) {
  const commands: { execute: string; arguments?: { uri?: string } }[] = [];
  const console: string[] = [];
  const servers: Server[] = [];
  const listen = async (path: string, onSocket: (socket: Socket) => void) => {
    const server = createServer(onSocket);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(path, resolve));
  };
  const statuses = [...options.status];
  await listen(join(dir, 'qmp.sock'), (socket) => {
    socket.write('{"QMP": {"version": {}, "capabilities": []}}\n');
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString();
      for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
        const command = JSON.parse(buffered.slice(0, end)) as (typeof commands)[number];
        buffered = buffered.slice(end + 1);
        commands.push(command);
        let answer: unknown = {};
        if (command.execute === 'query-status') answer = { status: statuses.length > 1 ? statuses.shift() : statuses[0] };
        if (command.execute === 'migrate' && options.migration === 'completed') {
          writeFileSync(/^exec:cat > '(.*)'$/.exec(command.arguments?.uri ?? '')?.[1] ?? '', 'saved guest');
          statuses.splice(0, statuses.length, 'postmigrate');
        }
        if (command.execute === 'query-migrate') answer = { status: options.migration };
        if (command.execute === 'cont') statuses.splice(0, statuses.length, 'running');
        socket.write(`{"event": "SOMETHING"}\n${JSON.stringify({ return: answer })}\n`);
      }
    });
  });
  await listen(join(dir, 'console.sock'), (socket) => socket.on('data', (chunk) => console.push(chunk.toString())));
  return {
    commands: () => commands.map((c) => c.execute),
    console: () => console.join(''),
    close: () => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))),
  };
}

describe('starting the guest', () => {
  const sockets = (exited = new AbortController().signal) => ({
    qmpSocket: join(dir, 'qmp.sock'),
    consoleSocket: join(dir, 'console.sock'),
    consoleLog: join(dir, 'console.log'),
    exited,
  });

  it('saves the guest once stage 1 is ready, into place only when complete, then lets it run on and says go', async () => {
    const qemu = await fakeQemu({ status: ['running'], migration: 'completed' });
    const path = join(dir, 'saved', 'guest-1.state');
    writeFileSync(join(dir, 'console.log'), `boot messages\n${STAGE1_READY}\n`);
    await startGuest({ plan: { kind: 'save', path }, ...sockets() });
    await vi.waitFor(() => expect(qemu.console()).toMatch(/^go \d+ [0-9a-f]{64}\n$/));
    expect(readFileSync(path, 'utf8')).toBe('saved guest');
    expect(qemu.commands()).toEqual(['qmp_capabilities', 'migrate', 'query-migrate', 'query-status', 'cont']);
    await qemu.close();
  });

  it("keeps one saved guest per kernel: a new save drops the same kernel's other ones only", async () => {
    const qemu = await fakeQemu({ status: ['running'], migration: 'completed' });
    mkdirSync(join(dir, 'saved'), { recursive: true });
    const old61 = join(dir, 'saved', 'guest-6.1.0-57-amd64-aaaaaaaaaaaaaaaa.state');
    const other = join(dir, 'saved', 'guest-6.12.118+deb12-amd64-bbbbbbbbbbbbbbbb.state');
    for (const file of [old61, other]) writeFileSync(file, 'old');
    const path = join(dir, 'saved', 'guest-6.1.0-57-amd64-cccccccccccccccc.state');
    writeFileSync(join(dir, 'console.log'), `${STAGE1_READY}\n`);
    await startGuest({ plan: { kind: 'save', path }, ...sockets() });
    await vi.waitFor(() => expect(qemu.console()).toMatch(/^go /));
    expect(existsSync(path)).toBe(true);
    expect(existsSync(old61)).toBe(false);
    expect(existsSync(other)).toBe(true);
    await qemu.close();
  });

  it('keeps the boot going when the save fails: no file, a line on stderr, go all the same', async () => {
    const qemu = await fakeQemu({ status: ['running'], migration: 'failed' });
    const said = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const path = join(dir, 'saved', 'guest-1.state');
    writeFileSync(join(dir, 'console.log'), `${STAGE1_READY}\n`);
    await startGuest({ plan: { kind: 'save', path }, ...sockets() });
    await vi.waitFor(() => expect(qemu.console()).toMatch(/^go /));
    expect(existsSync(path)).toBe(false);
    expect(said).toHaveBeenCalledWith(expect.stringContaining("could not save the booted guest for later boots (QEMU's migration failed)"));
    expect(qemu.commands()).not.toContain('cont');
    await qemu.close();
  });

  it('on a resume, says go only once QEMU runs the saved guest, without waiting for stage 1 to print', async () => {
    const qemu = await fakeQemu({ status: ['inmigrate', 'inmigrate', 'running'] });
    await startGuest({ plan: { kind: 'resume', path: join(dir, 'any.state') }, ...sockets() });
    await vi.waitFor(() => expect(qemu.console()).toMatch(/^go /));
    expect(qemu.commands()).toEqual(['qmp_capabilities', 'query-status', 'query-status', 'query-status']);
    await qemu.close();
  });

  it('stops waiting for stage 1 once QEMU has exited (the boot watchdog killed it), so nothing polls on', async () => {
    const qemu = await fakeQemu({ status: ['running'] });
    const exited = new AbortController();
    const started = startGuest({ plan: { kind: 'save', path: join(dir, 'guest.state') }, ...sockets(exited.signal) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    exited.abort();
    await expect(started).rejects.toThrow('QEMU exited while the host waited for stage 1');
    expect(qemu.console()).toBe('');
    await qemu.close();
  });

  it('waits for stage 1 before saying go on a cold boot', async () => {
    const qemu = await fakeQemu({ status: ['running'] });
    const started = startGuest({ plan: { kind: 'cold' }, ...sockets() });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(qemu.console()).toBe('');
    writeFileSync(join(dir, 'console.log'), `${STAGE1_READY}\n`);
    await started;
    await vi.waitFor(() => expect(qemu.console()).toMatch(/^go /));
    expect(qemu.commands()).toEqual(['qmp_capabilities']);
    await qemu.close();
  });
});
