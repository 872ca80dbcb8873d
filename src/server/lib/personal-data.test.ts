import { describe, expect, it } from 'vitest';
import { PersonalData } from './personal-data.ts';

describe('personal data', () => {
  it('names the sections no erasure answers for, and runs the erasures in order, stopping at a failure', async () => {
    const data = new PersonalData();
    const ran: string[] = [];
    data.register('profile', async () => ({}));
    data.register('friends', async () => []);
    expect(data.unerased()).toEqual(['profile', 'friends']);
    data.erasure('profile', async (id) => void ran.push(`profile ${id}`));
    data.erasure('friends', { none: 'test' });
    data.erasure('exports', async (id) => void ran.push(`exports ${id}`));
    expect(data.unerased()).toEqual([]);
    expect(() => data.erasure('friends', { none: 'again' })).toThrow(/registered twice/);
    await data.erase('u1');
    expect(ran).toEqual(['profile u1', 'exports u1']);
    await expect(
      data.erase('u2', (name) => {
        if (name === 'exports') throw new Error('killed');
      }),
    ).rejects.toThrow('killed');
    expect(ran).toEqual(['profile u1', 'exports u1', 'profile u2']);
  });
});
