/**
 * What the home page says once an account is deleted: the sign-out goes through the provider and
 * back, so the number of credits lost waits in the tab's session storage, said on each home page
 * until the person closes it (or ten minutes have passed).
 */
const KEY = 'blockhost:account-deleted';
const KEEP_MS = 10 * 60_000;

export function rememberAccountDeleted(creditsForfeited: number): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ credits: creditsForfeited, until: Date.now() + KEEP_MS }));
  } catch {
    // Storage refused (privacy settings): the home page simply says nothing.
  }
}

/** The credits lost by the account deleted in this tab, while its word is still to be said; null otherwise. */
export function accountDeleted(): number | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as { credits: number; until: number } | null;
    if (saved && saved.until > Date.now()) return saved.credits;
    sessionStorage.removeItem(KEY);
  } catch {
    // Storage refused, or not ours: nothing to say.
  }
  return null;
}

/** The person closed the word: it is not said again. */
export function forgetAccountDeleted(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Storage refused: nothing was kept.
  }
}
