import { ApiError, bearer } from '../app/api.ts';

/**
 * Downloads an invoice's PDF (`path` answers it with `Accept: application/pdf`), in the page's
 * language, as `<number>.pdf`. A link cannot carry the bearer token, so the PDF is fetched and saved
 * through an object URL: a file named after the invoice is what a customer keeps and forwards, where
 * a blob tab would be nameless.
 */
export async function downloadInvoicePdf(path: string, number: string, lang: string) {
  const headers = new Headers({ accept: 'application/pdf', 'accept-language': lang });
  const token = bearer();
  if (token) headers.set('authorization', `Bearer ${token}`);
  const res = await fetch(path, { headers });
  if (!res.ok) throw new ApiError(res.status, res.headers.get('content-type')?.includes('json') ? await res.json().catch(() => undefined) : undefined);
  const url = URL.createObjectURL(await res.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: `${number}.pdf` });
  document.body.append(link);
  link.click();
  link.remove();
  // The browser may read the URL after click() returns: let it live a minute, not the page's life.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
