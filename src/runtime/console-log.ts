import fs from 'node:fs';
import path from 'node:path';
import { readJsonLines } from './lines.ts';

export type ConsoleLevel = 'info' | 'warn' | 'error';

/**
 * One line of a game's console, numbered from 1 for the game's whole life. A marker standing for
 * lines a flood had collapsed carries how many (`omitted`); a command run from the panel is marked
 * (`command`), its answer follows it.
 */
export interface ConsoleLine {
  seq: number;
  at: string;
  level: ConsoleLevel;
  text: string;
  omitted?: number;
  command?: boolean;
}

/**
 * A game's console: the lines its server printed, numbered from 1 and kept in a JSON-lines file of
 * the game's folder, so the history (a crash's reason included) survives a restart of the server or
 * of the API. The file holds at least the last `keep` lines and is rewritten to them once it holds
 * twice as many, so it stays bounded without a rewrite per line.
 *
 * Flood control is here, where the lines come in, as a token bucket: a burst (a server's start)
 * passes whole, but once the bucket is empty, every line of the next second is counted instead of
 * kept, and one marker line (`omitted: n`) takes their place when that second ends. A server
 * printing thousands of lines a second so costs the platform about `perSecond` lines a second to
 * number, store and send, whatever reads them. Commands run from the panel and their answers are
 * lines like the others there: they take from the same bucket and fall into the same marker.
 */
export interface ConsoleLogOptions {
  /** Lines kept; the last 5 000 by default. */
  keep?: number;
  /** Lines kept per second, on average, before the rest is collapsed into markers. */
  perSecond?: number;
  /** Lines that may come at once before the flood control starts. */
  burst?: number;
  /** Characters kept of one line; longer ones are cut. */
  maxLineLength?: number;
  clock?: () => number;
}

/** The file of a game folder that holds its console. */
export const consoleFile = 'console.jsonl';

export class ConsoleLog {
  private readonly file: string;
  private readonly keep: number;
  private readonly perSecond: number;
  private readonly maxLineLength: number;
  private readonly clock: () => number;
  /** The lines kept, in order, their seqs consecutive. */
  private lines: ConsoleLine[] = [];
  /** Lines in the file, to know when to compact it. */
  private linesInFile = 0;
  private lastSeq = 0;
  private readonly listeners = new Set<(line: ConsoleLine) => void>();
  /** Lines numbered but not written yet: written together once per turn of the event loop. */
  private pending: string[] = [];
  private readonly burst: number;
  private tokens: number;
  private refilledAt: number;
  /** Lines counted instead of kept since `collapsingSince`, said by one marker a second later. */
  private omitted = 0;
  private collapsingSince = 0;
  private omittedTimer: NodeJS.Timeout | undefined;

  constructor(file: string, options: ConsoleLogOptions = {}) {
    this.file = file;
    this.keep = options.keep ?? 5000;
    this.perSecond = options.perSecond ?? 100;
    this.maxLineLength = options.maxLineLength ?? 4096;
    this.clock = options.clock ?? Date.now;
    this.burst = options.burst ?? 5 * this.perSecond;
    this.tokens = this.burst;
    this.refilledAt = this.clock();
    this.load();
  }

  private load() {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      return;
    }
    const lines: ConsoleLine[] = [];
    for (const value of readJsonLines(text)) {
      const line = value as unknown as ConsoleLine;
      // A line cut by a crash of the API mid-write, or out of order, is skipped.
      if (Number.isInteger(line.seq) && line.seq > (lines.at(-1)?.seq ?? 0)) lines.push(line);
    }
    this.linesInFile = lines.length;
    this.lines = lines.slice(-this.keep);
    this.lastSeq = lines.at(-1)?.seq ?? 0;
  }

  /** Whether the server ever printed a line (it never started otherwise). */
  get started(): boolean {
    return this.lastSeq > 0;
  }

  /** Lines after `afterSeq`, oldest first, at most `limit`. */
  after(afterSeq: number, limit = this.keep): ConsoleLine[] {
    const first = this.lines[0];
    if (!first) return [];
    const from = Math.max(0, afterSeq + 1 - first.seq);
    return this.lines.slice(from, from + limit);
  }

  /** Calls `listener` with each line numbered from now on; returns what stops it. */
  follow(listener: (line: ConsoleLine) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The last line kept. */
  get last(): ConsoleLine | undefined {
    return this.lines.at(-1);
  }

  /** One line the server printed (at `at`, ms, when its source says; now otherwise), subject to the flood control. */
  write(level: ConsoleLevel, text: string, at?: number) {
    this.limited({ level, text }, at);
  }

  /**
   * A command run from the panel, or a line of its answer: subject to the flood control as a
   * printed line is, so commands neither pass more lines than the rate nor end a marker's second.
   */
  echo(level: ConsoleLevel, text: string, command?: boolean) {
    this.limited(command ? { level, text, command } : { level, text });
  }

  private limited(line: Pick<ConsoleLine, 'level' | 'text' | 'command'>, at?: number) {
    const now = this.clock();
    if (this.omitted > 0 && now - this.collapsingSince >= 1000) this.flushOmitted();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) * this.perSecond) / 1000);
    this.refilledAt = now;
    if (this.omitted > 0 || this.tokens < 1) {
      if (this.omitted === 0) this.collapsingSince = now;
      this.omitted++;
      // Said when the second ends, even if the server falls silent.
      this.omittedTimer ??= setTimeout(() => this.flushOmitted(), 1000).unref();
      return;
    }
    this.tokens -= 1;
    const { text } = line;
    this.add({ ...line, text: text.length > this.maxLineLength ? `${text.slice(0, this.maxLineLength)}…` : text }, at);
  }

  /** A line of the platform's own (the server starting, a crash's reason), never collapsed. */
  note(level: ConsoleLevel, text: string) {
    this.flushOmitted();
    this.add({ level, text });
  }

  private flushOmitted() {
    clearTimeout(this.omittedTimer);
    this.omittedTimer = undefined;
    if (this.omitted === 0) return;
    const count = this.omitted;
    this.omitted = 0;
    this.add({ level: 'warn', text: `${count} lines omitted`, omitted: count });
  }

  private add(line: Omit<ConsoleLine, 'seq' | 'at'>, at = this.clock()) {
    const numbered: ConsoleLine = { seq: ++this.lastSeq, at: new Date(at).toISOString(), ...line };
    this.lines.push(numbered);
    if (this.lines.length > this.keep) this.lines.splice(0, this.lines.length - this.keep);
    if (this.pending.length === 0) setImmediate(() => this.flush());
    this.pending.push(JSON.stringify(numbered));
    for (const listener of this.listeners) listener(numbered);
  }

  /** Writes the pending lines; once the file holds twice what is kept, rewrites it to the kept. */
  flush() {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      if (this.linesInFile + batch.length > 2 * this.keep) {
        const temp = `${this.file}.tmp`;
        fs.writeFileSync(temp, this.lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
        fs.renameSync(temp, this.file);
        this.linesInFile = this.lines.length;
      } else {
        fs.appendFileSync(this.file, batch.map((l) => `${l}\n`).join(''));
        this.linesInFile += batch.length;
      }
    } catch {
      // A folder removed under a stopping game: the lines stay in memory only.
    }
  }
}

// eslint-disable-next-line no-control-regex
const ansi = /\u001b\[[0-9;]*m/g;
/** Escapes that move the cursor (flying-squid's readline puts one before each line), and its `> ` prompt. */
// eslint-disable-next-line no-control-regex
const cursorMoves = /\u001b\[[0-9;]*[A-HJKSTf]/g;
const prompt = /^(?:> )+/;
/** flying-squid's own time stamp ("November 25th 2026, 02:10:00 "): the line's `at` says it. */
const squidStamp = /^[A-Z][a-z]+ \d{1,2}(?:st|nd|rd|th) \d{4}, \d{2}:\d{2}:\d{2} /;

/**
 * A printed line's level, from the tags servers put in it (flying-squid's `[WARN]`, vanilla's
 * `[Server thread/ERROR]`); untagged lines on stderr are errors. The text loses flying-squid's
 * time stamp and keeps its colours (ANSI escapes), which the web renders.
 */
export function classify(raw: string, stream: 'stdout' | 'stderr'): { level: ConsoleLevel; text: string } {
  const text = raw.replace(cursorMoves, '').replace(prompt, '').replace(squidStamp, '');
  const plain = text.replace(ansi, '');
  if (/[[/](?:WARN|WARNING)\]/.test(plain) || /^\(node:\d+\) \w*Warning/.test(plain)) return { level: 'warn', text };
  if (/[[/](?:ERROR|SEVERE|FATAL)\]/.test(plain)) return { level: 'error', text };
  if (/[[/]INFO\]/.test(plain)) return { level: 'info', text };
  return { level: stream === 'stderr' ? 'error' : 'info', text };
}
