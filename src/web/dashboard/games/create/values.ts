import type { GameDefinition } from '../../../../contract/catalogue.ts';
import type { GameCreate, GameSettings } from '../../../../contract/games.ts';

export const gameModes = ['survival', 'creative', 'adventure', 'spectator'] as const;
export const difficulties = ['peaceful', 'easy', 'normal', 'hard'] as const;

/** The create form's values; `settings` is named as the API names it, so its field errors land on their fields. */
export interface CreateValues {
  packageId: string;
  name: string;
  settings: { motd: string; gameMode: NonNullable<GameSettings['gameMode']>; difficulty: NonNullable<GameSettings['difficulty']>; seed: string };
  autoRenew: boolean;
}

/** The cheapest package and the definition's own world settings, auto-renew on. */
export function defaultValues(definition: GameDefinition): CreateValues {
  const defaults = definition.settings;
  const cheapest = [...definition.packages].sort((a, b) => a.priceCredits - b.priceCredits)[0];
  return {
    packageId: cheapest?.id ?? '',
    name: '',
    settings: { motd: defaults.motd ?? '', gameMode: defaults.gameMode ?? 'survival', difficulty: defaults.difficulty ?? 'normal', seed: defaults.seed ?? '' },
    autoRenew: true,
  };
}

/** The purchase as the API takes it: texts trimmed, an empty MOTD or seed left to the definition. */
export function toRequest(definitionId: string, v: CreateValues, promoCode: string | null): GameCreate {
  const settings: GameSettings = { gameMode: v.settings.gameMode, difficulty: v.settings.difficulty };
  if (v.settings.motd.trim()) settings.motd = v.settings.motd.trim();
  if (v.settings.seed.trim()) settings.seed = v.settings.seed.trim();
  return { definitionId, packageId: v.packageId, name: v.name.trim(), settings, autoRenew: v.autoRenew, ...(promoCode ? { promoCode } : {}) };
}
