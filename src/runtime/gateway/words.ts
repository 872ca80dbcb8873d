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
  /** The one line a pre-1.7 client's list shows. */
  oldClient: 'Client trop ancien : utilisez Minecraft 1.7 ou plus récent / Please use Minecraft 1.7 or newer',
};
