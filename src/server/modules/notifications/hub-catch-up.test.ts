import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { StreamHub, type Delivery } from './hub.ts';

/** A response that records the ids of the notifications written to it. */
function fakeResponse() {
  const ids: string[] = [];
  const res = Object.assign(new EventEmitter(), {
    write(frame: string) {
      const id = /^id: (.+)$/m.exec(frame)?.[1];
      if (id) ids.push(id);
      return true;
    },
    end() {
      res.emit('close');
    },
  });
  return { res: res as unknown as ServerResponse, ids };
}

const delivery = (userId: string, seq: number): Delivery => ({ userId, id: `n${seq}`, seq, data: { title: 't', description: 'd', link: null, key: 'text', params: { title: 't', description: 'd' } } });

describe('StreamHub.catchUp', () => {
  it('writes the backlog in order before live deliveries that arrived while it was read', async () => {
    const hub = new StreamHub();
    const a = fakeResponse();
    const b = fakeResponse();
    hub.open('user-a', a.res);
    hub.open('user-b', b.res);
    hub.deliver(delivery('user-a', 1));
    let asked: string[] = [];
    await hub.catchUp(async (userIds) => {
      asked = userIds;
      // Live while the backlog is read: seq 5 must not make the stream skip 3 and 4.
      hub.deliver(delivery('user-a', 5));
      return [delivery('user-a', 1), delivery('user-a', 3), delivery('user-b', 4), delivery('user-a', 4)];
    });
    expect(asked.sort()).toEqual(['user-a', 'user-b']);
    expect(a.ids).toEqual(['n1', 'n3', 'n4', 'n5']);
    expect(b.ids).toEqual(['n4']);
    // Live delivery is no longer held.
    hub.deliver(delivery('user-a', 6));
    expect(a.ids.at(-1)).toBe('n6');
    hub.closeAll();
  });

  it('hands its backlog to a stream still replaying after Last-Event-ID, and skips closed ones', async () => {
    const hub = new StreamHub();
    const replaying = fakeResponse();
    const closing = fakeResponse();
    const stream = hub.open('user-a', replaying.res, true);
    hub.open('user-b', closing.res);
    await hub.catchUp(async () => {
      hub.deliver(delivery('user-a', 9));
      closing.res.end();
      return [delivery('user-a', 8), delivery('user-b', 7)];
    });
    expect(replaying.ids).toEqual([]);
    expect(closing.ids).toEqual([]);
    hub.replayed(stream, [delivery('user-a', 2)]);
    expect(replaying.ids).toEqual(['n2', 'n8', 'n9']);
    hub.closeAll();
  });

  it('releases held deliveries when reading the backlog fails', async () => {
    const hub = new StreamHub();
    const a = fakeResponse();
    hub.open('user-a', a.res);
    await expect(
      hub.catchUp(async () => {
        hub.deliver(delivery('user-a', 2));
        throw new Error('database down');
      }),
    ).rejects.toThrow('database down');
    expect(a.ids).toEqual(['n2']);
    hub.closeAll();
  });
});
