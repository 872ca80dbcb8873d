import { generatedSkin } from './skins.ts';
import { offlineUuid } from '../../../runtime/minecraft/player-lists.ts';

export interface MinecraftAccount {
  /** Dashed, lower-case UUID. */
  uuid: string;
  name: string;
}

export interface MinecraftProfile extends MinecraftAccount {
  /** The skin PNG. */
  skin: Buffer;
}

/** The profile service could not answer (rate limit, outage, timeout): try the cache, else 503. */
export class ResolverUnavailable extends Error {}

/** Where Minecraft names, UUIDs and skins come from. `null` means the account does not exist. */
export interface MinecraftResolver {
  byName(name: string): Promise<MinecraftAccount | null>;
  /** `knownName` is the cached name, for resolvers that cannot find a name from a UUID. */
  profile(uuid: string, knownName: string | undefined): Promise<MinecraftProfile | null>;
}

function dashed(hex: string): string {
  const h = hex.replaceAll('-', '').toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** No outside service: every valid name exists, as on an offline-mode server, with a generated skin. */
export class OfflineResolver implements MinecraftResolver {
  async byName(name: string): Promise<MinecraftAccount> {
    return { uuid: offlineUuid(name), name };
  }

  async profile(uuid: string, knownName: string | undefined): Promise<MinecraftProfile | null> {
    // An offline UUID is a hash: without a name seen before there is nothing to go back to.
    if (!knownName || offlineUuid(knownName) !== uuid) return null;
    return { uuid, name: knownName, skin: generatedSkin(knownName) };
  }
}

const TIMEOUT_MS = 5000;
const MAX_SKIN_BYTES = 256 * 1024;
/** After a 429, calls wait this long (or Mojang's Retry-After, up to 10 minutes) instead of adding to the limit. */
const RATE_LIMIT_PAUSE_MS = 30_000;

/**
 * Mojang's public APIs: the profile API (name to UUID) and the session server (UUID to name and
 * skin). Both answer 204 or 404 for an unknown account and 429 when rate limited.
 */
export class MojangResolver implements MinecraftResolver {
  private readonly apiUrl: string;
  private readonly sessionUrl: string;
  private pausedUntil = 0;
  constructor(apiUrl: string, sessionUrl: string) {
    this.apiUrl = apiUrl;
    this.sessionUrl = sessionUrl;
  }

  async byName(name: string): Promise<MinecraftAccount | null> {
    const body = await this.json(`${this.apiUrl}/users/profiles/minecraft/${encodeURIComponent(name)}`);
    if (!body) return null;
    const { id, name: current } = body as { id?: unknown; name?: unknown };
    if (typeof id !== 'string' || !/^[0-9a-f]{32}$/i.test(id.replaceAll('-', '')) || typeof current !== 'string') throw new ResolverUnavailable('unexpected profile answer');
    return { uuid: dashed(id), name: current };
  }

  async profile(uuid: string): Promise<MinecraftProfile | null> {
    const body = (await this.json(`${this.sessionUrl}/session/minecraft/profile/${uuid.replaceAll('-', '')}`)) as {
      id?: unknown;
      name?: unknown;
      properties?: { name?: unknown; value?: unknown }[];
    } | null;
    if (!body) return null;
    if (typeof body.name !== 'string') throw new ResolverUnavailable('unexpected session answer');
    const textures = body.properties?.find((p) => p.name === 'textures')?.value;
    let skinUrl: string | undefined;
    if (typeof textures === 'string') {
      try {
        skinUrl = (JSON.parse(Buffer.from(textures, 'base64').toString('utf8')) as { textures?: { SKIN?: { url?: string } } }).textures?.SKIN?.url;
      } catch {
        skinUrl = undefined;
      }
    }
    // No custom skin: the game shows a default one; ours is generated from the name.
    const skin = skinUrl ? await this.download(skinUrl) : generatedSkin(body.name);
    return { uuid, name: body.name, skin };
  }

  private async fetch(url: string): Promise<Response> {
    if (Date.now() < this.pausedUntil) throw new ResolverUnavailable('Mojang rate limit');
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'application/json' } });
    } catch (err) {
      throw new ResolverUnavailable(`Mojang unreachable: ${(err as Error).message}`);
    }
    if (res.status === 429) {
      const retryAfter = Number(res.headers.get('retry-after'));
      this.pausedUntil = Date.now() + (retryAfter > 0 ? Math.min(retryAfter * 1000, 600_000) : RATE_LIMIT_PAUSE_MS);
      throw new ResolverUnavailable('Mojang rate limit');
    }
    if (res.status >= 500) throw new ResolverUnavailable(`Mojang answered ${res.status}`);
    return res;
  }

  private async json(url: string): Promise<unknown> {
    const res = await this.fetch(url);
    if (res.status === 204 || res.status === 404) return null;
    if (!res.ok) throw new ResolverUnavailable(`Mojang answered ${res.status}`);
    try {
      return await res.json();
    } catch {
      throw new ResolverUnavailable('Mojang answered something other than JSON');
    }
  }

  private async download(url: string): Promise<Buffer> {
    if (!/^https?:\/\//.test(url)) throw new ResolverUnavailable('unexpected skin URL');
    const res = await this.fetch(url);
    if (!res.ok) throw new ResolverUnavailable(`skin download answered ${res.status}`);
    if (Number(res.headers.get('content-length') ?? 0) > MAX_SKIN_BYTES) throw new ResolverUnavailable('skin too large');
    let bytes: Buffer;
    try {
      bytes = Buffer.from(await res.arrayBuffer());
    } catch (err) {
      // The body was cut or timed out half-way: as unavailable as no answer at all.
      throw new ResolverUnavailable(`skin download failed: ${(err as Error).message}`);
    }
    if (bytes.length > MAX_SKIN_BYTES) throw new ResolverUnavailable('skin too large');
    return bytes;
  }
}
