import { count } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Database } from './client.ts';
import { identityAccounts } from './schema/identity.ts';
import { AccountsService } from '../identity/accounts.ts';
import { SEED_PLAYERS, seedTournaments } from '../modules/competitions/tournament-seed.ts';
import { createServices } from '../services.ts';
import type { PricingRequest } from '../../contract/credit-packs.ts';
import type { SubscriptionCreateRequest } from '../../contract/subscriptions.ts';
import type { GameDefCreate, GamePackageCreate } from '../../contract/catalogue.ts';

/** The accounts README.md names; change both together. */
export const SEED_ACCOUNTS = [
  { username: 'staff', email: 'staff@blockhost.local', password: 'Blocks-Admin-2026', roles: ['staff', 'support'], credits: 0 },
  { username: 'alice', email: 'alice@blockhost.local', password: 'Creeper-2026!', roles: [], credits: 500 },
  { username: 'bob', email: 'bob@blockhost.local', password: 'Diamond-2026!', roles: [], credits: 200 },
  { username: 'support', email: 'support@blockhost.local', password: 'Blocks-Helpdesk-2026', roles: ['support'], credits: 0 },
] as const;

/** The catalogue of a fresh install; its English names keep the seed idempotent. */
export const SEED_DEFINITIONS: { definition: GameDefCreate; packages: Omit<GamePackageCreate, 'definitionId'>[] }[] = [
  {
    definition: {
      name: { fr: 'Survie', en: 'Survival' },
      description: {
        fr: 'Le Minecraft de toujours : récoltez, construisez et survivez à vos nuits entre amis, en 1.21.4.',
        en: 'Minecraft as ever: gather, build and survive the nights with your friends, on 1.21.4.',
      },
      image: '/images/games/survival.svg',
      version: '1.21.4',
      settings: { gameMode: 'survival', difficulty: 'normal', motd: 'Un monde de survie BlockHost' },
      published: true,
    },
    packages: [
      {
        name: { fr: 'Petit', en: 'Small' },
        description: { fr: 'Pour débuter à quelques amis.', en: 'To start out with a few friends.' },
        ramMb: 1024,
        backupsKept: 3,
        maxPlayers: 5,
        periodDays: 30,
        priceCredits: 100,
      },
      {
        name: { fr: 'Moyen', en: 'Medium' },
        description: { fr: 'Pour une bande d’amis et un monde qui grandit.', en: 'For a group of friends and a growing world.' },
        ramMb: 2048,
        backupsKept: 7,
        maxPlayers: 10,
        periodDays: 30,
        priceCredits: 180,
      },
      {
        name: { fr: 'Grand', en: 'Large' },
        description: { fr: 'Pour une communauté et de grandes constructions.', en: 'For a community and large builds.' },
        ramMb: 4096,
        backupsKept: 14,
        maxPlayers: 20,
        periodDays: 30,
        priceCredits: 320,
      },
    ],
  },
  {
    definition: {
      name: { fr: 'Créatif', en: 'Creative' },
      description: {
        fr: 'Des blocs à l’infini et aucun monstre : bâtissez ce que vous voulez, en 1.20.4.',
        en: 'Endless blocks and no monsters: build whatever you like, on 1.20.4.',
      },
      image: '/images/games/creative.svg',
      version: '1.20.4',
      settings: { gameMode: 'creative', difficulty: 'peaceful', motd: 'Un monde créatif BlockHost' },
      published: true,
    },
    packages: [
      {
        name: { fr: 'Atelier', en: 'Workshop' },
        description: { fr: 'Pour bâtir à quelques-uns.', en: 'To build with a few friends.' },
        ramMb: 1024,
        backupsKept: 3,
        maxPlayers: 5,
        periodDays: 30,
        priceCredits: 80,
      },
      {
        name: { fr: 'Studio', en: 'Studio' },
        description: { fr: 'Pour les grands chantiers à plusieurs.', en: 'For large builds together.' },
        ramMb: 2048,
        backupsKept: 7,
        maxPlayers: 15,
        periodDays: 30,
        priceCredits: 150,
      },
    ],
  },
  {
    definition: {
      name: { fr: 'Mini-jeux classiques', en: 'Classic minigames' },
      description: {
        fr: 'Un serveur 1.8.8 pour vos mini-jeux et arènes, la version préférée du PvP.',
        en: 'A 1.8.8 server for your minigames and arenas, the favourite version for PvP.',
      },
      image: '/images/games/minigames.svg',
      version: '1.8.8',
      settings: { gameMode: 'adventure', difficulty: 'easy', motd: 'Mini-jeux BlockHost' },
      published: true,
    },
    packages: [
      {
        name: { fr: 'Arène', en: 'Arena' },
        description: { fr: 'Une semaine de parties entre amis.', en: 'A week of matches with friends.' },
        ramMb: 1024,
        backupsKept: 3,
        maxPlayers: 12,
        periodDays: 7,
        priceCredits: 30,
      },
      {
        name: { fr: 'Tournoi', en: 'Tournament' },
        description: { fr: 'Un mois de compétition, jusqu’à 32 joueurs.', en: 'A month of competition, up to 32 players.' },
        ramMb: 2048,
        backupsKept: 7,
        maxPlayers: 32,
        periodDays: 30,
        priceCredits: 200,
      },
    ],
  },
];

/** The credit packs and the plan on sale on a fresh install. */
export const SEED_PACKS: PricingRequest[] = [
  { credits: 500, priceCents: 499, currency: 'EUR', label: { fr: 'Découverte', en: 'Discovery' } },
  { credits: 1200, bonusCredits: 100, priceCents: 999, currency: 'EUR', label: { fr: 'Aventurier', en: 'Adventurer' } },
  { credits: 3000, bonusCredits: 500, priceCents: 1999, currency: 'EUR', label: { fr: 'Bâtisseur', en: 'Builder' } },
];
const SEED_PLANS: SubscriptionCreateRequest[] = [{ name: { fr: 'Abonnement mensuel', en: 'Monthly plan' }, priceCents: 799, currency: 'EUR', interval: 'MONTH', credits: 1000 }];

/** True when nothing has been seeded or signed up yet. */
export async function isEmpty(database: Database): Promise<boolean> {
  const [row] = await database.db.select({ n: count() }).from(identityAccounts);
  return (row?.n ?? 0) === 0;
}

/**
 * Seeds what a fresh install shows: the staff account, two players with starting credits and the
 * game catalogue. Idempotent: what exists is left alone. Answers what it made.
 */
export async function seed(config: Config, database: Database): Promise<string[]> {
  const done: string[] = [];
  const services = createServices(config, database);
  const accounts = new AccountsService(database.db);
  for (const a of SEED_ACCOUNTS) {
    const result = await accounts.signUp({ username: a.username, email: a.email, password: a.password, roles: [...a.roles] });
    if ('error' in result) {
      if (result.error === 'usernameTaken' || result.error === 'emailTaken') continue;
      throw new Error(`seed account ${a.username} refused: ${result.error}`);
    }
    // With the embedded issuer the platform user can be made now; with another issuer it is made at first sign-in.
    if (config.oidc.embedded && a.credits > 0) {
      const user = await services.users.resolve({ subject: `${config.oidc.issuer}|${result.account.id}`, name: a.username, email: a.email, roles: [...a.roles] });
      await services.credits.apply(database.db, { userId: user.id, amount: a.credits, kind: 'ADMIN_ADJUSTMENT', reason: { key: 'welcome', params: {} } });
    }
    done.push(a.username);
  }
  const existing = await services.catalogue.englishNames();
  for (const { definition, packages } of SEED_DEFINITIONS) {
    if (existing.has(definition.name.en)) continue;
    const created = await services.catalogue.createDefinition(definition);
    for (const p of packages) await services.catalogue.createPackage({ definitionId: created.id, ...p });
    done.push(definition.name.en);
  }
  // Each ranked mode's match servers start from the catalogue's first definition of its version.
  const byVersion = new Map<string, string>();
  for (const d of (await services.catalogue.list({ limit: 100, offset: 0, page: 0, size: 100 }, true)).data) if (!byVersion.has(d.version)) byVersion.set(d.version, d.id);
  if ((await services.competitions.seedModes(byVersion)) > 0) done.push('ranked modes');
  // The past tournament's players: the platform's own accounts, their Minecraft names linked.
  const seedPlayers: string[] = [];
  for (const name of SEED_PLAYERS) {
    const user = await services.users.resolve({ subject: `blockhost:seed|${name.toLowerCase()}`, name, email: null, roles: [] });
    if (!(await services.minecraft.players([user.id])).get(user.id)?.mcName) await services.minecraft.link(user.id, name);
    seedPlayers.push(user.id);
  }
  if ((await seedTournaments(database.db, 'duel-1-8-8', seedPlayers)) > 0) done.push('tournaments');
  if ((await services.creditPacks.list({ limit: 1, offset: 0, page: 0, size: 1 }, true)).totalElements === 0) {
    for (const p of SEED_PACKS) await services.creditPacks.create(null, p);
    done.push('credit packs');
  }
  if ((await services.subscriptions.listPlans({ limit: 1, offset: 0, page: 0, size: 1 }, true)).totalElements === 0) {
    for (const p of SEED_PLANS) await services.subscriptions.createPlan(null, p);
    done.push('subscription plans');
  }
  return done;
}
