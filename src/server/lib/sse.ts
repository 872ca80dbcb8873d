import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/** One server-sent event, its data as JSON. */
export function sseFrame(event: string, data: unknown, id?: string): string {
  return `${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Takes the reply over for an event stream: its headers, and a first comment so the client knows
 * it is open. The caller writes frames to the answer and ends it.
 */
export function openEventStream(reply: FastifyReply): ServerResponse {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    // The socket is this stream's alone: when the stream ends, so does the connection.
    connection: 'close',
    'x-accel-buffering': 'no',
  });
  res.write(': connected\n\n');
  return res;
}
