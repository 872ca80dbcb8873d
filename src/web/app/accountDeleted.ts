/**
 * What the home page says once an account is deleted: the sign-out goes through the provider and
 * back, so the number of credits lost waits in the tab's session storage, read once.
 */
const KEY = 'blockhost:account-deleted';

export function rememberAccountDeleted(creditsForfeited: number): void {
  try {
    sessionStorage.setItem(KEY, String(creditsForfeited));
  } catch {
    // Storage refused (privacy settings): the home page simply says nothing.
  }
}

/** The credits lost by the account deleted in this tab, once; null when none was. */
export function takeAccountDeleted(): number | null {
  try {
    const value = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return value === null ? null : Number(value);
  } catch {
    return null;
  }
}
