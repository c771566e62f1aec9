// The sessions the workspace worker keeps between requests: reused for the same key, dropped when the
// revision, a file read, the idle time or the entry limit says so, and closed exactly once.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WarmSessions } from './warm-sessions.ts';
import type { ReusableSession, WarmSessionKey } from './warm-sessions.ts';

class FakeSession implements ReusableSession {
  closed = 0;
  readonly name: string;
  readonly files: string[];
  constructor(name: string, files: string[] = []) {
    this.name = name;
    this.files = files;
  }
  filesRead(): string[] {
    return this.files;
  }
  close(): void {
    this.closed++;
  }
}

const key = (sourceRevision: string, variant = 'frame'): WarmSessionKey => ({ sourceRevision, variant });

let dir: string;
let made: FakeSession[];
let sessions: WarmSessions<FakeSession>;
const opener =
  (name: string, files: string[] = []) =>
  async () => {
    const session = new FakeSession(name, files);
    made.push(session);
    return session;
  };
const nameOf = (target: WarmSessions<FakeSession>, k: WarmSessionKey, files: string[] = []) =>
  target.use(k, opener(`${k.sourceRevision}/${k.variant}`, files), async (session) => session.name);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kino-warm-'));
  made = [];
  sessions = new WarmSessions<FakeSession>();
});

afterEach(() => {
  sessions.closeAll();
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

describe('WarmSessions', () => {
  it('reuses the session of the same revision and variant', async () => {
    expect(await nameOf(sessions, key('r1'))).toBe('r1/frame');
    expect(await nameOf(sessions, key('r1'))).toBe('r1/frame');
    expect(made).toHaveLength(1);
    expect(sessions.stats).toEqual({ opened: 1, reused: 1, held: 1 });
    expect(made[0]!.closed).toBe(0);
  });

  it('drops every session of an older revision when another one is asked for', async () => {
    await nameOf(sessions, key('r1', 'frame'));
    await nameOf(sessions, key('r1', 'inspect'));
    await nameOf(sessions, key('r2', 'frame'));
    expect(made.map((session) => session.closed)).toEqual([1, 1, 0]);
    expect(sessions.stats).toMatchObject({ opened: 3, reused: 0, held: 1 });
  });

  it('keeps two variants, closing the least recently used past that', async () => {
    await nameOf(sessions, key('r', 'a'));
    await nameOf(sessions, key('r', 'b'));
    await nameOf(sessions, key('r', 'a')); // a is now the most recent
    await nameOf(sessions, key('r', 'c'));
    expect(made.map((session) => [session.name, session.closed])).toEqual([
      ['r/a', 0],
      ['r/b', 1],
      ['r/c', 0],
    ]);
    expect(await nameOf(sessions, key('r', 'a'))).toBe('r/a');
    expect(sessions.stats).toEqual({ opened: 3, reused: 2, held: 2 });
  });

  it('opens again when a file the session read changed, or went away', async () => {
    const image = join(dir, 'photo.png');
    writeFileSync(image, 'one');
    await nameOf(sessions, key('r'), [image]);
    await nameOf(sessions, key('r'), [image]);
    expect(made).toHaveLength(1);

    // Same size, later mtime: an editor saving over the file.
    writeFileSync(image, 'two');
    utimesSync(image, new Date(), new Date(Date.now() + 5_000));
    await nameOf(sessions, key('r'), [image]);
    expect(made).toHaveLength(2);
    expect(made[0]!.closed).toBe(1);

    rmSync(image);
    await nameOf(sessions, key('r'), [image]);
    expect(made).toHaveLength(3);
    expect(made[1]!.closed).toBe(1);
  });

  it('closes after its request a session that says it cannot be reused', async () => {
    const unusable = async () => {
      const session = Object.assign(new FakeSession('missing a source'), { reusable: () => false });
      made.push(session);
      return session;
    };
    await sessions.use(key('r'), unusable, async () => undefined);
    await sessions.use(key('r'), unusable, async () => undefined);
    expect(made.map((session) => session.closed)).toEqual([1, 1]);
    expect(sessions.stats).toEqual({ opened: 2, reused: 0, held: 0 });
  });

  it('closes a session left idle, and opens a new one on the next request', async () => {
    vi.useFakeTimers();
    const short = new WarmSessions<FakeSession>({ idleMs: 1_000 });
    await nameOf(short, key('r'));
    vi.advanceTimersByTime(999);
    expect(made[0]!.closed).toBe(0);
    await nameOf(short, key('r')); // used again: the idle time starts over
    vi.advanceTimersByTime(999);
    expect(made[0]!.closed).toBe(0);
    vi.advanceTimersByTime(1);
    expect(made[0]!.closed).toBe(1);
    expect(short.stats.held).toBe(0);
    await nameOf(short, key('r'));
    expect(made).toHaveLength(2);
    short.closeAll();
  });

  it('drops a session whose work failed, unless the failure leaves it as it was', async () => {
    const keeping = new WarmSessions<FakeSession>({ keepAfter: (error) => error instanceof RangeError });
    const fail = (error: Error) =>
      keeping.use(key('r'), opener('r'), async () => {
        throw error;
      });
    await expect(fail(new RangeError('frame 999 is outside the timeline'))).rejects.toThrow(RangeError);
    expect(made[0]!.closed).toBe(0);
    await expect(fail(new Error('decoder died'))).rejects.toThrow('decoder died');
    expect(made[0]!.closed).toBe(1);
    expect(keeping.stats).toEqual({ opened: 1, reused: 1, held: 0 });
    await nameOf(keeping, key('r'));
    expect(made).toHaveLength(2);
    keeping.closeAll();
    expect(made[1]!.closed).toBe(1);
  });

  it('closes a session dropped while in use only once its work is done', async () => {
    let release!: () => void;
    let started!: () => void;
    const working = new Promise<void>((resolve) => (started = resolve));
    const busy = sessions.use(key('r1'), opener('r1'), () => {
      started();
      return new Promise<void>((resolve) => (release = resolve));
    });
    await working;
    await nameOf(sessions, key('r2')); // another revision drops r1's session
    expect(made[0]!.closed).toBe(0);
    release();
    await busy;
    expect(made[0]!.closed).toBe(1);
  });
});
