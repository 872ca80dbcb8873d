import { ApiError, bearer } from '../app/api.ts';

/**
 * Has the browser download what `url` answers (a link that needs no token, which the API gave for a
 * short while): a click on a temporary `<a download>`, so the page stays where it is and the file
 * keeps the name the server gives it.
 */
export function downloadFrom(url: string) {
  const link = Object.assign(document.createElement('a'), { href: url, download: '', rel: 'noopener' });
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * Saves what an API path answers for the signed-in user as `filename`. A link cannot carry the
 * bearer token, so the file is fetched and saved through an object URL: a file named as it should
 * be (an invoice's number, the day of a data export) is what a person keeps and forwards, where a
 * blob tab would be nameless.
 */
export async function saveAuthorized(path: string, filename: string, headers: Record<string, string>) {
  const sent = new Headers(headers);
  const token = bearer();
  if (token) sent.set('authorization', `Bearer ${token}`);
  const res = await fetch(path, { headers: sent });
  if (!res.ok) throw new ApiError(res.status, res.headers.get('content-type')?.includes('json') ? await res.json().catch(() => undefined) : undefined);
  const url = URL.createObjectURL(await res.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  // The browser may read the URL after click() returns: let it live a minute, not the page's life.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
