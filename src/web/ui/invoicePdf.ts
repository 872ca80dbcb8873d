import { saveAuthorized } from './download.ts';

/** Downloads an invoice's PDF (`path` answers it with `Accept: application/pdf`), in the page's language, as `<number>.pdf`. */
export function downloadInvoicePdf(path: string, number: string, lang: string) {
  return saveAuthorized(path, `${number}.pdf`, { accept: 'application/pdf', 'accept-language': lang });
}
