import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { headingId, locales, type ContentDoc, type Locale, type NavigationEntry } from '../../../contract/content.ts';

const MORE = '<!--more-->';

/** Splits `---` front matter from the markdown body. */
function splitFrontMatter(source: string): { data: Record<string, unknown>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!match) return { data: {}, body: source };
  const data = parseYaml(match[1]!) as unknown;
  return { data: data && typeof data === 'object' ? (data as Record<string, unknown>) : {}, body: source.slice(match[0].length) };
}

function tableOfContents(markdown: string) {
  const entries = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^(#{2,3})\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) entries.push({ id: headingId(m[2]!), depth: m[1]!.length, text: m[2]! });
  }
  return entries;
}

/** Fills `{{operator.field}}` with the operator's details (content/operator.json and the invoices' seller). */
function fillOperator(markdown: string, operator: Record<string, string>): string {
  return markdown.replace(/\{\{\s*operator\.(\w+)\s*\}\}/g, (whole, field: string) => operator[field] ?? whole);
}

function parseDoc(locale: Locale, docPath: string, source: string, operator: Record<string, string> = {}): ContentDoc {
  const { data, body: raw } = splitFrontMatter(source);
  const body = fillOperator(raw, operator);
  const { title, description, layout, toc, navigation, redirect, ...meta } = data;
  const cut = body.indexOf(MORE);
  const nav = navigation === false || navigation === undefined ? null : (navigation as { title?: string; order?: number } | true);
  const docTitle = typeof title === 'string' ? title : docPath;
  return {
    path: docPath,
    locale,
    title: docTitle,
    description: typeof description === 'string' ? description : null,
    layout: typeof layout === 'string' ? layout : 'page',
    body: body.replace(MORE, ''),
    excerpt: cut >= 0 ? body.slice(0, cut).trim() : null,
    toc: toc === true ? tableOfContents(body) : null,
    navigation: nav ? { title: (nav !== true && nav.title) || docTitle, order: (nav !== true && nav.order) || 0 } : null,
    redirect: typeof redirect === 'string' ? redirect : null,
    meta: JSON.parse(JSON.stringify(meta)) as Record<string, unknown>,
  };
}

/**
 * The markdown pages of content/{fr,en}, read once at start: `about.md` is `/about`,
 * `ranked/index.md` is `/ranked`, `ranked/spring-cup.md` is `/ranked/spring-cup`.
 */
export class ContentService {
  private readonly docs = new Map<string, ContentDoc>();

  /**
   * `seller` is who issues the invoices (README, INVOICE_SELLER_*): the legal notice's name, address
   * and VAT number are theirs, so the two never tell different stories; operator.json holds the rest.
   */
  constructor(contentDir: string, seller: { name: string; address: string; vatId: string | null }) {
    const operatorFile = path.join(contentDir, 'operator.json');
    const operator = {
      ...(fs.existsSync(operatorFile) ? (JSON.parse(fs.readFileSync(operatorFile, 'utf8')) as Record<string, string>) : {}),
      name: seller.name,
      address: seller.address.split('\n').join(', '),
      vat: seller.vatId ?? '—',
    };
    for (const locale of locales) {
      const root = path.join(contentDir, locale);
      if (!fs.existsSync(root)) continue;
      for (const file of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
        if (!file.endsWith('.md')) continue;
        const rel = file.split(path.sep).join('/').replace(/\.md$/, '');
        const docPath = `/${rel.replace(/(^|\/)index$/, '')}`.replace(/\/$/, '') || '/';
        this.docs.set(`${locale}:${docPath}`, parseDoc(locale, docPath, fs.readFileSync(path.join(root, file), 'utf8'), operator));
      }
    }
  }

  get(locale: Locale, docPath: string): ContentDoc | undefined {
    const normalized = `/${docPath.replace(/^\/+|\/+$/g, '')}`;
    return this.docs.get(`${locale}:${normalized}`);
  }

  /** Pages directly under a folder (e.g. the competitions under /ranked), without the folder's own page. */
  list(locale: Locale, folder: string): ContentDoc[] {
    const prefix = `/${folder.replace(/^\/+|\/+$/g, '')}/`;
    return [...this.docs.values()].filter((d) => d.locale === locale && d.path.startsWith(prefix) && !d.path.slice(prefix.length).includes('/'));
  }

  navigation(locale: Locale): NavigationEntry[] {
    return [...this.docs.values()]
      .filter((d) => d.locale === locale && d.navigation)
      .map((d) => ({ path: d.path, title: d.navigation!.title, order: d.navigation!.order }))
      .sort((a, b) => a.order - b.order || a.title.localeCompare(b.title));
  }

  /** Every page path of any locale, for the server to tell a content page from an unknown one. */
  has(docPath: string): boolean {
    return locales.some((l) => this.get(l, docPath));
  }
}
