/**
 * What the gateway says to a player itself. A handshake carries no language (the client's locale
 * comes later, in play), so each text is French, the platform's default, then English after a
 * slash; a status answer's MOTD has two lines and gives each language its own.
 */

export interface GatewayText {
  /** Two lines for a server list entry. */
  motd: string;
  /** One line for a refused login. */
  reason: string;
  /** The version a server list entry names (BlockHost when absent). */
  version?: string;
}

/** A host name as it may be echoed back: no formatting codes, no control characters, bounded. */
function shown(host: string): string {
  const clean = host.replace(/[^a-z0-9.\-:]/g, '');
  return clean.length > 64 ? `${clean.slice(0, 63)}…` : clean;
}

function both(fr: string, en: string): GatewayText {
  return { motd: `§c${fr}\n§7${en}`, reason: `${fr} / ${en}` };
}

export const words = {
  unknown: (host: string) => both(`Le serveur « ${shown(host)} » n'existe pas.`, `Server "${shown(host)}" does not exist.`),
  stopped: (host: string) => both(`Le serveur « ${shown(host)} » est arrêté : son propriétaire peut le démarrer.`, `Server "${shown(host)}" is stopped: its owner can start it.`),
  unreachable: (host: string) => both(`Le serveur « ${shown(host)} » ne répond pas, réessayez dans un instant.`, `Server "${shown(host)}" is not answering, try again shortly.`),
  /** A sleeping game's list entry: its own MOTD (formatting kept, one line), then ours. */
  sleeping: (motd: string, version: string): GatewayText => ({
    motd: `${motd.split('\n')[0] ?? ''}\n§eEn veille, se réveille quand vous rejoignez / §7Asleep, wakes when you join`,
    reason: '',
    version,
  }),
  notWhitelisted: (host: string) => both(`Vous n'êtes pas sur la liste blanche de « ${shown(host)} ».`, `You are not whitelisted on "${shown(host)}".`),
  banned: (host: string) => both(`Vous êtes banni de « ${shown(host)} ».`, `You are banned from "${shown(host)}".`),
  wakeLimited: (host: string) => both(`Trop de réveils de « ${shown(host)} », réessayez dans quelques minutes.`, `Too many wakes of "${shown(host)}", try again in a few minutes.`),
  wakeFailed: (host: string) => both(`Le serveur « ${shown(host)} » n'a pas pu se réveiller, réessayez plus tard.`, `Server "${shown(host)}" could not wake up, try again later.`),
  /** The gateway holds as many connections as it may: its own words, no server named. */
  full: both('Trop de joueurs se connectent en ce moment, réessayez dans un instant.', 'Too many players are connecting right now, try again shortly.'),
  tooManyFromAddress: both('Trop de connexions depuis votre adresse, fermez-en avant de réessayer.', 'Too many connections from your address, close some and try again.'),
  /** The one line a pre-1.7 client's list shows. */
  oldClient: 'Client trop ancien : utilisez Minecraft 1.7 ou plus récent / Please use Minecraft 1.7 or newer',
};
