import http from 'node:http';

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Closed-loop load: `concurrency` keep-alive connections each send the next request as soon as one ends. */
export async function load(url: string, headers: Record<string, string>, { concurrency = 50, warmupMs = 1000, durationMs = 5000 } = {}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(String(res.statusCode)))));
      });
      req.on('error', reject);
      req.end();
    });
  const latencies: number[] = [];
  let errors = 0;
  let measuring = false;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      try {
        const ms = await once();
        if (measuring) latencies.push(ms);
      } catch {
        if (measuring) errors++;
      }
    }
  };
  const workers = Array.from({ length: concurrency }, worker);
  await new Promise((r) => setTimeout(r, warmupMs));
  measuring = true;
  const started = performance.now();
  await new Promise((r) => setTimeout(r, durationMs));
  measuring = false;
  const seconds = (performance.now() - started) / 1000;
  stop = true;
  await Promise.all(workers);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, seconds, rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
}
