import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile } from './load.ts';
import { startServer, type BenchServer } from './server.ts';

export interface ImportFigures {
  runs: number;
  p50Ms: number;
  p99Ms: number;
  minMs: number;
  /** The same 200 names again: every one answered as already there. */
  repeatP50Ms: number;
}

/**
 * Importing 200 Minecraft names into a friend group through the API, timed from request to
 * response: a fresh group each run, so every name is really inserted, after a few warm-up runs.
 */
export async function importBench(server: BenchServer, runs = 20, warmup = 3): Promise<ImportFigures> {
  const headers = { authorization: `Bearer ${server.token('bench_social')}`, 'content-type': 'application/json' };
  const call = async (method: string, url: string, body: unknown) => {
    const res = await fetch(`${server.origin}${url}`, { method, headers, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<{ id: string; added: number }>;
  };
  const times: number[] = [];
  const repeats: number[] = [];
  for (let run = 0; run < warmup + runs; run++) {
    const group = await call('POST', '/v1/friend/group', { name: `Import ${run}` });
    const mcNames = Array.from({ length: 200 }, (_, i) => `P${run}_${i}`);
    let started = performance.now();
    const report = await call('POST', `/v1/friend/group/${group.id}/member/import`, { mcNames });
    const ms = performance.now() - started;
    if (report.added !== 200) throw new Error(`run ${run} added ${report.added} of 200`);
    started = performance.now();
    await call('POST', `/v1/friend/group/${group.id}/member/import`, { mcNames });
    const repeatMs = performance.now() - started;
    if (run >= warmup) {
      times.push(ms);
      repeats.push(repeatMs);
    }
  }
  times.sort((a, b) => a - b);
  repeats.sort((a, b) => a - b);
  return { runs, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), minMs: times[0]!, repeatP50Ms: percentile(repeats, 50) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = await startServer();
  try {
    console.log(`bench social: server ${server.origin} (database ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`);
    const f = await importBench(server);
    console.log(`import 200 names into a friend group (${f.runs} runs): p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms, min ${f.minMs.toFixed(1)} ms`);
    console.log(`  same 200 names again (all already there): p50 ${f.repeatP50Ms.toFixed(1)} ms`);
  } finally {
    await server.stop();
  }
}
