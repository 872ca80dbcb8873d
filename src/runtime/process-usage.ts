import fs from 'node:fs/promises';

/**
 * Memory and CPU of a process and its descendants (a launcher running a jar counts its Java child),
 * read from Linux's /proc as pidusage does, without a dependency. CPU times there are in clock
 * ticks, 100 a second (USER_HZ) on every Linux architecture Node runs on.
 */
const TICKS_PER_SECOND = 100;

interface Stat {
  ppid: number;
  /** User and system CPU time, in ticks. */
  ticks: number;
}

async function readStat(pid: number): Promise<Stat | null> {
  const text = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!text) return null;
  // The command name (field 2) is in parentheses and may hold spaces: fields are counted after it.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
}

async function residentBytes(pid: number): Promise<number> {
  const text = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(text)?.[1];
  return kb ? Number(kb) * 1024 : 0;
}

/**
 * Processes whose /proc stat files are open at once while a tree is looked for. Every process of
 * the machine is read: all at once, the usage sampler's reads in parallel held over 1 700 file
 * descriptors in the API on a busy host with 1 000 games, past the usual limit of 1 024.
 */
const STATS_AT_ONCE = 32;

/** The process and every descendant still alive. */
async function tree(root: number): Promise<number[]> {
  const pids = (await fs.readdir('/proc').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name)).map(Number);
  const parents = new Map<number, number[]>();
  for (let i = 0; i < pids.length; i += STATS_AT_ONCE) {
    const batch = pids.slice(i, i + STATS_AT_ONCE);
    const stats = await Promise.all(batch.map(readStat));
    for (const [j, stat] of stats.entries()) if (stat) parents.set(stat.ppid, [...(parents.get(stat.ppid) ?? []), batch[j]!]);
  }
  const found = [root];
  for (let i = 0; i < found.length; i++) found.push(...(parents.get(found[i]!) ?? []));
  return found;
}

/**
 * Reads a process tree's usage; CPU is the average since the previous reading of the same root
 * (or since the process started, at the first), so a sampler calling it once a minute gets that
 * minute's average.
 */
export class ProcessUsage {
  private readonly last = new Map<number, { ticks: number; atMs: number }>();

  /** Null when the process is gone or /proc is not there (not Linux). */
  async read(pid: number): Promise<{ memoryBytes: number; cpuCores: number } | null> {
    const root = await readStat(pid);
    if (!root) {
      this.last.delete(pid);
      return null;
    }
    const pids = await tree(pid);
    const [stats, memories] = await Promise.all([Promise.all(pids.map(readStat)), Promise.all(pids.map(residentBytes))]);
    const ticks = stats.reduce((sum, stat) => sum + (stat?.ticks ?? 0), 0);
    const atMs = Date.now();
    const previous = this.last.get(pid) ?? (await this.started(pid));
    this.last.set(pid, { ticks, atMs });
    const seconds = previous ? (atMs - previous.atMs) / 1000 : 0;
    const cpuCores = previous && seconds > 0 ? Math.max(0, (ticks - previous.ticks) / TICKS_PER_SECOND / seconds) : 0;
    return { memoryBytes: memories.reduce((a, b) => a + b, 0), cpuCores };
  }

  /** Forgets the processes not in `alive` (ended), so a reused pid starts afresh. */
  retain(alive: Set<number>): void {
    for (const pid of this.last.keys()) if (!alive.has(pid)) this.last.delete(pid);
  }

  /** The process's start as a reading of zero ticks: the first average is over its whole life. */
  private async started(pid: number): Promise<{ ticks: number; atMs: number } | null> {
    const [stat, uptime] = await Promise.all([fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''), fs.readFile('/proc/uptime', 'utf8').catch(() => '')]);
    const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const uptimeSeconds = Number(uptime.split(' ')[0]);
    if (!Number.isFinite(startTicks) || !Number.isFinite(uptimeSeconds)) return null;
    return { ticks: 0, atMs: Date.now() - (uptimeSeconds - startTicks / TICKS_PER_SECOND) * 1000 };
  }
}
