import { Type, type Static } from 'typebox';

export const locales = ['fr', 'en'] as const;
export type Locale = (typeof locales)[number];

const TocEntry = Type.Object({ id: Type.String(), depth: Type.Integer(), text: Type.String() });

/** A content page as `GET /_content/query/{locale}/{path}` answers it (docs/product.md, Routes: the catch-all's fields). */
export const ContentDoc = Type.Object({
  path: Type.String(),
  locale: Type.String(),
  title: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  layout: Type.String(),
  body: Type.String({ description: 'Markdown' }),
  excerpt: Type.Union([Type.String(), Type.Null()]),
  toc: Type.Union([Type.Array(TocEntry), Type.Null()]),
  navigation: Type.Union([Type.Object({ title: Type.String(), order: Type.Integer() }), Type.Null()]),
  redirect: Type.Union([Type.String(), Type.Null()]),
  /** Any other front-matter fields (a competition's date, status...). */
  meta: Type.Record(Type.String(), Type.Unknown()),
});
export type ContentDoc = Static<typeof ContentDoc>;

export const NavigationEntry = Type.Object({ path: Type.String(), title: Type.String(), order: Type.Integer() });
export type NavigationEntry = Static<typeof NavigationEntry>;

/** The anchor of a heading, the same on the server (table of contents) and in the rendered page. */
export function headingId(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
