import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rankedModes, tournamentEntrants, tournaments } from '../../db/schema/competitions.ts';
import { Bracket } from './brackets.ts';

/**
 * The players of the seeded past tournament, best seed first: accounts of the platform's own
 * (subject `blockhost:seed|<name>`, which no identity provider issues), so nobody signs in as them.
 * The first won it: the name /ranked and its page show as the winner.
 */
export const SEED_PLAYERS = ['Notch_Fan_88', 'RedstoneRita', 'CreeperKing', 'PixelPierre'] as const;

const day = (iso: string) => new Date(iso);

/** The competitions a fresh install shows (formerly pages of content/*\/ranked), by slug. */
const SEED_TOURNAMENTS = [
  {
    slug: 'skywars-automne-2026',
    name: { fr: 'SkyWars d’automne 2026', en: 'Autumn SkyWars 2026' },
    rules: {
      fr: 'Duels 1.8.8 en élimination directe : le premier à 3 éliminations passe au tour suivant, 10 minutes par match. Bravo à Notch_Fan_88 pour sa victoire en finale !',
      en: 'Duel 1.8.8 single elimination: the first to 3 kills goes through, 10 minutes per match. Well done Notch_Fan_88, winner of the final!',
    },
    format: 'SINGLE_ELIMINATION' as const,
    maxEntrants: 4,
    registrationOpensAt: day('2026-09-15T08:00:00Z'),
    registrationClosesAt: day('2026-10-15T22:00:00Z'),
    checkInOpensAt: day('2026-10-17T16:00:00Z'),
    checkInClosesAt: day('2026-10-17T16:45:00Z'),
    startsAt: day('2026-10-17T17:00:00Z'),
    entryFee: 0,
    prizeFirst: 0,
    past: true,
  },
  {
    slug: 'coupe-hiver-2026',
    name: { fr: 'Coupe d’hiver 2026', en: 'Winter Cup 2026' },
    rules: {
      fr: 'Le grand tournoi de fin d’année, en duels 1.8.8 et en élimination directe : le premier à 3 éliminations l’emporte, 10 minutes par match. Inscriptions ouvertes jusqu’au 10 décembre, check-in le 12 décembre de 17 h à 17 h 45 (UTC). 5 000 crédits pour le vainqueur.',
      en: 'The big end-of-year tournament, Duel 1.8.8 single elimination: the first to 3 kills wins, 10 minutes per match. Registration open until 10 December, check-in on 12 December from 17:00 to 17:45 (UTC). 5,000 credits for the winner.',
    },
    format: 'SINGLE_ELIMINATION' as const,
    maxEntrants: 32,
    registrationOpensAt: day('2026-11-01T08:00:00Z'),
    registrationClosesAt: day('2026-12-10T23:00:00Z'),
    checkInOpensAt: day('2026-12-12T17:00:00Z'),
    checkInClosesAt: day('2026-12-12T17:45:00Z'),
    startsAt: day('2026-12-12T18:00:00Z'),
    entryFee: 0,
    prizeFirst: 5000,
    past: false,
  },
  {
    slug: 'build-battle-printemps-2027',
    name: { fr: 'Tournoi de printemps 2027', en: 'Spring Tournament 2027' },
    rules: {
      fr: 'Tout le monde affronte tout le monde (toutes rondes) en duels 1.8.8 : 3 points la victoire, 1 le match nul. 2 000 crédits pour le premier.',
      en: 'Everyone meets everyone (round robin) in Duel 1.8.8: 3 points a win, 1 a draw. 2,000 credits for the first.',
    },
    format: 'ROUND_ROBIN' as const,
    maxEntrants: 8,
    registrationOpensAt: day('2026-11-01T08:00:00Z'),
    registrationClosesAt: day('2027-03-18T23:00:00Z'),
    checkInOpensAt: day('2027-03-20T14:00:00Z'),
    checkInClosesAt: day('2027-03-20T14:45:00Z'),
    startsAt: day('2027-03-20T15:00:00Z'),
    entryFee: 0,
    prizeFirst: 2000,
    past: false,
  },
];

/**
 * Makes the seed's tournaments that do not exist, in the mode `modeSlug`: the past one played
 * through its bracket (the best seed winning each match), the others open for registration.
 * `players` are the seed players' user ids, in SEED_PLAYERS' order. Answers how many it made.
 */
export async function seedTournaments(db: Db, modeSlug: string, players: string[]): Promise<number> {
  const [mode] = await db.select({ id: rankedModes.id }).from(rankedModes).where(eq(rankedModes.slug, modeSlug));
  if (!mode) return 0;
  let made = 0;
  for (const { past, ...seed } of SEED_TOURNAMENTS) {
    const done = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(tournaments)
        .values({ ...seed, modeId: mode.id, createdAt: seed.registrationOpensAt, updatedAt: seed.registrationOpensAt })
        .onConflictDoNothing()
        .returning();
      if (!row || !past || players.length < 2) return Boolean(row);
      const bracket = await Bracket.create(row.format, players, { thirdPlace: false });
      for (let match = await bracket.playable(); match.length > 0; match = await bracket.playable()) {
        const m = match[0]!;
        await bracket.result(m.id, { winner: Math.min(m.sides[0].participant!, m.sides[1].participant!), scores: { [m.sides[0].participant!]: 3, [m.sides[1].participant!]: 1 } });
      }
      const participants = await bracket.participants();
      const places = new Map((await bracket.standings()).map((s) => [s.participant, s.rank]));
      for (const [i, userId] of players.entries()) {
        const participantId = participants.get(userId)!;
        await tx.insert(tournamentEntrants).values({
          tournamentId: row.id,
          userId,
          status: 'CHECKED_IN',
          mcName: SEED_PLAYERS[i]!,
          seed: i + 1,
          participantId,
          placement: places.get(participantId) ?? null,
          registeredAt: seed.registrationOpensAt,
          checkedInAt: seed.checkInOpensAt,
        });
      }
      await tx
        .update(tournaments)
        .set({ status: 'FINISHED', bracket: await bracket.save(), winnerId: players[0]!, startedAt: seed.startsAt, endedAt: new Date(seed.startsAt.getTime() + 3600_000) })
        .where(eq(tournaments.id, row.id));
      return true;
    });
    if (done) made++;
  }
  return made;
}
