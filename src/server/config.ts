import fs from 'node:fs';
import path from 'node:path';
import { gameDrivers } from '../runtime/driver.ts';
import { readKubeconfig } from '../runtime/agones/kubernetes.ts';
import type { DriverConfig } from '../runtime/index.ts';
import type { StoreConfig } from './storage/index.ts';

/**
 * Every setting comes from one environment variable, checked at start. A bad value stops the
 * process with a message naming the variable and what it accepts, so a typo never runs silently.
 */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: string;
  trustProxy: boolean;
  oidc: {
    /** Issuer the API trusts; the embedded provider's when it is ours. */
    issuer: string;
    clientId: string;
    audience: string;
    /** True when the issuer is the provider built into this process. */
    embedded: boolean;
    keysFile: string;
  };
  /**
   * Where rate limits and failed sign-ins are counted across replicas (Redis or Valkey); unset, each
   * process counts alone, which holds for one replica only.
   */
  redis: { url: string | undefined; keyPrefix: string };
  rateLimit: { apiPerMinute: number; signInPerMinute: number };
  /** Open notification streams: per user (the oldest closes for a new one), per address (a new one is refused). */
  streams: { perUser: number; perAddress: number };
  internalToken: string | undefined;
  /**
   * Outgoing email: an SMTP server (`smtp://` or `smtps://` with its credentials); unset, messages
   * are written to `outbox` and their links logged. `from` is the sender every message names.
   */
  mail: { smtpUrl: string | undefined; from: string; outbox: string };
  games: {
    /** A start that is not RUNNING after this long ends CRASHED. */
    startTimeoutMs: number;
    /** How often the reconciler looks at the games. */
    reconcileIntervalMs: number;
    /** How often each running game's usage is sampled. */
    usageSampleMs: number;
    /** How long a world operation holds its game's lock without renewing it (a process that died frees it after this). */
    lockMs: number;
  };
  /** How long a replica holds an account deletion it runs before another may take it over (its process died). */
  accountDeletion: { leaseMs: number };
  /**
   * The game gateway (src/runtime/gateway): the one port players reach every game on, by name, or
   * null when it is off; `domain` is what names go in front of (`<name>.<domain>`). `process`: a
   * gateway process (`npm run gateway`) serves the port, which the API then leaves closed, and
   * asks the API for wakes at `apiUrl`. Connections at once are bounded per process and per address.
   */
  gateway: { port: number | null; domain: string; process: boolean; apiUrl: string; maxConnections: number; connectionsPerAddress: number };
  stripe: { secretKey: string | undefined; webhookSecret: string | undefined; publishableKey: string | undefined; apiUrl: string | undefined };
  /**
   * Who issues the invoices, and the VAT rate they carry (percent). `sellerPlaceholder`: no
   * INVOICE_SELLER_ADDRESS, so invoices carry a made-up address the back office warns about.
   */
  invoices: { sellerName: string; sellerAddress: string; sellerVatId: string | null; vatRatePercent: number; sellerPlaceholder: boolean };
  renewals: {
    /** A game's next period is due, and its owner told, this long before its period ends. */
    noticeDays: number;
    /** An expired game's world is kept this long, for its owner to pay and revive it. */
    retentionDays: number;
    /** The longest pause between two rounds of the renewals loop. */
    intervalMs: number;
  };
  social: { discord: string; twitter: string; youtube: string; instagram: string };
  /** The Mumble server where each game has a voice channel; null: none, so the web app offers no voice chat. */
  mumble: { host: string; port: number } | null;
  /** Mojang's profile API; unset means the offline resolver (offline-mode UUIDs, generated skins). */
  minecraft: { apiUrl: string | undefined; sessionUrl: string };
  webDir: string;
  contentDir: string;
  version: string;
  /** Game hosting: which driver, and its settings (handed as is to the runtime's createRuntime). */
  game: DriverConfig;
  /** Where world backups are kept (handed as is to the storage's createStore). */
  backupStore: StoreConfig;
  /** Where uploaded images are kept: the backups' bucket, or DATA_DIR locally (keys under `media/`). */
  mediaStore: StoreConfig;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function int(env: Env, name: string, def: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return def;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name}="${raw}" is invalid: expected a whole number from ${min} to ${max}`);
  }
  return n;
}

function decimal(env: Env, name: string, def: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return def;
  const n = Number(raw);
  if (!/^\d+(\.\d{1,2})?$/.test(raw) || n < min || n > max) throw new ConfigError(`${name}="${raw}" is invalid: expected a number from ${min} to ${max}, at most 2 decimals`);
  return n;
}

function url(env: Env, name: string, def: string | undefined, protocols: string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return def;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name}="${raw}" is invalid: expected an absolute URL (${protocols.join(', ')})`);
  }
  if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
    throw new ConfigError(`${name}="${raw}" is invalid: expected a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`);
  }
  return raw.replace(/\/+$/, '');
}

function oneOf<T extends string>(env: Env, name: string, def: T, values: readonly T[]): T {
  const raw = read(env, name);
  if (raw === undefined) return def;
  if (!values.includes(raw as T)) throw new ConfigError(`${name}="${raw}" is invalid: expected one of ${values.join(', ')}`);
  return raw as T;
}

function bool(env: Env, name: string, def: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return def;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name}="${raw}" is invalid: expected true or false`);
}

function text(env: Env, name: string, pattern: RegExp, what: string): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  if (!pattern.test(raw)) throw new ConfigError(`${name} is invalid: expected ${what}`);
  return raw;
}

/** A host name, an IPv4 or an IPv6 address. */
const HOST_PATTERN = /^[A-Za-z0-9.-]{1,253}$|^[0-9A-Fa-f:]{2,39}$/;

function portRange(env: Env, name: string, def: string): { from: number; to: number } {
  const raw = read(env, name) ?? def;
  const m = /^(\d{4,5})-(\d{4,5})$/.exec(raw);
  const [from, to] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
  if (!m || from < 1024 || to > 65535 || to <= from) {
    throw new ConfigError(`${name}="${raw}" is invalid: expected a range of at least two ports like 25565-25664, from 1024 to 65535`);
  }
  return { from, to };
}

/** The in-cluster defaults: a pod reaches the API and finds its service account token and CA there. */
const inCluster = {
  apiUrl: 'https://kubernetes.default.svc',
  tokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token',
  caFile: '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
};

/** KUBERNETES_CA_FILE, checked now so a wrong path stops the start; else the pod's CA when there is one. */
function kubernetesCaFile(env: Env, cwd: string): string | undefined {
  const raw = read(env, 'KUBERNETES_CA_FILE');
  if (raw === undefined) return fs.existsSync(inCluster.caFile) ? inCluster.caFile : undefined;
  const file = path.resolve(cwd, raw);
  let pem: string;
  try {
    pem = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`KUBERNETES_CA_FILE="${raw}" is invalid: expected a readable PEM file of CA certificates (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(`KUBERNETES_CA_FILE="${raw}" is invalid: expected a PEM file of CA certificates (-----BEGIN CERTIFICATE-----)`);
  return file;
}

/** The settings a kubeconfig's current context stands in for. */
const explicitKubernetes = ['KUBERNETES_API_URL', 'KUBERNETES_TOKEN', 'KUBERNETES_TOKEN_FILE', 'KUBERNETES_CA_FILE'];

/**
 * KUBECONFIG (GAME_DRIVER=agones): one kubeconfig file, checked now so a wrong path or a file
 * without a usable current context stops the start; not beside the settings it stands in for.
 */
function kubeconfigFile(env: Env, cwd: string): string | undefined {
  const raw = read(env, 'KUBECONFIG');
  if (raw === undefined) return undefined;
  const both = explicitKubernetes.filter((name) => read(env, name) !== undefined);
  if (both.length > 0) throw new ConfigError(`KUBECONFIG is set with ${both.join(', ')}: the kubeconfig's current context gives the cluster and credentials, so set one or the other`);
  const file = path.resolve(cwd, raw);
  try {
    readKubeconfig(file);
  } catch (err) {
    const error = err as NodeJS.ErrnoException;
    const reason = error.syscall ? error.code : error.message.split('\n')[0];
    throw new ConfigError(`KUBECONFIG="${raw}" is invalid: expected a readable kubeconfig file with a current context (${reason})`);
  }
  return file;
}

function gameConfig(env: Env, cwd: string, publicUrl: string, dataDir: string): DriverConfig {
  const driver = oneOf(env, 'GAME_DRIVER', 'local', gameDrivers);
  const jarRaw = read(env, 'MC_SERVER_JAR');
  const serverJar = jarRaw === undefined ? undefined : path.resolve(cwd, jarRaw);
  if (serverJar !== undefined && (!serverJar.endsWith('.jar') || !fs.existsSync(serverJar))) {
    throw new ConfigError(`MC_SERVER_JAR="${jarRaw}" is invalid: expected the path of an existing .jar file`);
  }
  const token = text(env, 'KUBERNETES_TOKEN', /^[\w.-]{1,4096}$/, 'a bearer token');
  const tokenFile = path.resolve(cwd, read(env, 'KUBERNETES_TOKEN_FILE') ?? inCluster.tokenFile);
  const caFile = kubernetesCaFile(env, cwd);
  const namespace = text(env, 'KUBERNETES_NAMESPACE', /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'a Kubernetes namespace name');
  const kubeconfig = driver === 'agones' ? kubeconfigFile(env, cwd) : undefined;
  if (driver === 'agones' && !kubeconfig && token === undefined && !fs.existsSync(tokenFile)) {
    throw new ConfigError(`KUBERNETES_TOKEN is required when GAME_DRIVER=agones and no token file is at ${tokenFile} (KUBERNETES_TOKEN_FILE)`);
  }
  // A kubeconfig's context is the cluster and the user: only the namespace may be set beside it.
  const access = kubeconfig
    ? { kubeconfig, ...(namespace ? { namespace } : {}) }
    : { apiUrl: url(env, 'KUBERNETES_API_URL', inCluster.apiUrl, ['https', 'http'])!, ...(token ? { token } : { tokenFile }), ...(caFile ? { caFile } : {}), namespace: namespace ?? 'default' };
  return {
    driver,
    dataDir,
    host: text(env, 'GAME_HOST', HOST_PATTERN, 'a host name or IP address') ?? new URL(publicUrl).hostname,
    portRange: portRange(env, 'GAME_PORT_RANGE', '25566-25665'),
    ...(serverJar ? { serverJar } : {}),
    kubernetes: {
      ...access,
      image: text(env, 'AGONES_IMAGE', /^[\w./:@-]{1,255}$/, 'a container image reference') ?? 'itzg/minecraft-server',
      worldSize: text(env, 'AGONES_WORLD_SIZE', /^\d{1,6}(Mi|Gi|Ti)$/, 'a volume size like 2Gi') ?? '2Gi',
      toolImage: text(env, 'AGONES_TOOL_IMAGE', /^[\w./:@-]{1,255}$/, 'a container image reference'),
    },
  };
}

/**
 * GAME_GATEWAY_PORT (a port, 0 for any free one, or `off`; unset is off, and `npm start` sets 25565;
 * 25565 when GAME_GATEWAY_PROCESS is on), GAME_DOMAIN (a host name, `localhost` by default), and a
 * gateway process's settings.
 */
function gatewayConfig(env: Env, apiPort: number): Config['gateway'] {
  const separate = bool(env, 'GAME_GATEWAY_PROCESS', false);
  const raw = read(env, 'GAME_GATEWAY_PORT');
  let port = raw === undefined || raw === 'off' ? null : Number(raw);
  if (port !== null && (!/^\d{1,5}$/.test(raw!) || port > 65535)) throw new ConfigError(`GAME_GATEWAY_PORT="${raw}" is invalid: expected a port from 0 to 65535, or off`);
  if (separate && raw === 'off') throw new ConfigError('GAME_GATEWAY_PORT=off and GAME_GATEWAY_PROCESS=true: a gateway process serves the port players reach, give it one');
  if (separate) port ??= 25565;
  const domain =
    text(env, 'GAME_DOMAIN', /^(?=.{1,200}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/, 'a lowercase host name such as play.example.com') ?? 'localhost';
  return {
    port,
    domain,
    process: separate,
    apiUrl: url(env, 'GAME_GATEWAY_API_URL', `http://127.0.0.1:${apiPort}`, ['http', 'https'])!.replace(/\/+$/, ''),
    maxConnections: int(env, 'GAME_GATEWAY_MAX_CONNECTIONS', 5000, 1, 1_000_000),
    connectionsPerAddress: int(env, 'GAME_GATEWAY_CONNECTIONS_PER_ADDRESS', 50, 1, 1_000_000),
  };
}

/** MUMBLE_HOST and MUMBLE_PORT: a voice server, or none; a port without a host is a mistake, not a default. */
function mumbleConfig(env: Env): Config['mumble'] {
  const host = text(env, 'MUMBLE_HOST', HOST_PATTERN, 'a host name or IP address');
  const port = int(env, 'MUMBLE_PORT', 64738, 1, 65535);
  if (host === undefined) {
    if (read(env, 'MUMBLE_PORT') !== undefined) throw new ConfigError('MUMBLE_PORT is set but MUMBLE_HOST is not: set the Mumble server’s host too, or neither');
    return null;
  }
  return { host, port };
}

/** BACKUP_STORE and S3_*: a folder under DATA_DIR, or a bucket whose name and keys are then required. */
function backupStoreConfig(env: Env, dataDir: string): StoreConfig {
  const kind = oneOf(env, 'BACKUP_STORE', 'local', ['local', 's3'] as const);
  if (kind === 'local') return { kind, root: path.join(dataDir, 'backups') };
  const required = (name: string, value: string | undefined): string => {
    if (value === undefined) throw new ConfigError(`${name} is required when BACKUP_STORE=s3`);
    return value;
  };
  return {
    kind,
    endpoint: url(env, 'S3_ENDPOINT', undefined, ['https', 'http']),
    region: text(env, 'S3_REGION', /^[a-z0-9-]{1,40}$/, 'a region name such as us-east-1') ?? 'us-east-1',
    bucket: required('S3_BUCKET', text(env, 'S3_BUCKET', /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'a bucket name: 3 to 63 lower-case letters, digits, "." or "-"')),
    accessKeyId: required('S3_ACCESS_KEY_ID', text(env, 'S3_ACCESS_KEY_ID', /^\S{1,256}$/, 'an access key id')),
    secretAccessKey: required('S3_SECRET_ACCESS_KEY', text(env, 'S3_SECRET_ACCESS_KEY', /^\S{1,256}$/, 'a secret access key')),
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
  };
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const port = int(env, 'PORT', 8080, 0, 65535);
  const host = read(env, 'HOST') ?? '0.0.0.0';
  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port}`, ['http', 'https'])!;
  const dataDir = path.resolve(cwd, read(env, 'DATA_DIR') ?? './data');
  const embeddedIssuer = `${publicUrl}/oidc`;
  const issuer = url(env, 'OIDC_ISSUER', embeddedIssuer, ['http', 'https'])!;
  const socialDefault = (name: string, def: string) => url(env, name, def, ['https', 'http'])!;
  const backupStore = backupStoreConfig(env, dataDir);
  const game = gameConfig(env, cwd, publicUrl, dataDir);
  const gateway = gatewayConfig(env, port);
  if (gateway.port !== null && gateway.port >= game.portRange.from && gateway.port <= game.portRange.to) {
    throw new ConfigError(`GAME_GATEWAY_PORT=${gateway.port} is inside GAME_PORT_RANGE (${game.portRange.from}-${game.portRange.to}), whose ports the local driver gives its servers`);
  }
  return {
    port,
    host,
    publicUrl,
    dataDir,
    databaseUrl: url(env, 'DATABASE_URL', undefined, ['postgres', 'postgresql']),
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    trustProxy: bool(env, 'TRUST_PROXY', false),
    oidc: {
      issuer,
      clientId: text(env, 'OIDC_CLIENT_ID', /^[\w.-]{1,100}$/, 'letters, digits, "_", "." or "-" (at most 100)') ?? 'web',
      audience: text(env, 'OIDC_AUDIENCE', /^[\w.:/-]{1,200}$/, 'an audience name or URL') ?? 'api',
      embedded: issuer === embeddedIssuer,
      keysFile: path.resolve(cwd, read(env, 'OIDC_KEYS_FILE') ?? path.join(dataDir, 'oidc-keys.json')),
    },
    redis: {
      url: url(env, 'REDIS_URL', undefined, ['redis', 'rediss']),
      keyPrefix: text(env, 'REDIS_KEY_PREFIX', /^[\w:.-]{1,64}$/, 'letters, digits, "_", ":", "." or "-" (at most 64)') ?? 'blockhost:',
    },
    rateLimit: {
      apiPerMinute: int(env, 'RATE_LIMIT_API_PER_MINUTE', 1200, 1, 10_000_000),
      signInPerMinute: int(env, 'RATE_LIMIT_SIGNIN_PER_MINUTE', 10, 1, 10_000_000),
    },
    streams: {
      perUser: int(env, 'STREAMS_PER_USER', 10, 1, 1000),
      perAddress: int(env, 'STREAMS_PER_ADDRESS', 200, 1, 1_000_000),
    },
    internalToken: text(env, 'INTERNAL_TOKEN', /^.{16,200}$/, 'a secret of 16 to 200 characters'),
    mail: {
      smtpUrl: url(env, 'SMTP_URL', undefined, ['smtp', 'smtps']),
      from:
        text(env, 'MAIL_FROM', /^(?:[^<>\p{Cc}]{1,100} <[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/u, 'an address, alone or as "Name <address>"') ??
        `BlockHost <no-reply@${new URL(publicUrl).hostname}>`,
      outbox: path.join(dataDir, 'outbox'),
    },
    games: {
      startTimeoutMs: int(env, 'GAME_START_TIMEOUT_SECONDS', 90, 5, 3600) * 1000,
      reconcileIntervalMs: int(env, 'GAME_RECONCILE_INTERVAL_MS', 2000, 100, 600_000),
      usageSampleMs: int(env, 'USAGE_SAMPLE_INTERVAL_MS', 60_000, 1000, 600_000),
      lockMs: int(env, 'GAME_LOCK_SECONDS', 60, 5, 3600) * 1000,
    },
    accountDeletion: { leaseMs: int(env, 'ACCOUNT_DELETION_LEASE_SECONDS', 300, 5, 3600) * 1000 },
    gateway,
    stripe: {
      secretKey: text(env, 'STRIPE_SECRET_KEY', /^sk_(test|live)_\w+$/, 'a Stripe secret key (sk_test_... or sk_live_...)'),
      webhookSecret: text(env, 'STRIPE_WEBHOOK_SECRET', /^whsec_\w+$/, 'a Stripe webhook secret (whsec_...)'),
      publishableKey: text(env, 'STRIPE_PUBLISHABLE_KEY', /^pk_(test|live)_\w+$/, 'a Stripe publishable key (pk_test_... or pk_live_...)'),
      apiUrl: url(env, 'STRIPE_API_URL', undefined, ['https', 'http']),
    },
    invoices: {
      sellerName: text(env, 'INVOICE_SELLER_NAME', /^\P{Cc}{1,120}$/u, 'a name of at most 120 characters') ?? 'BlockHost SAS',
      sellerAddress:
        text(env, 'INVOICE_SELLER_ADDRESS', /^\P{Cc}{1,400}$/u, 'an address of at most 400 characters (\\n between lines)')?.replaceAll('\\n', '\n') ?? '1 rue de l’Exemple\n75000 Paris\nFrance',
      sellerVatId: text(env, 'INVOICE_SELLER_VAT_ID', /^[A-Z]{2}[A-Z0-9]{2,13}$/, 'a VAT number such as FR12345678901') ?? null,
      vatRatePercent: decimal(env, 'INVOICE_VAT_RATE', 20, 0, 50),
      sellerPlaceholder: read(env, 'INVOICE_SELLER_ADDRESS') === undefined,
    },
    renewals: {
      noticeDays: int(env, 'RENEWAL_NOTICE_DAYS', 3, 0, 60),
      retentionDays: int(env, 'GAME_RETENTION_DAYS', 30, 7, 3650),
      intervalMs: int(env, 'RENEWAL_INTERVAL_MS', 60_000, 1000, 3_600_000),
    },
    social: {
      discord: socialDefault('SOCIAL_DISCORD_URL', 'https://discord.gg/blockhost'),
      twitter: socialDefault('SOCIAL_TWITTER_URL', 'https://x.com/blockhost'),
      youtube: socialDefault('SOCIAL_YOUTUBE_URL', 'https://www.youtube.com/@blockhost'),
      instagram: socialDefault('SOCIAL_INSTAGRAM_URL', 'https://www.instagram.com/blockhost'),
    },
    mumble: mumbleConfig(env),
    minecraft: {
      apiUrl: url(env, 'MOJANG_API_URL', undefined, ['https', 'http']),
      sessionUrl: url(env, 'MOJANG_SESSION_URL', 'https://sessionserver.mojang.com', ['https', 'http'])!,
    },
    webDir: path.resolve(cwd, read(env, 'WEB_DIR') ?? 'dist/web'),
    contentDir: path.resolve(cwd, read(env, 'CONTENT_DIR') ?? 'content'),
    version: read(env, 'APP_VERSION') ?? process.env.npm_package_version ?? '0.0.0',
    game,
    backupStore,
    // One bucket for both, so replicas share images as they share backups.
    mediaStore: backupStore.kind === 's3' ? backupStore : { kind: 'local', root: dataDir },
  };
}
