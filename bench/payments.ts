import fs from 'node:fs';
import Stripe from 'stripe';
import { percentile } from './load.ts';
import { startServer } from './server.ts';
import { startFakeStripe } from '../tests/fixtures/stripe.ts';

/**
 * Stripe webhook events applied: the real server with the stripe provider pointed at the local fake
 * Stripe API (loopback), credit packs bought through the API, then each pack's
 * payment_intent.succeeded signed with the SDK's helper and posted. Each event is one transaction:
 * the event row, the payment, the ledger, the invoice and the notification.
 * - Throughput: `count` events posted by `concurrency` clients at once, as fast as they are answered.
 * - Latency: `count` other events arriving at a steady `rate` per second, as Stripe sends them, each
 *   timed from the instant it was due to be sent (a late send counts against the server, not lost).
 *   Closed-loop clients would measure their own queue instead: 20 at once at 270/s wait 74 ms on
 *   average whatever the server's speed.
 * Then a replay of the first `count`, which must change nothing.
 */
export interface WebhookFigures {
  events: number;
  perSecond: number;
  /** Latency at `rate` events per second. */
  rate: number;
  p50Ms: number;
  p99Ms: number;
  replayPerSecond: number;
  /** The server's CPU time (user + system) per event applied: what throughput is bounded by, whatever else runs on the machine. */
  serverCpuMsPerEvent: number;
  /** The same for a replay: the request, its signature and finding the event recorded, the floor under an applied one. */
  replayCpuMsPerEvent: number;
  errors: number;
  creditedOnce: boolean;
}

const WEBHOOK_SECRET = 'whsec_bench_blockhost';

/** A process's CPU time so far (user + system), from /proc. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, the 14th and 15th fields, in clock ticks (100 per second on Linux).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

export async function webhookBench(count = 1000, concurrency = 20, rate = 200): Promise<WebhookFigures> {
  const stripe = await startFakeStripe();
  const server = await startServer({ STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY: 'pk_test_bench', STRIPE_API_URL: stripe.url });
  const signer = new Stripe('sk_test_signer');
  try {
    const pack = await server.call('staff_bench', 'POST', '/v1/pricing', { credits: 100, priceCents: 199, currency: 'EUR' }, ['staff']);
    const buyers = Array.from({ length: 20 }, (_, i) => `webhook_buyer_${i}`);
    const intents: string[] = [];
    for (let i = 0; i < 2 * count; i += concurrency) {
      await Promise.all(
        Array.from({ length: Math.min(concurrency, 2 * count - i) }, async (_, j) => {
          await server.call(buyers[(i + j) % buyers.length]!, 'POST', '/v1/payment/stripe', { pricingId: pack.id });
        }),
      );
    }
    for (const intent of stripe.paymentIntents.values()) intents.push(intent.id);
    const all = intents.map((id) => JSON.stringify(stripe.succeedPaymentIntent(id)));
    const bodies = all.slice(0, count);
    const paced = all.slice(count);

    let errors = 0;
    const post = async (payload: string) => {
      const started = performance.now();
      const res = await fetch(`${server.origin}/v1/payment/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
        body: payload,
      });
      await res.arrayBuffer();
      if (res.status !== 200) errors++;
      return performance.now() - started;
    };
    const run = async (list: string[]) => {
      const latencies: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < list.length) latencies.push(await post(list[next++]!));
        }),
      );
      return { seconds: (performance.now() - started) / 1000, latencies: latencies.sort((a, b) => a - b) };
    };
    /** Event i is due at start + i / rate; its latency runs from then to its answer. */
    const steady = async (list: string[]) => {
      const latencies: number[] = [];
      const start = performance.now() + 50;
      await Promise.all(
        list.map(async (payload, i) => {
          const due = start + (i * 1000) / rate;
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
          const sent = performance.now();
          latencies.push((await post(payload)) + (sent - due));
        }),
      );
      return latencies.sort((a, b) => a - b);
    };
    const cpuBefore = cpuMs(server.pid);
    const first = await run(bodies);
    const cpuUsed = cpuMs(server.pid) - cpuBefore;
    const atRate = await steady(paced);
    const replayBefore = cpuMs(server.pid);
    const replay = await run(bodies);
    const replayCpu = cpuMs(server.pid) - replayBefore;
    const balances = await Promise.all(buyers.map((b) => server.call<{ balance: number }>(b, 'GET', '/v1/user')));
    const credited = balances.reduce((sum, b) => sum + b.balance, 0);
    const applied = bodies.length + paced.length;
    return {
      events: bodies.length,
      perSecond: bodies.length / first.seconds,
      rate,
      p50Ms: percentile(atRate, 50),
      p99Ms: percentile(atRate, 99),
      replayPerSecond: bodies.length / replay.seconds,
      serverCpuMsPerEvent: cpuUsed / bodies.length,
      replayCpuMsPerEvent: replayCpu / bodies.length,
      errors,
      creditedOnce: credited === applied * 100,
    };
  } finally {
    await server.stop();
    await stripe.close();
  }
}
