import type net from 'node:net';
import { minecraftName, newEntry, readList, writeList, type ListName } from './player-lists.ts';
import { startRconServer } from './rcon-server.ts';
import { difficulties, gameModes } from './server-config.ts';

/**
 * Our admin plugin for flying-squid: what a vanilla server has and flying-squid lacks. An RCON
 * server on loopback, the vanilla commands the platform drives games with, and a whitelist and
 * bans enforced at login (flying-squid's own `/ban` keys offline players by name but checks by
 * UUID, so a banned player rejoins). Lists live in vanilla's files in the game folder, read at
 * start so lists written before start apply, and rewritten on each change.
 */

/** A block position, as flying-squid's Vec3 gives it. */
interface Vec3Like {
  x: number;
  y: number;
  z: number;
}
/** flying-squid's positions and velocities (the vec3 package's), for the arithmetic this plugin does. */
interface Vec3 extends Vec3Like {
  minus(other: Vec3Like): Vec3;
  scaled(factor: number): Vec3;
  clone(): Vec3;
}

/** The block a player right-clicked, and the face (0 to 5, vanilla's order) a placed block goes against. */
interface ClickedBlock {
  position: Vec3Like;
  direction: number;
  boundingBox: string;
}

/** Vanilla's faces, in their order: down, up, north, south, west, east. */
const faces: ReadonlyArray<readonly [number, number, number]> = [
  [0, -1, 0],
  [0, 1, 0],
  [0, 0, -1],
  [0, 0, 1],
  [-1, 0, 0],
  [1, 0, 0],
];

/** The parts of flying-squid (a JS library without types) this plugin and combat.ts use. */
export interface SquidPlayer {
  username: string;
  uuid: string;
  /** `player` for a player, as for any of flying-squid's entities. */
  type: string;
  /** The entity type its spawn packet names; flying-squid leaves a player's null. */
  entityType: number | null;
  /** Skin and cape, from the login. */
  profileProperties: unknown[];
  op: boolean;
  /** Where the world's spawn is, as flying-squid found it for this player's world. */
  spawnPoint: Vec3;
  /** The world's blocks; positions may be plain objects (flying-squid's `getBlock` wants a Vec3). */
  world: { getBlockStateId(position: Vec3Like): Promise<number> };
  position: Vec3;
  sendBlock(position: Vec3Like, stateId: number): void;
  gameMode: number;
  kick(reason: string): void;
  chat(message: string): void;
  setGameMode(mode: number): void;
  /** Shows this entity to the players around and them to it, those not shown yet (flying-squid's bookkeeping). */
  updateAndSpawn(): void;
  on(event: 'spawned', listener: () => void): void;
  /** The client's packets, as node-minecraft-protocol parsed them. */
  _client: {
    username: string;
    latency: number;
    write(packet: string, params: object): void;
    on(packet: 'position' | 'position_look' | 'flying', listener: (movement: Movement) => void): void;
    /** `perform_respawn` (action 0, as the protocol's definitions name it) or `request_stats`; `payload` before 1.9. */
    on(packet: 'client_command', listener: (command: { actionId?: number | string; payload?: number | string }) => void): void;
  };
  /** flying-squid's cancellable attack, before any damage. */
  on(event: 'attack_cancel', listener: (attack: { attackedEntity: { type: string } }, cancel: () => void) => void): void;
  /** The same attack once it may go on: `attack` is then handed to the attacked entity's `takeDamage`. */
  on(event: 'attack', listener: (attack: Attack) => void): void;
  /** A player's client asked to respawn: first whether to (cancellable), then that it will. */
  on(event: 'requestRespawn_cancel', listener: (request: object, cancel: () => void) => void): void;
  on(event: 'requestRespawn', listener: () => void): void;
  /** flying-squid's cancellable actions: the listeners' `<name>_cancel`, `<name>`, then `onSuccess`. */
  behavior(name: string, data: object, onSuccess: () => void): Promise<unknown>;
  health: number;
  updateHealth(health: number): void;
  /** The game mode before the last change (255: none), as the respawn packet tells it. */
  prevGameMode: number;
  /** The entities this player's client was shown. */
  nearbyEntities: unknown[];
  /** Sends the player's position to its own client (a teleport). */
  sendSelfPosition(): void;
  /** Writes the respawn packet. */
  _sendRespawn(): void;
  /** Takes `damage` from the health; flying-squid's pvp calls it with the attack, its `/kill` with 20. */
  takeDamage(damage: Damage): void;
  /** flying-squid's cancellable end of a dig, before the block goes. */
  on(event: 'dug_cancel', listener: (dug: { position: Vec3Like; block: { stateId: number } }, cancel: () => void) => void): void;
  /** flying-squid's cancellable chat, before it is printed and sent to everyone. */
  on(event: 'chat_cancel', listener: (chat: { message: string }, cancel: () => void) => void): void;
}
/** What flying-squid hands `takeDamage`; `attacker` is ours, set on a player's attack. */
interface Damage {
  damage?: number;
  attacker?: SquidPlayer;
}
/** A player's attack on an entity, as flying-squid goes on to hurt it with (in blocks a second). */
interface Attack extends Damage {
  attackedEntity: { type: string; position: Vec3 };
  velocity: Vec3;
}
/** A client's movement packet: `onGround` up to 1.21.1, in `flags` from 1.21.2; no `y` when it did not move. */
interface Movement {
  x?: number;
  y?: number;
  z?: number;
  onGround?: boolean;
  flags?: { onGround?: boolean };
}
interface LoginClient {
  username: string;
  write(packet: string, params: object): void;
  end(reason: string): void;
}
export interface SquidServer {
  players: SquidPlayer[];
  _server: {
    maxPlayers: number;
    /** What the Server List Ping answers; read at each ping, so a change shows at once. */
    motd: string;
    options: { beforeLogin?: (client: LoginClient) => void };
    emit(event: string, ...args: unknown[]): boolean;
  };
  on(event: 'newPlayer', listener: (player: SquidPlayer) => void): void;
  /** The entities (players among them) within a radius of a position: those its entities are shown. */
  getNearbyEntities(around: { world: unknown; position: Vec3Like; radius?: number }): Array<{ type: string }>;
  /** Tells everyone else who is online: the step of a login just before the newcomer is shown around. */
  _sendPlayerList(to: SquidPlayer): void;
  broadcast(message: string | object, options?: object): void;
  /** Prints a line as it comes (`info` and `err` print through it, with their tag). */
  log(message: string): void;
  info(message: string): void;
  err(message: string): void;
  /** flying-squid's own commands (`time`, `setblock`, `tp`, `weather`...), as its console runs them. */
  commands: { find(command: string): unknown; use(command: string): Promise<string | undefined> };
  supportFeature(feature: string): boolean;
  _createChatComponent(message: unknown): unknown;
  waitForReady(timeoutMs: number): Promise<unknown>;
  /** Asked first on each right-click on a block; true stops it there (nothing placed). */
  interactWithBlock(click: { block: ClickedBlock; player: SquidPlayer }): Promise<boolean>;
  difficulty: number;
  /** The game mode players are given (flying-squid's, from its `gameMode` option). */
  gameMode: number;
  registry: {
    /** The server's version, to compare (`registry.version['>=']('1.19.4')`). */
    version: { '>=': (version: string) => boolean };
    /** The login packet's defaults; from 1.20.5 its `worldState` is the world the respawn packet names too. */
    loginPacket: { worldState?: object };
    blocksByName: Record<string, { minStateId: number; maxStateId: number } | undefined>;
    entitiesByName: Record<string, { id: number } | undefined>;
  };
  _writeAll(packet: string, params: object): void;
}

export interface AdminOptions {
  /** The game folder, holding the lists. */
  dir: string;
  rconPort: number;
  rconPassword: string;
  whitelistEnabled: boolean;
  /** Vanilla's `pvp`: false, players cannot hurt each other (flying-squid has no such setting). */
  pvp: boolean;
  /**
   * Vanilla's `spawn-protection`: only operators dig or place within this many blocks of the
   * world's spawn (0: no protection); as in vanilla, none while the server has no operator.
   */
  spawnProtection: number;
  /** Vanilla's `allow-flight`: false, a player in survival or adventure who hovers is kicked. */
  allowFlight: boolean;
  /** Called by `stop` once the answer is sent: saves the world and ends the process. */
  onStop(): void;
  /** Called when `whitelist on|off` changes the setting, to persist it. */
  onWhitelistChange(enabled: boolean): void;
}

const messages = {
  notWhitelisted: 'You are not white-listed on this server!',
  banned: (reason: string) => `You are banned from this server.\nReason: ${reason}`,
  kickedDefault: 'Kicked by an operator',
  unknown: 'Unknown or incomplete command, see below for error',
  flying: 'Flying is not enabled on this server',
  illegalCharacters: 'Illegal characters in chat',
} as const;

/** What vanilla refuses in a chat message: control characters and `§` (its colour codes). */
// eslint-disable-next-line no-control-regex
const illegalInChat = /[\u0000-\u001f\u007f§]/;

/** Vanilla's bound: a player may be airborne without falling for 80 ticks (4 s) before it is taken for flying. */
const FLOATING_MS = 4000;
/** The fall per movement below which vanilla counts a player as not falling. */
const FALLING_DY = -0.03125;

/** flying-squid's `&` colour and format codes as the `§` ones Minecraft clients render (`&&` is a `&`). */
export function legacyColours(message: string): string {
  return message.replace(/&([0-9a-fk-or&])/gi, (_, code: string) => (code === '&' ? '&' : `§${code.toLowerCase()}`));
}

/** A block's state ids (before 1.13, its id with each of the 16 metadata values). */
function stateIds(block: { minStateId: number; maxStateId: number } | undefined): number[] {
  return block ? Array.from({ length: block.maxStateId - block.minStateId + 1 }, (_, i) => block.minStateId + i) : [];
}

export async function installAdmin(serv: SquidServer, options: AdminOptions): Promise<net.Server> {
  const lists = {
    whitelist: readList(options.dir, 'whitelist'),
    ops: readList(options.dir, 'ops'),
    banned: readList(options.dir, 'banned'),
  };
  let whitelistEnabled = options.whitelistEnabled;

  const find = (list: ListName, name: string) => lists[list].findIndex((e) => e.name.toLowerCase() === name.toLowerCase());
  const has = (list: ListName, name: string) => find(list, name) >= 0;
  const online = (name: string) => serv.players.find((p) => p.username.toLowerCase() === name.toLowerCase());
  const save = (list: ListName) => writeList(options.dir, list, lists[list]);

  /** Why a name may not join, or null. Ops pass the whitelist, as in vanilla. */
  const refusal = (name: string): string | null => {
    const ban = lists.banned[find('banned', name)];
    if (ban) return messages.banned(ban.reason);
    if (whitelistEnabled && !has('whitelist', name) && !has('ops', name)) return messages.notWhitelisted;
    return null;
  };

  // Refused at the end of the login phase, before flying-squid makes a player: the client gets a
  // login `disconnect` with the reason. Servers before 1.20.2 have no configuration phase and
  // would still announce the login, so those events are swallowed for a refused client.
  const refused = new WeakSet<object>();
  serv._server.options.beforeLogin = (client) => {
    const reason = refusal(client.username);
    if (reason === null) return;
    refused.add(client);
    serv.info(`${client.username} refused: ${reason.split('\n')[0]}`);
    // The refusal goes out now and the connection ends a second later, unless the client leaves
    // first as vanilla's does: a client that reads the close before it has decoded the packet
    // (mineflayer, when busy, since decompression is asynchronous) would show "connection lost"
    // instead of the reason. Nothing else is sent meanwhile.
    client.write('disconnect', { reason: JSON.stringify({ text: reason }) });
    client.write = () => {};
    setTimeout(() => client.end(reason), 1000);
  };
  const emit = serv._server.emit.bind(serv._server);
  serv._server.emit = (event, ...args) => {
    if ((event === 'login' || event === 'playerJoin') && refused.has(args[0] as object)) return false;
    return emit(event, ...args);
  };

  // Players who log in at the same moment must all see each other. flying-squid makes a player an
  // entity of the world as its login begins, long before its client gets the login packet (the
  // spawn point and the player's file are read first, chunks generated meanwhile), and a player
  // whose login ends in that time is shown to it there and then: the client drops what came before
  // its login packet, and flying-squid, which counts the other as shown, never shows it again. So a
  // player joins the others' world only once its own client has its login, when it is first shown
  // the players around (its own login's last step), and is first told who is online: flying-squid
  // tells only the others, and a vanilla client draws no player it was not told of.
  const inWorld = new WeakSet<object>();
  // A player whose client is still loading its first chunks already sends positions, and the first,
  // far from where flying-squid made the entity (0, 0, 0), moves it "more than 2 blocks": flying-squid
  // then shows it to the others before it told them who it is (its login's next step), and their
  // clients, which draw no player they were not told of, never draw it. Until its login has told the
  // others, a player is shown to no one; its login shows it then.
  const announced = new WeakSet<object>();
  // flying-squid defines `_sendPlayerList` again for each player it makes: the one it set last runs.
  let sendPlayerList: SquidServer['_sendPlayerList'] = () => {};
  Object.defineProperty(serv, '_sendPlayerList', {
    configurable: true,
    get: () => (to: SquidPlayer) => {
      sendPlayerList(to);
      announced.add(to);
    },
    set: (defined: SquidServer['_sendPlayerList']) => (sendPlayerList = defined),
  });
  const nearbyEntities = serv.getNearbyEntities.bind(serv);
  serv.getNearbyEntities = (around) => nearbyEntities(around).filter((entity) => entity.type !== 'player' || inWorld.has(entity));
  const playerList = (players: SquidPlayer[]) =>
    serv.supportFeature('playerInfoActionIsBitfield')
      ? {
          action: { add_player: true },
          data: players.map((p) => ({ uuid: p.uuid, player: { name: p.username, properties: p.profileProperties }, gamemode: p.gameMode, latency: p._client.latency })),
        }
      : {
          action: 'add_player',
          data: players.map((p) => ({ uuid: p.uuid, name: p.username, properties: p.profileProperties, gamemode: p.gameMode, ping: p._client.latency })),
        };

  // From 1.20.2 a player is spawned with the packet of any entity, which names its type: flying-squid
  // names none (0), so other players' clients made it a boat (mineflayer) or nothing.
  const playerType = serv.supportFeature('unifiedPlayerAndEntitySpawnPacket') ? serv.registry.entitiesByName.player?.id : undefined;

  serv.on('newPlayer', (player) => {
    if (playerType !== undefined) player.entityType = playerType;
    const updateAndSpawn = player.updateAndSpawn;
    player.updateAndSpawn = () => {
      if (!announced.has(player)) return;
      if (!inWorld.has(player)) {
        player._client.write('player_info', playerList(serv.players));
        inWorld.add(player);
      }
      updateAndSpawn();
    };
    player.on('spawned', () => {
      // flying-squid's login sets every player's `op` to its `everybody-op` setting (false) after
      // `newPlayer`: the operators list is applied once the login is over. `op`/`deop` change it
      // live for a player online.
      player.op = has('ops', player.username);
      // Vanilla's `force-gamemode`: a player who comes back plays the server's game mode, not the one
      // saved in their file, so a change of the game's mode reaches everyone who ever joined. Sent
      // even when unchanged: flying-squid's 1.20.2+ login packet carries the registry's default game
      // mode, so the client believes it plays survival whatever the server says.
      player.setGameMode(serv.gameMode);
    });
    if (!options.pvp) player.on('attack_cancel', ({ attackedEntity }, cancel) => attackedEntity.type === 'player' && cancel());
    // Vanilla refuses chat with control characters (and kicks its sender); flying-squid prints it
    // as is, so a line break in a message would print a line of the player's making on the console,
    // a forged death among them.
    player.on('chat_cancel', (chat, cancel) => {
      if (!illegalInChat.test(chat.message)) return;
      cancel();
      // flying-squid prints a refused message all the same: on one line, then.
      chat.message = chat.message.replace(new RegExp(illegalInChat, 'g'), ' ');
      player.kick(messages.illegalCharacters);
    });
    player.on('dug_cancel', (dug, cancel) => {
      if (!guarded(player, dug.position)) return;
      cancel();
      // The client broke it on its side already: it is told the block is still there.
      player.sendBlock(dug.position, dug.block.stateId);
    });
    if (!options.allowFlight) watchFlight(player);
  });

  // allow-flight=false, as vanilla enforces it (flying-squid does not): a player in survival or
  // adventure who stays airborne without falling for FLOATING_MS, with nothing around that holds a
  // player up (a ladder, water, a block's edge), is kicked. A hacked client flies this way.
  const air = new Set(['air', 'cave_air', 'void_air'].flatMap((name) => stateIds(serv.registry.blocksByName[name])));
  const watchFlight = (player: SquidPlayer) => {
    // Where the client says it is: flying-squid moves `player.position` later, or not at all.
    let at: Vec3Like | undefined;
    let floatingSince: number | undefined;
    let checking = false;
    const onMovement = (movement: Movement) => {
      const last = at ?? player.position;
      const { x = last.x, y = last.y, z = last.z } = movement;
      const falling = at !== undefined && y - at.y < FALLING_DY;
      at = { x, y, z };
      const onGround = movement.onGround ?? movement.flags?.onGround ?? false;
      // Creative (1) and spectator (3) fly by right.
      if (onGround || falling || player.gameMode === 1 || player.gameMode === 3) {
        floatingSince = undefined;
        return;
      }
      const now = Date.now();
      floatingSince ??= now;
      if (now - floatingSince < FLOATING_MS || checking) return;
      checking = true;
      nothingAround(player.world, at)
        .then((floating) => {
          if (floating) player.kick(messages.flying);
          else floatingSince = undefined;
        })
        .catch(() => {})
        .finally(() => (checking = false));
    };
    for (const packet of ['position', 'position_look', 'flying'] as const) player._client.on(packet, onMovement);
  };
  /** Whether every block a player's box (0.6 × 1.8, reaching 1/16 below the feet) touches is air. */
  const nothingAround = async (world: SquidPlayer['world'], at: Vec3Like): Promise<boolean> => {
    for (const x of new Set([Math.floor(at.x - 0.3), Math.floor(at.x + 0.3)]))
      for (const z of new Set([Math.floor(at.z - 0.3), Math.floor(at.z + 0.3)]))
        for (let y = Math.floor(at.y - 0.0625); y <= Math.floor(at.y + 1.8); y++) if (!air.has(await world.getBlockStateId({ x, y, z }))) return false;
    return true;
  };

  // Spawn protection, as vanilla's: within `spawnProtection` blocks of the spawn (a square, any
  // height), only operators change the world, and only once the server has an operator.
  const guarded = (player: SquidPlayer, at: Vec3Like) => {
    if (options.spawnProtection <= 0 || player.op || lists.ops.length === 0) return false;
    const spawn = player.spawnPoint;
    return Math.max(Math.abs(Math.floor(at.x) - Math.floor(spawn.x)), Math.abs(Math.floor(at.z) - Math.floor(spawn.z))) <= options.spawnProtection;
  };
  const interact = serv.interactWithBlock.bind(serv);
  serv.interactWithBlock = async (click) => {
    const { block, player } = click;
    const face = block.boundingBox === 'empty' ? undefined : faces[block.direction];
    const at = face ? { x: block.position.x + face[0], y: block.position.y + face[1], z: block.position.z + face[2] } : block.position;
    if (!guarded(player, at)) return interact(click);
    // Refused like a placement vanilla refuses: the client, which drew the block already, is told what is there.
    player.sendBlock(at, await player.world.getBlockStateId(at));
    return true;
  };

  // What players are told (joins, leaves, `say`) goes to the console too, colour codes and all; a
  // player's chat (`<name> text`) is printed by flying-squid itself already.
  const broadcast = serv.broadcast.bind(serv);
  serv.broadcast = (message, broadcastOptions) => {
    if (typeof message === 'string' && !/^<\w{1,16}> /.test(message)) serv.info(message);
    broadcast(message, broadcastOptions);
  };
  // From 1.20.3 flying-squid sends chat as a plain NBT string, so players saw its `&e` colour codes
  // as text: the client colours the legacy `§` codes instead.
  if (serv.supportFeature('chatPacketsUseNbtComponents')) {
    const component = serv._createChatComponent.bind(serv);
    serv._createChatComponent = (message) => component(typeof message === 'string' ? legacyColours(message) : message);
  }

  const addTo = (list: ListName, name: string, reason?: string) => {
    lists[list].push(newEntry(list, name, reason) as never);
    save(list);
  };
  const removeFrom = (list: ListName, name: string) => {
    lists[list].splice(find(list, name), 1);
    save(list);
  };

  const needName = (name: string | undefined, usage: string): string => {
    if (name === undefined || !minecraftName.test(name)) throw new Error(`${messages.unknown}\n${usage}`);
    return name;
  };

  const commands: Record<string, (args: string[]) => string> = {
    list: () => {
      const names = serv.players.map((p) => p.username);
      return `There are ${names.length} of a max of ${serv._server.maxPlayers} players online: ${names.join(', ')}`;
    },
    say: (args) => {
      if (args.length === 0) throw new Error(`${messages.unknown}\nsay <message>`);
      serv.broadcast(`[Server] ${args.join(' ')}`);
      return '';
    },
    kick: ([name, ...reason]) => {
      const player = online(needName(name, 'kick <player> [<reason>]'));
      if (!player) return 'No player was found';
      const why = reason.length > 0 ? reason.join(' ') : messages.kickedDefault;
      player.kick(why);
      return `Kicked ${player.username}: ${why}`;
    },
    whitelist: ([action, name]) => {
      switch (action) {
        case 'on':
        case 'off': {
          const enabled = action === 'on';
          if (enabled === whitelistEnabled) return `Whitelist is already turned ${action}`;
          whitelistEnabled = enabled;
          options.onWhitelistChange(enabled);
          return `Whitelist is now turned ${action}`;
        }
        case 'add':
          if (has('whitelist', needName(name, 'whitelist add <player>'))) return 'Player is already whitelisted';
          addTo('whitelist', name!);
          return `Added ${name} to the whitelist`;
        case 'remove':
          if (!has('whitelist', needName(name, 'whitelist remove <player>'))) return 'Player is not whitelisted';
          removeFrom('whitelist', name!);
          return `Removed ${name} from the whitelist`;
        case 'list': {
          const names = lists.whitelist.map((e) => e.name);
          return names.length === 0 ? 'There are no whitelisted players' : `There are ${names.length} whitelisted player(s): ${names.join(', ')}`;
        }
        case 'reload':
          lists.whitelist = readList(options.dir, 'whitelist');
          return 'Reloaded the whitelist';
        default:
          throw new Error(`${messages.unknown}\nwhitelist (on|off|add|remove|list|reload)`);
      }
    },
    op: ([name]) => {
      if (has('ops', needName(name, 'op <player>'))) return 'Nothing changed. The player already is an operator';
      addTo('ops', name!);
      const player = online(name!);
      if (player) player.op = true;
      return `Made ${name} a server operator`;
    },
    deop: ([name]) => {
      if (!has('ops', needName(name, 'deop <player>'))) return 'Nothing changed. The player is not an operator';
      removeFrom('ops', name!);
      const player = online(name!);
      if (player) player.op = false;
      return `Made ${name} no longer a server operator`;
    },
    ban: ([name, ...reason]) => {
      if (has('banned', needName(name, 'ban <player> [<reason>]'))) return 'Nothing changed. The player is already banned';
      const why = reason.length > 0 ? reason.join(' ') : 'Banned by an operator.';
      addTo('banned', name!, why);
      online(name!)?.kick(messages.banned(why));
      return `Banned ${name}: ${why}`;
    },
    pardon: ([name]) => {
      if (!has('banned', needName(name, 'pardon <player>'))) return "Nothing changed. The player isn't banned";
      removeFrom('banned', name!);
      return `Unbanned ${name}`;
    },
    // Not vanilla (its MOTD is read at start only): lets the platform change it live.
    motd: (args) => {
      serv._server.motd = args.join(' ');
      return `The MOTD is now "${serv._server.motd}"`;
    },
    // Vanilla's names, which flying-squid's own `difficulty` (numbers only) does not take.
    difficulty: ([name]) => {
      const level = (difficulties as Record<string, number>)[name?.toLowerCase() ?? ''];
      if (level === undefined) throw new Error(`${messages.unknown}\ndifficulty (peaceful|easy|normal|hard)`);
      serv.difficulty = level;
      serv._writeAll('difficulty', { difficulty: level, difficultyLocked: false });
      return `The difficulty has been set to ${name!.toLowerCase()}`;
    },
    // Vanilla's, with `force-gamemode` on: the mode of players who join, and of every player online now.
    defaultgamemode: ([name]) => {
      const mode = (gameModes as Record<string, number>)[name?.toLowerCase() ?? ''];
      if (mode === undefined) throw new Error(`${messages.unknown}\ndefaultgamemode (survival|creative|adventure|spectator)`);
      serv.gameMode = mode;
      for (const player of serv.players) if (player.gameMode !== mode) player.setGameMode(mode);
      const label = name!.toLowerCase();
      return `The default game mode is now ${label[0]!.toUpperCase()}${label.slice(1)} Mode`;
    },
    stop: () => {
      // Answered first: the caller learns the stop began before the connection goes away.
      setImmediate(options.onStop);
      return 'Stopping the server';
    },
  };

  /**
   * Any other command goes to flying-squid's command system as its own console would send it; what
   * the command prints meanwhile is its answer. One at a time, so answers do not mix.
   */
  let squidQueue: Promise<unknown> = Promise.resolve();
  const squidCommand = (line: string): Promise<string> => {
    const run = squidQueue.then(async () => {
      // Taken as the answer, not printed: the platform puts a command typed in the panel and its
      // answer in the console itself, whatever the server, so printing would show them twice.
      const printed: string[] = [];
      const { info, err } = serv;
      serv.info = (message) => printed.push(message);
      serv.err = (message) => printed.push(message);
      try {
        const answer = await serv.commands.use(line);
        if (answer) printed.push(answer);
      } catch (error) {
        // flying-squid's UserError carries what to tell the user; anything else stays inside.
        printed.push((error as { userError?: boolean }).userError ? (error as Error).message : messages.unknown);
      } finally {
        serv.info = info;
        serv.err = err;
      }
      return printed.join('\n');
    });
    squidQueue = run.catch(() => {});
    return run;
  };

  // RCON opens once flying-squid accepts players, so a login over RCON means the game is playable.
  await serv.waitForReady(60_000);
  return startRconServer({
    host: '127.0.0.1',
    port: options.rconPort,
    password: options.rconPassword,
    async execute(line) {
      // Vanilla accepts commands with or without the leading slash.
      const command = line.trim().replace(/^\//, '');
      const [name = '', ...args] = command.split(/\s+/);
      const key = name.toLowerCase();
      if (!Object.hasOwn(commands, key)) {
        if (!serv.commands.find(command)) throw new Error(messages.unknown);
        return squidCommand(command);
      }
      return commands[key]!(args);
    },
  });
}
