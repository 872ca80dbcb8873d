import type { ContentDoc } from '../../contract/content.ts';

/** A page's description, else its excerpt, else its opening paragraph, as plain text. */
export function summary(doc: ContentDoc): string {
  const text = doc.description ?? doc.excerpt ?? doc.body.split(/\n\s*\n/)[0] ?? '';
  return text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`#>]/g, '').trim();
}

/** A front-matter date (YYYY-MM-DD) in the reader's language. */
export function formatDate(value: unknown, lang: string): string | null {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return null;
  return new Date(value).toLocaleDateString(lang, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}
