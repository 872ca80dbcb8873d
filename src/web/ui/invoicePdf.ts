import { ApiError, bearer } from '../app/api.ts';

/**
 * An invoice's PDF (`path` answers it with `Accept: application/pdf`), in the page's language. A
 * link cannot carry the bearer token, so the PDF is fetched and opened as a blob URL.
 */
export async function openInvoicePdf(path: string, number: string, lang: string) {
  // Opened before the fetch, while the click still counts as one: a tab opened after an await is blocked.
  const tab = window.open('', '_blank');
  try {
    const headers = new Headers({ accept: 'application/pdf', 'accept-language': lang });
    const token = bearer();
    if (token) headers.set('authorization', `Bearer ${token}`);
    const res = await fetch(path, { headers });
    if (!res.ok) throw new ApiError(res.status, res.headers.get('content-type')?.includes('json') ? await res.json().catch(() => undefined) : undefined);
    const url = URL.createObjectURL(await res.blob());
    if (tab) tab.location.href = url;
    else {
      // Pop-ups refused: download it instead.
      const link = Object.assign(document.createElement('a'), { href: url, download: `${number}.pdf` });
      link.click();
    }
    // The tab has read the blob by then; the URL need not live on.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (err) {
    tab?.close();
    throw err;
  }
}
