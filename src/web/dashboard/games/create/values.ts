import type { GameDefinition } from '../../../../contract/catalogue.ts';
import type { GameCreate, GameSettings } from '../../../../contract/games.ts';

export const gameModes = ['survival', 'creative', 'adventure', 'spectator'] as const;
export const difficulties = ['peaceful', 'easy', 'normal', 'hard'] as const;

/**
 * The create form's values, and what it sends (`toRequest`: the definition, a promo code, and no
 * empty MOTD or seed); `settings` is named as the API names it, so its field errors land on their fields.
 */
export interface CreateValues {
  definitionId?: string;
  packageId: string;
  name: string;
  /** The address name: the API's suggestion until the player types their own. */
  addressName?: string;
  settings: { motd?: string; gameMode: NonNullable<GameSettings['gameMode']>; difficulty: NonNullable<GameSettings['difficulty']>; seed?: string };
  autoRenew: boolean;
  promoCode?: string;
}

/** The cheapest package and the definition's own world settings, auto-renew on. */
export function defaultValues(definition: GameDefinition): CreateValues {
  const defaults = definition.settings;
  const cheapest = [...definition.packages].sort((a, b) => a.priceCredits - b.priceCredits)[0];
  return {
    packageId: cheapest?.id ?? '',
    name: '',
    addressName: '',
    settings: { motd: defaults.motd ?? '', gameMode: defaults.gameMode ?? 'survival', difficulty: defaults.difficulty ?? 'normal', seed: defaults.seed ?? '' },
    autoRenew: true,
  };
}

/** The purchase as the API takes it: texts trimmed, an empty MOTD or seed left to the definition, an empty address name to the API's suggestion. */
export function toRequest(definitionId: string, v: CreateValues, promoCode: string | null): GameCreate & CreateValues {
  const settings: CreateValues['settings'] = { gameMode: v.settings.gameMode, difficulty: v.settings.difficulty };
  const motd = v.settings.motd?.trim();
  const seed = v.settings.seed?.trim();
  if (motd) settings.motd = motd;
  if (seed) settings.seed = seed;
  const addressName = v.addressName?.trim();
  return { definitionId, packageId: v.packageId, name: v.name.trim(), ...(addressName ? { addressName } : {}), settings, autoRenew: v.autoRenew, ...(promoCode ? { promoCode } : {}) };
}
