import type { LiveEvent } from '@refinedev/core';
import { describe, expect, it } from 'vitest';
import type { ResourceChange } from '../../contract/live.ts';
import { liveProvider, type ChangeSource } from './liveProvider.ts';

/** The stream's changes as the notifications provider hands them out. */
function stream() {
  const listeners = new Set<(change: ResourceChange) => void>();
  const source: ChangeSource = (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return { source, send: (change: ResourceChange) => listeners.forEach((l) => l(change)), count: () => listeners.size };
}

describe('the live provider', () => {
  it("calls a list's subscription for its resource's changes, a record's for its own record or a change naming none", () => {
    const s = stream();
    const live = liveProvider(s.source);
    const list: LiveEvent[] = [];
    const one: LiveEvent[] = [];
    live.subscribe({ channel: 'resources/games', types: ['*'], params: { subscriptionType: 'useList' }, callback: (e: LiveEvent) => list.push(e) });
    const sub = live.subscribe({ channel: 'resources/games', types: ['*'], params: { ids: ['g1'], id: 'g1', subscriptionType: 'useOne' }, callback: (e: LiveEvent) => one.push(e) });
    s.send({ resource: 'games', ids: ['g2'], type: 'updated' });
    s.send({ resource: 'friends', ids: [], type: 'created' });
    s.send({ resource: 'games', ids: ['g1'], type: 'updated' });
    s.send({ resource: 'games', ids: [], type: 'deleted' });
    expect(list.map((e) => [e.channel, e.type, e.payload.ids])).toEqual([
      ['resources/games', 'updated', ['g2']],
      ['resources/games', 'updated', ['g1']],
      ['resources/games', 'deleted', []],
    ]);
    expect(one.map((e) => e.payload.ids)).toEqual([['g1'], []]);

    live.unsubscribe(sub);
    s.send({ resource: 'games', ids: ['g1'], type: 'updated' });
    expect(one).toHaveLength(2);
    expect(s.count()).toBe(1);
  });

  it('keeps to the event types asked for', () => {
    const s = stream();
    const seen: string[] = [];
    liveProvider(s.source).subscribe({ channel: 'resources/friendRequests', types: ['created'], params: {}, callback: (e: LiveEvent) => seen.push(e.type) });
    s.send({ resource: 'friendRequests', ids: ['r1'], type: 'deleted' });
    s.send({ resource: 'friendRequests', ids: ['r2'], type: 'created' });
    expect(seen).toEqual(['created']);
  });
});
