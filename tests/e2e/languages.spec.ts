import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { SEED_PACKS } from '../../src/server/db/seed.ts';
import { accessToken, accounts, expect, signIn, test } from './fixtures.ts';

type Lang = 'fr' | 'en';

/** Every text of one language's locale files, placeholders left out. */
function texts(lang: Lang): string[] {
  const dir = path.join('locales', lang);
  const out: string[] = [];
  const walk = (node: unknown) => {
    if (typeof node === 'string') out.push(node.replace(/\{\{[^}]*\}\}/g, ' ').replace(/<[^>]*>/g, ' '));
    else if (node && typeof node === 'object') for (const value of Object.values(node)) walk(value);
  };
  // identity.json is the sign-in pages' own, drawn by the server, not by these pages.
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'identity.json')) walk(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
  return out;
}

/** The words of one language's markdown pages (content/{lang}): a page's own words, whatever the locale files hold. */
function pages(lang: Lang): string[] {
  const dir = path.join('content', lang);
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
}

const words = (text: string) => text.toLowerCase().match(/\p{L}{4,}/gu) ?? [];
const vocabulary = (lang: Lang) => new Set(texts(lang).flatMap(words));
const fr = vocabulary('fr');
const en = vocabulary('en');
/**
 * Words only one language's locale files use: seen on a page in the other language, they are a slip.
 * A word both languages spell alike ("invite") is the page's own when its language's pages use it.
 */
const own = (lang: Lang) => new Set([...vocabulary(lang), ...pages(lang).flatMap(words)]);
const ownFr = own('fr');
const ownEn = own('en');
/** The seeded credit packs' labels: written by staff in each language, so the locale files do not hold them. */
const packWords = (lang: Lang) => SEED_PACKS.flatMap((p) => (p.label ? words(p.label[lang]) : []));
const onlyIn: Record<Lang, Set<string>> = {
  fr: new Set([...fr, ...packWords('fr')].filter((w) => !ownEn.has(w) && !packWords('en').includes(w))),
  en: new Set([...en, ...packWords('en')].filter((w) => !ownFr.has(w) && !packWords('fr').includes(w))),
};
/** A number grouped the other language's way: "1 300" (narrow or plain no-break space) on an English page, "1,300" on a French one. */
const otherGrouping: Record<Lang, RegExp> = { en: /\d[\u00a0\u202f]\d{3}(?!\d)/g, fr: /\d,\d{3}(?!\d)/g };

/** What a person reads on the page, and what a screen reader says: the visible text, then every aria-label and title. */
async function readable(page: Page): Promise<string> {
  return page.evaluate(() => {
    const labels = [...document.querySelectorAll('[aria-label], [title], img[alt]')].map((el) =>
      [el.getAttribute('aria-label'), el.getAttribute('title'), el.getAttribute('alt')].filter(Boolean).join(' '),
    );
    return `${document.body.innerText}\n${labels.join('\n')}`;
  });
}

/** The page at `path` once drawn: its heading shown, no placeholder or spinner left. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('main h1').first()).toBeVisible();
  await expect(page.locator('.MuiSkeleton-root')).toHaveCount(0);
  await expect(page.getByRole('progressbar')).toHaveCount(0);
}

const signedOut = ['/', '/store', '/ranked', '/about', '/credits'];
const signedInPages = ['/dashboard', '/dashboard/account', '/dashboard/social', '/dashboard/profil', '/dashboard/notifications', '/dashboard/store'];

/**
 * What players wrote, in whichever language they write it (other tests on this server write reviews
 * and name servers in French): shown as written, so left out of what the page's language must say.
 */
type PlayersWords = () => Promise<string[]>;

/** For each page, the other language's words it shows, leaving out what players wrote. */
async function slips(page: Page, lang: Lang, paths: string[], playersWords: PlayersWords): Promise<string[]> {
  const other = onlyIn[lang === 'fr' ? 'en' : 'fr'];
  const found: string[] = [];
  for (const p of paths) {
    await open(page, `/${lang}${p === '/' ? '' : p}`);
    // Read after the page: whatever players wrote before it was drawn is in the list.
    let text = await readable(page);
    for (const written of (await playersWords()).sort((a, b) => b.length - a.length)) text = text.split(written).join(' ');
    const foreign = [...new Set([...words(text).filter((w) => other.has(w)), ...(text.match(otherGrouping[lang]) ?? [])])];
    if (foreign.length) found.push(`/${lang}${p}: ${foreign.join(', ')}`);
  }
  return found;
}

for (const lang of ['fr', 'en'] as const) {
  test(`the main pages in ${lang === 'fr' ? 'French' : 'English'} show no word of the other language, signed out and signed in`, async ({ page, request }) => {
    test.setTimeout(240_000);
    // A game's page too: its reviews' stars and, signed in, the review form.
    const definitions = (await (await request.get('/v1/definition/game/list?size=1')).json()) as { data: Array<{ id: string }> };
    const definitionId = definitions.data[0]!.id;
    const product = `/products/${definitionId}`;
    let auth: Record<string, string> = {};
    const playersWords: PlayersWords = async () => {
      const reviews = (await (await request.get(`/v1/game/review/${definitionId}?page=0&size=100`)).json()) as { data: Array<{ comment: string | null; author: { name: string } }> };
      const games = auth.authorization ? ((await (await request.get('/v1/game?size=100', { headers: auth })).json()) as { data: Array<{ name: string }> }).data : [];
      return [...reviews.data.flatMap((r) => [r.comment ?? '', r.author.name]), ...games.map((g) => g.name)].filter(Boolean);
    };
    const out = await slips(page, lang, [...signedOut, product], playersWords);
    await signIn(page, accounts.alice);
    // A pack bought by card (the sandbox): the account page lists its invoice line, and a balance of
    // 1 000 credits or more, grouped as the page's language writes it.
    auth = { authorization: `Bearer ${await accessToken(page)}` };
    const packs = (await (await request.get('/v1/pricing')).json()) as { data: Array<{ id: string }> };
    const checkout = (await (await request.post('/v1/payment/stripe', { headers: auth, data: { pricingId: packs.data[0]!.id } })).json()) as { paymentId: string };
    expect((await request.post(`/v1/payment/sandbox/${checkout.paymentId}/confirm`, { headers: auth, data: { cardNumber: '4242424242424242' } })).status()).toBe(200);
    const inside = await slips(page, lang, [...signedInPages, `/dashboard${product}`], playersWords);
    expect([...out, ...inside]).toEqual([]);
  });
}
