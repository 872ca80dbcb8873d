import crypto from 'node:crypto';
import type { GameSpec } from '../driver.ts';
import { newEntry, type ListName } from '../minecraft/player-lists.ts';

/**
 * What the Agones driver writes to the cluster for a game, all named from `blockhost-<id>`:
 * - a Secret `blockhost-<id>-rcon` with the RCON password (also the world agent's token),
 * - a PersistentVolumeClaim `blockhost-<id>-world` mounted on `/data` (the world),
 * - a ConfigMap `blockhost-<id>-lists` with the three vanilla player lists and the icon, copied into
 *   `/data` by an init container at each start, so lists written before the start apply,
 * - the GameServer `blockhost-<id>` running the itzg/minecraft-server image, and beside it a
 *   sidecar that marks it Ready and healthy through the Agones SDK once the server answers
 *   `mc-health` (the image knows nothing of Agones),
 * - a short-lived Pod `blockhost-<id>-world` running the world agent on a stopped game's volume.
 */
export interface ManifestOptions {
  /** Image of the game servers (itzg/minecraft-server or a pinned tag of it). */
  image: string;
  /** Port RCON listens on inside the pod. */
  rconPort: number;
  /** Image that runs the world agent; unset, the GameServer has no agent. */
  toolImage?: string;
  /** Port the world agent listens on inside the pod. */
  agentPort: number;
}

const gamePort = 25565;
const heapShare = 0.75;
/** The itzg image runs the server as 1000:1000: a restored world must be that user's to be saved. */
const serverUser = 1000;
/** The world agent's script in the tool image, whose working directory is the repository's root. */
const worldAgentScript = new URL('./world-agent.ts', import.meta.url).href.slice(new URL('../../../', import.meta.url).href.length);
/** A world pod a crashed API left behind ends by itself, and gives its volume back. */
const worldPodDeadlineSeconds = 3 * 3600;

/** GameServer states where its pod is up or coming up. */
export const aliveStates = new Set(['PortAllocation', 'Creating', 'Starting', 'Scheduled', 'RequestReady', 'Ready', 'Reserved', 'Allocated']);
/** GameServer states where its server runs. */
export const readyStates = new Set(['Ready', 'Reserved', 'Allocated']);

/** The Kubernetes names of a game's objects, all from `blockhost-<id>`. */
export function namesOf(game: Pick<GameSpec, 'id'>) {
  const base = `blockhost-${game.id.toLowerCase()}`;
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(base) || base.length > 50) {
    throw new Error(`game id "${game.id}" is invalid: expected at most 40 letters, digits or "-"`);
  }
  return { gameServer: base, secret: `${base}-rcon`, world: `${base}-world`, lists: `${base}-lists`, worldPod: `${base}-world` };
}

/** The label selector of every object the driver makes. */
export const managedSelector = 'app.kubernetes.io/managed-by=blockhost';

/** The label naming an object's game, by its id (lowercase, as label values and our UUIDs are). */
export const gameLabel = 'blockhost.io/game';

function labelsOf(game: Pick<GameSpec, 'id'>) {
  return { 'app.kubernetes.io/managed-by': 'blockhost', [gameLabel]: game.id.toLowerCase() };
}

/** The game's RCON password, made once: the Secret is only created when there is none. */
export function secretManifest(game: Pick<GameSpec, 'id'>) {
  return {
    metadata: { name: namesOf(game).secret, labels: labelsOf(game) },
    type: 'Opaque',
    data: { password: Buffer.from(crypto.randomBytes(24).toString('base64url')).toString('base64') },
  };
}

/** The game's world volume. */
export function worldClaimManifest(game: Pick<GameSpec, 'id'>, size: string) {
  return {
    metadata: { name: namesOf(game).world, labels: labelsOf(game) },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } } },
  };
}

/** The player lists in vanilla's files, and the icon, as the init container copies them. */
export function listsManifest(game: GameSpec) {
  const file = (list: ListName, names: string[]) =>
    `${JSON.stringify(
      names.map((name) => newEntry(list, name)),
      null,
      2,
    )}\n`;
  return {
    metadata: { name: namesOf(game).lists, labels: labelsOf(game) },
    data: { 'whitelist.json': file('whitelist', game.whitelist), 'ops.json': file('ops', game.ops), 'banned-players.json': file('banned', game.banned) },
    // The server icon (a 64×64 PNG, base64) travels with the lists: itzg's ICON wants a URL the
    // pod can reach, while a server-icon.png already in /data is what the server shows.
    ...(game.icon ? { binaryData: { 'server-icon.png': game.icon } } : {}),
  };
}

/** The GameServer of a game, as the itzg image wants its settings. */
export function gameServerManifest(game: GameSpec, options: ManifestOptions) {
  const n = namesOf(game);
  const image = options.image;
  const rconPort = options.rconPort;
  const upper = (v: boolean) => (v ? 'TRUE' : 'FALSE');
  const env = [
    { name: 'EULA', value: 'TRUE' },
    { name: 'VERSION', value: game.version },
    { name: 'MEMORY', value: `${Math.max(Math.floor(game.ramMb * heapShare), 256)}M` },
    { name: 'MOTD', value: game.motd },
    { name: 'MAX_PLAYERS', value: String(game.maxPlayers) },
    { name: 'MODE', value: game.gameMode },
    // The game's mode is everyone's, as on flying-squid: a player who comes back plays it too.
    { name: 'FORCE_GAMEMODE', value: 'TRUE' },
    { name: 'DIFFICULTY', value: game.difficulty },
    ...(game.seed ? [{ name: 'SEED', value: game.seed }] : []),
    ...(game.levelType ? [{ name: 'LEVEL_TYPE', value: game.levelType.toUpperCase() }] : []),
    ...(game.pvp === undefined ? [] : [{ name: 'PVP', value: upper(game.pvp) }]),
    ...(game.viewDistance === undefined ? [] : [{ name: 'VIEW_DISTANCE', value: String(game.viewDistance) }]),
    ...(game.spawnProtection === undefined ? [] : [{ name: 'SPAWN_PROTECTION', value: String(game.spawnProtection) }]),
    ...(game.allowFlight === undefined ? [] : [{ name: 'ALLOW_FLIGHT', value: upper(game.allowFlight) }]),
    { name: 'ONLINE_MODE', value: 'FALSE' },
    { name: 'ENABLE_WHITELIST', value: upper(game.whitelistEnabled) },
    { name: 'ENFORCE_WHITELIST', value: upper(game.whitelistEnabled) },
    { name: 'ENABLE_RCON', value: 'TRUE' },
    { name: 'RCON_PORT', value: String(rconPort) },
    { name: 'RCON_PASSWORD', valueFrom: { secretKeyRef: { name: n.secret, key: 'password' } } },
  ];
  const sdk = 'http://localhost:${AGONES_SDK_HTTP_PORT:-9358}';
  const post = (what: string) => `curl -fsS -X POST -H 'Content-Type: application/json' -d '{}' ${sdk}/${what} >/dev/null`;
  return {
    apiVersion: 'agones.dev/v1',
    kind: 'GameServer',
    metadata: { name: n.gameServer, labels: labelsOf(game) },
    spec: {
      container: 'minecraft',
      ports: [{ name: 'minecraft', portPolicy: 'Dynamic', containerPort: gamePort, protocol: 'TCP', container: 'minecraft' }],
      health: { initialDelaySeconds: 180, periodSeconds: 15, failureThreshold: 4 },
      template: {
        metadata: { labels: labelsOf(game) },
        spec: {
          // On deletion the image turns SIGTERM into a `stop`: leave it time to save the world.
          terminationGracePeriodSeconds: 90,
          initContainers: [
            {
              name: 'player-lists',
              image,
              // The icon too, or none once its owner removed it.
              command: ['sh', '-c', 'cp /lists/*.json /data/ && if [ -f /lists/server-icon.png ]; then cp /lists/server-icon.png /data/; else rm -f /data/server-icon.png; fi'],
              volumeMounts: [
                { name: 'world', mountPath: '/data' },
                { name: 'lists', mountPath: '/lists' },
              ],
            },
          ],
          containers: [
            {
              name: 'minecraft',
              image,
              env,
              resources: { requests: { memory: `${game.ramMb}Mi` }, limits: { memory: `${game.ramMb}Mi` } },
              volumeMounts: [{ name: 'world', mountPath: '/data' }],
            },
            {
              name: 'agones-ready',
              image,
              command: ['sh', '-c', `until mc-health; do sleep 5; done; ${post('ready')}; while sleep 10; do mc-health && ${post('health')}; done`],
              resources: { requests: { memory: '32Mi' }, limits: { memory: '64Mi' } },
            },
            // Backs the world up while it runs; never restores under the running server.
            ...(options.toolImage ? [worldAgentContainer(game, options, true)] : []),
          ],
          volumes: [
            { name: 'world', persistentVolumeClaim: { claimName: n.world } },
            { name: 'lists', configMap: { name: n.lists } },
          ],
        },
      },
    },
  };
}

/** The world agent's container, on the game's volume, its token the game's RCON password. */
function worldAgentContainer(game: Pick<GameSpec, 'id'>, options: ManifestOptions, readOnly: boolean) {
  const n = namesOf(game);
  return {
    name: 'world-agent',
    image: options.toolImage,
    command: ['node', '--max-old-space-size=256', worldAgentScript],
    env: [
      { name: 'WORLD_AGENT_PORT', value: String(options.agentPort) },
      { name: 'WORLD_AGENT_TOKEN', valueFrom: { secretKeyRef: { name: n.secret, key: 'password' } } },
      { name: 'WORLD_DIR', value: '/data' },
      ...(readOnly ? [{ name: 'WORLD_AGENT_READ_ONLY', value: 'true' }] : []),
    ],
    ports: [{ name: 'world-agent', containerPort: options.agentPort, protocol: 'TCP' }],
    // A failed agent's last words become its status' message, which the driver reports.
    terminationMessagePolicy: 'FallbackToLogsOnError',
    securityContext: { runAsUser: serverUser, runAsGroup: serverUser },
    // It streams: memory stays flat whatever the world's size.
    resources: { requests: { memory: '64Mi' }, limits: { memory: '384Mi' } },
    volumeMounts: [{ name: 'world', mountPath: '/data' }],
  };
}

/** The short-lived Pod that runs the world agent on a stopped game's volume. */
export function worldPodManifest(game: Pick<GameSpec, 'id'>, options: ManifestOptions) {
  const n = namesOf(game);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: n.worldPod, labels: labelsOf(game) },
    spec: {
      restartPolicy: 'Never',
      activeDeadlineSeconds: worldPodDeadlineSeconds,
      terminationGracePeriodSeconds: 10,
      // A volume no server ran on yet is root's: the group makes it the agent's to restore into.
      securityContext: { fsGroup: serverUser },
      containers: [worldAgentContainer(game, options, false)],
      volumes: [{ name: 'world', persistentVolumeClaim: { claimName: n.world } }],
    },
  };
}
