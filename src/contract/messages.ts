/**
 * Messages stored as a key and parameters, not text: notifications and ledger reasons are rendered
 * in the reader's language, by the server (the user's saved locale) and by the web app (the
 * language on screen), from the same catalogues, locales/{fr,en}/messages.json. No schema library
 * here, so the web app imports no validator with it.
 */

export const locales = ['fr', 'en'] as const;
export type Locale = (typeof locales)[number];

/** Text written by staff in both languages (a package's name): the reader's language is taken. */
interface LocalizedParam {
  fr: string;
  en: string;
}

export type MessageParams = Record<string, string | number | LocalizedParam>;

/** A key of the catalogue and what fills its `{{placeholders}}`. */
export interface Message {
  key: string;
  params: MessageParams;
}

/** One language's messages.json: nested objects whose leaves are templates. */
export type Catalogue = { [name: string]: string | Catalogue };

const intlLocale = { fr: 'fr-FR', en: 'en-GB' } as const;

/**
 * Where and when a message is read. Server-rendered texts (a notice's stored words, an error's detail)
 * are read nobody knows where: UTC, said so. The web app renders the same key and parameters again in
 * the reader's own zone (`timeZone: undefined`, the browser's), where no zone needs naming.
 */
export interface ReadingOptions {
  /** An IANA zone; undefined is the runtime's own (the browser's). */
  timeZone?: string | undefined;
  /** The moment relative times count from, in ms (tests); now by default. */
  now?: number;
}

const SERVER_READING: ReadingOptions = { timeZone: 'UTC' };

/** A wait or an age as people say it ("dans 10 min", "in 2 hr", "il y a 3 jours"), from `ms` away. */
function relative(ms: number, locale: Locale): string {
  // Seconds and minutes short ("dans 10 min"), as people write them; hours and days in full ("il y a 3 jours", not "3 j").
  const short = new Intl.RelativeTimeFormat(intlLocale[locale], { numeric: 'auto', style: 'short' });
  const long = new Intl.RelativeTimeFormat(intlLocale[locale], { numeric: 'auto', style: 'long' });
  const seconds = Math.round(ms / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return short.format(seconds, 'second');
  if (abs < 3600) return short.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return long.format(Math.round(seconds / 3600), 'hour');
  return long.format(Math.round(seconds / 86_400), 'day');
}

/**
 * A parameter as the template asks: `{{until, datetime}}` and `{{day, date}}` take an ISO instant and
 * give it in the reader's words and zone; `{{next, relative}}` how far it is from now ("dans 10 min"), and
 * `{{seconds, relative}}` a number of seconds from now the same way;
 * a `{fr, en}` pair gives the reader's language (rows written before names had two languages hold a
 * plain string, shown as it is); anything else as it is.
 */
function formatParam(value: MessageParams[string] | undefined, format: string | undefined, locale: Locale, reading: ReadingOptions): string {
  if (value === undefined) return '';
  if (typeof value === 'object') return value[locale] ?? '';
  // A number of seconds from now (a wait the server counted on its own clock), or an instant.
  if (format === 'relative' && typeof value === 'number') return relative(value * 1000, locale);
  if (format === 'datetime' || format === 'date' || format === 'relative') {
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) return String(value);
    if (format === 'relative') return relative(date.getTime() - (reading.now ?? Date.now()), locale);
    const style = format === 'datetime' ? ({ dateStyle: 'long', timeStyle: 'short' } as const) : ({ dateStyle: 'long' } as const);
    const text = new Intl.DateTimeFormat(intlLocale[locale], { ...style, timeZone: reading.timeZone }).format(date);
    // A time read in UTC says so (nobody lives by it); in the reader's own zone it needs no name.
    return format === 'datetime' && reading.timeZone === 'UTC' ? `${text} UTC` : text;
  }
  return String(value);
}

/** Fills `{{name}}` and `{{name, format}}` placeholders; i18next's syntax, so one catalogue serves both. */
export function formatMessage(template: string, params: MessageParams, locale: Locale, reading: ReadingOptions = SERVER_READING): string {
  return template.replace(/\{\{\s*(\w+)\s*(?:,\s*(\w+)\s*)?\}\}/g, (_m, name: string, format?: string) => formatParam(params[name], format, locale, reading));
}

function lookup(catalogue: Catalogue, path: string): string | Catalogue | undefined {
  let node: string | Catalogue | undefined = catalogue;
  for (const part of path.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return node;
}

/**
 * The message's entry, or, as i18next does, its plural form (`key_one`, `key_other`, by the
 * language's rules) for the number it counts: `count`, as i18next names it, or `days`, which the
 * messages counting days have always stored.
 */
function entry(catalogue: Catalogue, path: string, params: MessageParams, locale: Locale): string | Catalogue | undefined {
  const exact = lookup(catalogue, path);
  if (exact !== undefined) return exact;
  const n = Number(params.count ?? params.days);
  if (!Number.isFinite(n)) return undefined;
  return lookup(catalogue, `${path}_${new Intl.PluralRules(intlLocale[locale]).select(n)}`) ?? lookup(catalogue, `${path}_other`);
}

/** A ledger reason (key under `ledger`) in one language; undefined for a key this catalogue does not know. */
export function renderReason(catalogue: Catalogue, message: Message, locale: Locale, reading?: ReadingOptions): string | undefined {
  const template = entry(catalogue, `ledger.${message.key}`, message.params, locale);
  return typeof template === 'string' ? formatMessage(template, message.params, locale, reading) : undefined;
}

/** A notification's title and description (key under `notices`) in one language; undefined for a key this catalogue does not know. */
export function renderNotice(catalogue: Catalogue, message: Message, locale: Locale, reading?: ReadingOptions): { title: string; description: string } | undefined {
  const node = entry(catalogue, `notices.${message.key}`, message.params, locale);
  if (node === undefined || typeof node === 'string' || typeof node.title !== 'string' || typeof node.description !== 'string') return undefined;
  return { title: formatMessage(node.title, message.params, locale, reading), description: formatMessage(node.description, message.params, locale, reading) };
}
