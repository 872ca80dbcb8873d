import path from 'node:path';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { BlocklistService } from './modules/blocklist/service.ts';
import { ContentService } from './modules/content/service.ts';
import { CreditsService } from './modules/money/credits/service.ts';
import { FriendGroupsService } from './modules/friend-groups/service.ts';
import { FriendsService } from './modules/friends/service.ts';
import { MinecraftService } from './modules/minecraft/service.ts';
import { MojangResolver, OfflineResolver } from './modules/minecraft/resolver.ts';
import { NotificationsService } from './modules/notifications/service.ts';
import { UsersService } from './modules/users/service.ts';
import { CatalogueService } from './modules/catalogue/service.ts';
import { DefinitionImages } from './modules/catalogue/images.ts';
import { GamesService } from './modules/games/service.ts';
import { GamePlayersService } from './modules/games/players.ts';
import { Reconciler } from './modules/games/reconciler.ts';
import { Wakes } from './modules/games/wakes.ts';
import { RenewalsService } from './modules/money/renewals/service.ts';
import { FirstPeriod } from './modules/money/renewals/first-period.ts';
import { StaffGamesService } from './modules/games/staff.ts';
import { GameSettingsService } from './modules/settings/service.ts';
import type { GameRuntime } from './modules/games/runtime.ts';
import { ReviewsService } from './modules/reviews/service.ts';
import { PromoCodesService } from './modules/money/promocodes/service.ts';
import { CreditPacksService } from './modules/money/credit-packs/service.ts';
import { SubscriptionsService } from './modules/money/subscriptions/service.ts';
import { SubscriptionLifecycle } from './modules/money/subscriptions/lifecycle.ts';
import { InvoicesService } from './modules/money/invoices/service.ts';
import { PaymentsService } from './modules/money/payments/service.ts';
import { PaymentEvents } from './modules/money/payments/events.ts';
import { AuditService } from './modules/audit/service.ts';
import { ActivityService } from './modules/activity/service.ts';
import { SharingService } from './modules/sharing/service.ts';
import { StaffService } from './modules/staff/service.ts';
import { createPaymentProvider } from './modules/money/providers/index.ts';
import { createRuntime, type Runtime } from '../runtime/index.ts';
import { BackupsService } from './modules/backups/service.ts';
import { BackupRounds } from './modules/backups/rounds.ts';
import { BackupWork } from './modules/backups/work.ts';
import { BackupLinks } from './modules/backups/links.ts';
import { WorldUploads } from './modules/backups/uploads.ts';
import { ConsoleService } from './modules/console/service.ts';
import { StaffBackupsService } from './modules/backups/staff.ts';
import { GameDeletion } from './modules/games/deletion.ts';
import { GameWorlds } from './modules/games/world.ts';
import { GameLock } from './modules/games/lock.ts';
import { AddressNames } from './modules/games/address-names.ts';
import { GameGateway, inApiSource } from './modules/games/gateway.ts';
import { createStore } from './storage/index.ts';
import { UsageService } from './modules/usage/service.ts';
import { SchedulesService } from './modules/schedules/service.ts';
import { ScheduleRunner } from './modules/schedules/runner.ts';
import { CompetitionsService } from './modules/competitions/service.ts';
import { MatchmakingRunner } from './modules/competitions/runner.ts';
import { MatchResults } from './modules/competitions/results.ts';
import { makeMatchServers } from './modules/competitions/match-servers.ts';
import { PlatformGames } from './modules/games/platform-games.ts';
import { MatchSupervision } from './modules/competitions/supervision.ts';
import { TournamentPlay } from './modules/competitions/tournament-play.ts';
import { TournamentsService } from './modules/competitions/tournaments.ts';
import { Registration } from './modules/competitions/registration.ts';
import { TournamentRounds } from './modules/competitions/tournament-rounds.ts';
import { TournamentStreams } from './modules/competitions/tournament-stream.ts';
import { EventBus } from './events.ts';
import { PersonalData } from './lib/personal-data.ts';
import { DataExportsService } from './modules/data-exports/service.ts';
import { DataExportRounds } from './modules/data-exports/rounds.ts';
import { AccountDeletion } from './modules/account-deletion/service.ts';
import { Mailer, type MailLog } from './lib/mailer.ts';
import type { GamePayment } from '../contract/renewals.ts';

/**
 * The composition root of the domain: every service, built once per app from the database. What a
 * module sets off in another goes through the event bus (events.ts): each module subscribes to what
 * it reacts to in its constructor, so nothing here wires one to another. Built in dependency order,
 * which is also the order each event's handlers run in.
 */
export interface Services {
  config: Config;
  database: Database;
  db: Db;
  users: UsersService;
  credits: CreditsService;
  notifications: NotificationsService;
  content: ContentService;
  minecraft: MinecraftService;
  blocklist: BlocklistService;
  friends: FriendsService;
  friendGroups: FriendGroupsService;
  catalogue: CatalogueService;
  games: GamesService;
  addressNames: AddressNames;
  /** The game gateway, when GAME_GATEWAY_PORT is set (with GAME_GATEWAY_PROCESS, only its names: a gateway process serves the port). */
  gameGateway: GameGateway | null;
  /** Sleeping games' wakes, asked by a gateway. */
  wakes: Wakes;
  gamePlayers: GamePlayersService;
  gameDeletion: GameDeletion;
  sharing: SharingService;
  activity: ActivityService;
  staffGames: StaffGamesService;
  gameSettings: GameSettingsService;
  reconciler: Reconciler;
  renewals: RenewalsService;
  backups: BackupsService;
  backupRounds: BackupRounds;
  staffBackups: StaffBackupsService;
  console: ConsoleService;
  usage: UsageService;
  schedules: SchedulesService;
  scheduleRunner: ScheduleRunner;
  reviews: ReviewsService;
  promoCodes: PromoCodesService;
  creditPacks: CreditPacksService;
  subscriptions: SubscriptionsService;
  subscriptionLifecycle: SubscriptionLifecycle;
  invoices: InvoicesService;
  payments: PaymentsService;
  paymentEvents: PaymentEvents;
  audit: AuditService;
  staff: StaffService;
  /** What each module holds about a person, registered by the modules as they load. */
  personalData: PersonalData;
  dataExports: DataExportsService;
  dataExportRounds: DataExportRounds;
  accountDeletion: AccountDeletion;
  competitions: CompetitionsService;
  matchmaking: MatchmakingRunner;
  matchResults: MatchResults;
  matchSupervision: MatchSupervision;
  tournaments: TournamentsService;
  registration: Registration;
  tournamentRounds: TournamentRounds;
  tournamentStreams: TournamentStreams;
  runtime: GameRuntime;
  events: EventBus;
  mailer: Mailer;
}

const quiet = { info() {}, warn() {}, error() {} };

export function createServices(config: Config, database: Database, given: { runtime?: Runtime; log?: GameRuntime['log'] & MailLog } & Partial<Pick<GameRuntime, 'clock'>> = {}): Services {
  const db = database.db;
  const game: GameRuntime = { ...(given.runtime ?? createRuntime(config.game)), clock: given.clock ?? (() => new Date()), log: given.log ?? quiet };
  const events = new EventBus();
  const users = new UsersService(database);
  const credits = new CreditsService(database);
  // A question a module asks one built after it (below: sharing, games, payments) is a closure,
  // first called once everything is built. A game's changes reach the people it is shared with.
  const notifications = new NotificationsService(database, users, config.streams, { games: (ids, executor): Promise<string[]> => sharing.audience(ids, executor) });
  const { apiUrl, sessionUrl } = config.minecraft;
  const minecraft = new MinecraftService(db, apiUrl ? new MojangResolver(apiUrl, sessionUrl) : new OfflineResolver(), users);
  const blocklist = new BlocklistService(db, users, minecraft, events);
  const friends = new FriendsService(db, minecraft, blocklist, notifications, events);
  const friendGroups = new FriendGroupsService(db, friends, blocklist, minecraft, notifications, events);
  const audit = new AuditService(db, users, (ids): Promise<Array<{ id: string; name: string }>> => games.summaries(ids));
  const catalogue = new CatalogueService(db, { audit, database, images: new DefinitionImages(createStore(config.mediaStore)) });
  const promoCodes = new PromoCodesService(db, { audit, users, clock: game.clock });
  const creditPacks = new CreditPacksService(db, audit, database, (packId): Promise<boolean> => payments.hasPaymentsForPack(packId));
  const subscriptions = new SubscriptionsService(db, audit);
  const invoices = new InvoicesService(db, config.invoices);
  const paymentProvider = createPaymentProvider(config.stripe);
  const paymentEvents = new PaymentEvents(db, { provider: paymentProvider, users, promoCodes, subscriptions, invoices, credits, notifications, clock: game.clock, log: game.log });
  const payments = new PaymentsService(db, { provider: paymentProvider, users, creditPacks, promoCodes, subscriptions, audit, events: paymentEvents, clock: game.clock });
  const games = new GamesService(db, {
    catalogue,
    credits,
    friends,
    notifications,
    firstPeriod: new FirstPeriod({ credits, promoCodes }),
    runtime: game,
    events,
    pendingRenewals: (rows): Promise<Map<string, GamePayment>> => renewals.pending(rows),
  });
  const addressNames = new AddressNames(db, { notifications, audit, clock: game.clock });
  const wakes = new Wakes(db, { runtime: game, notifications, events });
  const gameGateway =
    config.gateway.port === null ? null : new GameGateway(database, inApiSource(game, wakes), game.log, { ...config.gateway, port: config.gateway.port, open: !config.gateway.process });
  const reconciler = new Reconciler(db, game, notifications, events, { startTimeoutMs: config.games.startTimeoutMs, intervalMs: config.games.reconcileIntervalMs });
  const sharing = new SharingService(db, { database, games, friends, friendGroups, minecraft, notifications, audit, events, log: game.log });
  const backupStore = createStore(config.backupStore);
  const worlds = new GameWorlds(database, { runtime: game, games, notifications, events });
  const lock = new GameLock(db, events, { clock: game.clock, lockMs: config.games.lockMs });
  const backupWork = new BackupWork(db, {
    store: backupStore,
    driver: game.driver,
    worlds,
    catalogue,
    notifications,
    lock,
    audience: (gameId) => sharing.audience([gameId]),
    clock: game.clock,
    log: game.log,
  });
  const uploads = new WorldUploads({ store: backupStore, worlds, catalogue, lock, work: backupWork }, { uploadDir: path.join(config.dataDir, 'uploads'), clock: game.clock });
  const backups = new BackupsService(
    db,
    {
      worlds,
      catalogue,
      users,
      lock,
      work: backupWork,
      links: new BackupLinks(db, { store: backupStore, worlds, events }, { publicUrl: config.publicUrl, clock: game.clock }),
      uploads,
      events,
    },
    { clock: game.clock },
  );
  const backupRounds = new BackupRounds(
    db,
    { store: backupStore, worlds, lock, work: backupWork, uploads, events },
    { clock: game.clock, log: game.log, retentionDays: config.renewals.retentionDays },
  );
  const usage = new UsageService(db, { games, backups, driver: game.driver, events }, { clock: game.clock, log: game.log, sampleIntervalMs: config.games.usageSampleMs });
  const gamePlayers = new GamePlayersService(db, { games, notifications, runtime: game });
  const consoles = new ConsoleService(db, { games, players: gamePlayers, audit, consoles: game.consoles, clock: game.clock, events }, config.streams);
  const scheduleRunner = new ScheduleRunner(
    db,
    { games, backups, notifications, users, console: consoles, levelOf: (userId, id) => sharing.levelOf(userId, id) },
    { clock: game.clock, log: game.log },
  );
  const schedules = new SchedulesService(db, { audit, runner: scheduleRunner, events }, { clock: game.clock });
  const personalData = new PersonalData();
  const mailer = new Mailer({ ...config.mail, log: given.log ?? quiet });
  const dataExportRounds = new DataExportRounds(db, { store: backupStore, personalData, users, notifications, mailer }, { clock: game.clock, publicUrl: config.publicUrl, log: game.log });
  const renewals = new RenewalsService(database, { catalogue, credits, notifications, games, runtime: game, backups, audit, events }, config.renewals);
  const platformGames = new PlatformGames(db, { catalogue, users, runtime: game, events });
  makeMatchServers(events, platformGames);
  const matchResults = new MatchResults(db, { minecraft, notifications, events }, { clock: game.clock });
  const playDeps = { credits, notifications, events, users, clock: game.clock };
  const tournamentPlay = new TournamentPlay(playDeps);
  return {
    config,
    database,
    db,
    users,
    credits,
    notifications,
    content: new ContentService(config.contentDir, { name: config.invoices.sellerName, address: config.invoices.sellerAddress, vatId: config.invoices.sellerVatId }),
    minecraft,
    blocklist,
    friends,
    friendGroups,
    catalogue,
    games,
    addressNames,
    gameGateway,
    wakes,
    gamePlayers,
    gameDeletion: new GameDeletion(db, { notifications, audit, events, runtime: game }),
    sharing,
    activity: new ActivityService(audit),
    staffGames: new StaffGamesService(db, { games, catalogue, users, notifications, audit, runtime: game }),
    gameSettings: new GameSettingsService(db, { runtime: game, games, catalogue, notifications, backUpBefore: (gameId) => backups.backUpBefore(gameId) }),
    reconciler,
    renewals,
    backups,
    backupRounds,
    staffBackups: new StaffBackupsService(db, { backups, audit }),
    console: consoles,
    usage,
    schedules,
    scheduleRunner,
    reviews: new ReviewsService(db, { catalogue, games, users, audit }),
    promoCodes,
    creditPacks,
    subscriptions,
    subscriptionLifecycle: new SubscriptionLifecycle(db, { subscriptions, provider: paymentProvider, payments, users }),
    invoices,
    payments,
    paymentEvents,
    audit,
    staff: new StaffService(db, { credits, audit, subscriptions, invoices }),
    personalData,
    dataExports: new DataExportsService(db, { store: backupStore, rounds: dataExportRounds }, { clock: game.clock }),
    dataExportRounds,
    accountDeletion: new AccountDeletion(db, { users, credits, personalData }, { leaseMs: config.accountDeletion.leaseMs, clock: game.clock, log: game.log }),
    competitions: new CompetitionsService(db, { users, minecraft, notifications }, { clock: game.clock }),
    matchmaking: new MatchmakingRunner(db, { blocklist, minecraft, notifications, events }, { clock: game.clock, log: game.log }),
    matchResults,
    matchSupervision: new MatchSupervision(db, { runtime: game, minecraft, notifications, results: matchResults, platformGames, namedAddress: (id) => gameGateway?.addressOf(id) ?? null }),
    tournaments: new TournamentsService(db, { ...playDeps, minecraft, audit, play: tournamentPlay }),
    registration: new Registration(db, { ...playDeps, minecraft }),
    tournamentRounds: new TournamentRounds(db, { ...playDeps, play: tournamentPlay, log: game.log }),
    tournamentStreams: new TournamentStreams(database),
    runtime: game,
    events,
    mailer,
  };
}
