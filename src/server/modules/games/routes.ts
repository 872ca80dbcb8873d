import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, Page, PageQuery } from '../../../contract/common.ts';
import { LedgerEntry } from '../../../contract/credits.ts';
import {
  AnnounceResult,
  ConnectedPlayers,
  Game,
  GameListQuery,
  GameDelete,
  GameStatusView,
  InternalHeaders,
  InternalWake,
  InternalWakeResult,
  PlayerList,
  PlayerListQuery,
  RconAnswer,
  WhitelistQuery,
  WhitelistStatus,
  gameCreate,
  playerGroupIdPatchRequest,
  playerPatchRequest,
  playerRequest,
} from '../../../contract/games.ts';
import { checkInternalToken } from '../../lib/internal-token.ts';
import { named } from '../../lib/schema.ts';
import { pageWindow } from '../../lib/paging.ts';
import { signedIn } from '../../plugins/auth.ts';
import { gameOf } from '../sharing/guard.ts';
import type { Services } from '../../services.ts';
import type { GameAction } from './service.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const games = services.games;
  const players = services.gamePlayers;
  const tags = ['games'];

  app.delete(
    '/v1/internal/game/stop/:id',
    {
      schema: {
        tags: ['internal'],
        summary: 'Stop a game (X-Internal-Token; off unless INTERNAL_TOKEN is set)',
        security: [{ internalToken: [] }],
        params: IdParams,
        headers: InternalHeaders,
        response: { 204: Type.Null() },
        problems: [403],
      },
    },
    async (request, reply) => {
      checkInternalToken(request, services.config.internalToken, request.headers['x-internal-token']);
      await games.stopInternal(request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/v1/internal/game/wake/:id',
    {
      schema: {
        tags: ['internal'],
        summary: "A game gateway process asks for a sleeping game's wake, for a login (X-Internal-Token; off unless INTERNAL_TOKEN is set); it then waits for RUNNING itself",
        security: [{ internalToken: [] }],
        params: IdParams,
        headers: InternalHeaders,
        body: InternalWake,
        response: { 200: InternalWakeResult },
        problems: [403],
      },
    },
    async (request) => {
      checkInternalToken(request, services.config.internalToken, request.headers['x-internal-token']);
      return { result: await services.wakes.ask(request.params.id, request.body.address, request.body.first) };
    },
  );

  await signedIn(app, null, (player) => {
    player.post(
      '/v1/game/create',
      {
        schema: {
          problems: [402, 404, 409],
          tags,
          summary: 'Buy a game: the first period is charged from the balance (402 when short); its address name is checked first (400, 409 taken) or made up',
          body: named(gameCreate),
          response: { 201: Game },
        },
      },
      async (request, reply) => {
        const addressName = await services.addressNames.forPurchase(request.user.name, request.body.name, request.body.addressName);
        return reply.status(201).send(await games.create(request.user.id, { ...request.body, addressName }));
      },
    );

    player.get(
      '/v1/game',
      { schema: { tags, summary: "The caller's games, newest first; status and ignoredStatus may be repeated or comma lists", querystring: GameListQuery, response: { 200: Page(Game) } } },
      async (request) => {
        const { status, ignoredStatus, ...paging } = request.query;
        return games.list(request.user.id, { status, ignoredStatus }, pageWindow(paging));
      },
    );

    player.get(
      '/v1/game/:id',
      {
        config: { gameRole: 'VIEWER' },
        schema: {
          tags,
          summary: 'One of the caller’s games, or one shared with them, with its renewal waiting to be paid (its owner’s only) and what the caller is to it',
          params: IdParams,
          response: { 200: Game },
        },
      },
      async (request) => {
        const { gameId, level } = gameOf(request);
        const game = await games.get(gameId);
        // Billing stays the owner's.
        return { ...game, renewal: level === 'OWNER' ? game.renewal : null, access: level };
      },
    );

    player.post(
      '/v1/game/:id/delete',
      {
        config: { gameRole: 'OWNER', activity: 'game.delete' },
        schema: {
          tags,
          summary:
            'Delete the game, its owner typing its name (400 otherwise; 409 while a backup or a restore runs): it is gone at once; its server stops, one last backup stays GAME_RETENTION_DAYS on the account page, and nothing paid is refunded',
          params: IdParams,
          body: GameDelete,
          response: { 204: Type.Null() },
        },
      },
      async (request, reply) => {
        await services.gameDeletion.delete(gameOf(request).gameId, { owner: request.user.id, typedName: request.body.name });
        return reply.status(204).send(null);
      },
    );

    player.get(
      '/v1/game/:id/status',
      {
        config: { gameRole: 'VIEWER' },
        schema: {
          tags,
          summary:
            'Live status: players, version, MOTD and the address to connect to (by name through the game gateway when it runs, with the direct one beside it; by name alone while the game sleeps)',
          params: IdParams,
          response: { 200: GameStatusView },
        },
      },
      async (request) => {
        const { gameId } = gameOf(request);
        const view = await games.status(gameId);
        // With the gateway on, players type the game's name; the server's own port stays the direct way in.
        const named = services.gameGateway?.addressOf(gameId);
        // A sleeping game is reached by its name too (a player joining wakes it); it has no port of its own then.
        if (named && view.status === 'SLEEPING') return { ...view, address: named };
        return named && view.address ? { ...view, address: named, directAddress: view.address } : view;
      },
    );

    player.get(
      '/v1/game/:id/transactions',
      {
        config: { gameRole: 'OWNER' },
        schema: { tags, summary: 'Ledger entries of this game (charges, renewals), newest first', params: IdParams, querystring: PageQuery, response: { 200: Page(LedgerEntry) } },
      },
      async (request) => games.transactions(gameOf(request).gameId, request.locale, pageWindow(request.query)),
    );

    for (const action of ['start', 'stop', 'restart'] as const satisfies GameAction[]) {
      player.post(
        `/v1/game/:id/${action}`,
        {
          config: { gameRole: 'COADMIN', activity: `game.${action}` },
          schema: {
            tags,
            summary:
              action === 'stop'
                ? 'Ask for the server to stop (409 with the current status when it cannot)'
                : `Ask for the server to ${action} (409 with the current status when it cannot; 503 with Retry-After when the host has no room for one more server)`,
            params: IdParams,
            response: { 200: Game },
            problems: action === 'stop' ? [] : [503],
          },
        },
        async (request) => games.act(gameOf(request).gameId, action),
      );
    }

    player.get(
      '/v1/game/:id/minecraft/players/connected',
      { config: { gameRole: 'VIEWER' }, schema: { tags, summary: 'Players online now (none unless RUNNING)', params: IdParams, response: { 200: ConnectedPlayers } } },
      async (request) => players.connectedPlayers(gameOf(request).gameId),
    );

    player.get(
      '/v1/game/:id/minecraft/players',
      {
        config: { gameRole: 'VIEWER' },
        schema: { tags, summary: 'One of the player lists: WHITELIST, OPS or BANNED', params: IdParams, querystring: PlayerListQuery, response: { 200: PlayerList } },
      },
      async (request) => players.players(gameOf(request).gameId, request.query.type),
    );

    player.post(
      '/v1/game/:id/minecraft/player',
      {
        config: { gameRole: 'MODERATOR', activity: 'players.list' },
        schema: {
          tags,
          summary: 'Add a name to, or remove it from, a player list; applied live when running (operators: co-admins and the owner only)',
          params: IdParams,
          body: named(playerPatchRequest),
          response: { 200: PlayerList },
        },
      },
      async (request) => {
        const { name, type, action, reason } = request.body;
        return players.patchPlayers(gameOf(request).gameId, [name], type, action, { as: gameOf(request).level, reason });
      },
    );

    player.post(
      '/v1/game/:id/minecraft/players',
      {
        config: { gameRole: 'MODERATOR', activity: 'players.group' },
        schema: {
          tags,
          summary: 'Add every member of one of your friend groups to, or remove them from, a player list; applied live when running (operators: co-admins and the owner only)',
          params: IdParams,
          body: named(playerGroupIdPatchRequest),
          response: { 200: PlayerList },
        },
      },
      async (request) => {
        const { groupId, type, action } = request.body;
        // The game was checked first (another user's game answers 404 before their group is looked
        // at); the group is the caller's own, whoever owns the game.
        const names = await services.friendGroups.memberNames(request.user.id, groupId);
        return players.patchPlayers(gameOf(request).gameId, names, type, action, { as: gameOf(request).level });
      },
    );

    player.post(
      '/v1/game/:id/announce',
      {
        config: { gameRole: 'MODERATOR', activity: 'game.announce' },
        schema: {
          problems: [503],
          tags,
          summary: 'Tell your friends the server is open, with its address (409 unless RUNNING; 429 with Retry-After within 10 minutes of the last one)',
          params: IdParams,
          response: { 200: AnnounceResult },
        },
      },
      async (request) => {
        const { gameId } = gameOf(request);
        return games.announce(gameId, request.user.name, services.gameGateway?.addressOf(gameId) ?? null);
      },
    );

    player.post(
      '/v1/game/:id/minecraft/kick',
      {
        config: { gameRole: 'MODERATOR', activity: 'players.kick' },
        schema: { problems: [503], tags, summary: 'Kick a player (409 unless RUNNING)', params: IdParams, body: named(playerRequest), response: { 200: RconAnswer } },
      },
      async (request) => players.kick(gameOf(request).gameId, request.body.name, request.body.reason),
    );

    player.get(
      '/v1/game/:id/minecraft/whitelist/status',
      { config: { gameRole: 'VIEWER' }, schema: { tags, summary: 'Whether only whitelisted players may join', params: IdParams, response: { 200: WhitelistStatus } } },
      async (request) => players.whitelistEnabled(gameOf(request).gameId),
    );

    player.put(
      '/v1/game/:id/minecraft/whitelist/status',
      {
        config: { gameRole: 'MODERATOR', activity: 'whitelist.toggle' },
        schema: { tags, summary: 'Turn the whitelist on or off (applied live when running)', params: IdParams, querystring: WhitelistQuery, response: { 200: WhitelistStatus } },
      },
      async (request) => players.setWhitelist(gameOf(request).gameId, request.query.enabled),
    );
  });
};

export default routes;
