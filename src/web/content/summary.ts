import type { ContentDoc } from '../../contract/content.ts';

/** A page's description, else its excerpt, else its opening paragraph, as plain text. */
export function summary(doc: ContentDoc): string {
  const text = doc.description ?? doc.excerpt ?? doc.body.split(/\n\s*\n/)[0] ?? '';
  return text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`#>]/g, '').trim();
}
