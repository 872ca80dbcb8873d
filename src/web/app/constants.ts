/** The constants of docs/product.md (Constants), in one place. */
export const SESSION_REFRESH_MS = 60_000;
export const LOGOUT_DELAY_MS = 250;
export const HEADER_TRANSPARENT_BELOW_PX = 50;
export const LOCALE_COOKIE = 'locale';
export const LOCALE_COOKIE_DAYS = 365;
export const UNREAD_PAGE_SIZE = 20;
export const LOADING_BAR_DURATION_MS = 2_000;
export const LOADING_BAR_THROTTLE_MS = 200;
export const CHUNK_RELOAD_GUARD_MS = 10_000;
export const BUILD_POLL_MS = 5 * 60_000;
export const THEME_KEY = 'preferredTheme';
