import type { ServerResponse } from 'node:http';
import type { Database } from '../../db/client.ts';
import { sseFrame } from '../../lib/sse.ts';
import { StreamSlots } from '../../lib/stream-slots.ts';
import { HEARTBEAT_EVENT } from '../../../contract/notifications.ts';
import { TOURNAMENT_CHANGE_EVENT, type TournamentChange } from '../../../contract/tournaments.ts';
import { TOURNAMENT_CHANNEL } from './tournament-play.ts';

const HEARTBEAT_MS = 15_000;

/**
 * The open pages of tournaments, by tournament (`GET /v1/tournaments/{slug}/stream`, public): each
 * commit that changes a tournament sends its id on `tournament_changes` (`pg_notify` in its
 * transaction, so to every replica, never for a rolled-back change), and each replica writes a
 * `tournament-change` event to the streams of that tournament, which then read it again.
 */
export class TournamentStreams {
  private readonly slots = new StreamSlots({ perUser: 100_000, perAddress: 20 }, sseFrame(HEARTBEAT_EVENT, {}), HEARTBEAT_MS);
  private readonly database: Database;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(database: Database) {
    this.database = database;
  }

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(TOURNAMENT_CHANNEL, (id) => this.publish(id), {
      // What was sent while the connection was down is lost: every page reads again.
      onReconnect: () => {
        for (const id of [...this.slots.users()]) this.publish(id);
      },
    });
  }

  async stop(): Promise<void> {
    this.slots.closeAll();
    await this.unlisten?.();
  }

  admits(address: string): boolean {
    return this.slots.admits(address);
  }

  open(tournamentId: string, res: ServerResponse, address: string): void {
    this.slots.add(tournamentId, { res, address });
  }

  private publish(id: string): void {
    const change: TournamentChange = { id };
    const frame = sseFrame(TOURNAMENT_CHANGE_EVENT, change);
    for (const stream of this.slots.of(id)) stream.res.write(frame);
  }
}
