import { STATUS_CODES } from 'node:http';
import fr from '../../../locales/fr/errors.json' with { type: 'json' };
import en from '../../../locales/en/errors.json' with { type: 'json' };
import { formatMessage, type Catalogue, type Locale, type MessageParams } from '../../contract/messages.ts';

/** Every dotted path to a text of a catalogue: `friends.self`, `notFound.user`. */
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/**
 * A text of locales/en/errors.json. Errors are thrown as a key and its parameters, never as text,
 * so a key the catalogue lacks fails the typecheck and every answer can be rendered in its reader's
 * language when it is sent.
 */
export type ErrorKey = Leaves<typeof en>;
type Thing = keyof typeof en.notFound;

/** A field's error as thrown: which field, and why (a key with its parameters). */
export interface FieldProblem {
  field: string;
  key: ErrorKey;
  params?: MessageParams;
}

/** A field's error as sent: its path, the reason in the reader's language, and the reason's key. */
export interface FieldError {
  field: string;
  message: string;
  code: string;
}

/** An error the API answers as application/problem+json, with the status it names. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly key: ErrorKey;
  readonly params: MessageParams;
  readonly errors: FieldProblem[] | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, key: ErrorKey, params: MessageParams = {}, options: { errors?: FieldProblem[]; headers?: Record<string, string> } = {}) {
    // The English text, for logs and stack traces; the caller reads the language it chose.
    super(renderProblem(key, params, options.errors, 'en').detail);
    this.status = status;
    this.key = key;
    this.params = params;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

export const badRequest = (key: ErrorKey, params: MessageParams = {}, errors?: FieldProblem[]) => new HttpProblem(400, key, params, errors ? { errors } : {});
/** 400 for one field: "Invalid name: it must ...", with the field's own error. */
export const invalidField = (field: string, key: ErrorKey, params: MessageParams = {}) => badRequest('request.invalidField', {}, [{ field, key, params }]);
export const unauthorized = (key: ErrorKey = 'auth.tokenRequired') => new HttpProblem(401, key, {}, { headers: { 'www-authenticate': 'Bearer' } });
export const forbidden = (key: ErrorKey = 'auth.notAllowed') => new HttpProblem(403, key);
/** Also the answer for another user's resource: never reveal that it exists. */
export const notFound = (what: Thing) => new HttpProblem(404, `notFound.${what}`);
export const conflict = (key: ErrorKey, params: MessageParams = {}) => new HttpProblem(409, key, params);
export const paymentRequired = (key: ErrorKey, params: MessageParams = {}) => new HttpProblem(402, key, params);

const catalogues: Record<Locale, Catalogue> = { fr, en };

function text(key: string, params: MessageParams, locale: Locale): string {
  let node: string | Catalogue | undefined = catalogues[locale];
  for (const part of key.split('.')) node = node === undefined || typeof node === 'string' ? undefined : node[part];
  // A key only the other language knows (a catalogue being edited) still says something.
  if (typeof node !== 'string') return locale === 'en' ? key : text(key, params, 'en');
  return formatMessage(node, params, locale);
}

/**
 * A problem's detail and field errors in `locale`. Besides its own parameters a detail may name
 * the field errors it carries: `{{fields}}` (their paths) and `{{fieldMessage}}` (the first one's
 * reason).
 */
export function renderProblem(key: ErrorKey, params: MessageParams, fieldProblems: FieldProblem[] | undefined, locale: Locale): { detail: string; errors?: FieldError[] } {
  const errors = fieldProblems?.map((f) => ({ field: f.field, message: text(f.key, f.params ?? {}, locale), code: f.key }));
  const named: MessageParams = errors ? { fields: errors.map((e) => e.field).join(', '), fieldMessage: errors[0]?.message ?? '' } : {};
  return { detail: text(key, { ...named, ...params }, locale), ...(errors ? { errors } : {}) };
}

/** A problem's detail in both languages, as a notice's parameter: the reader sees theirs. */
export function problemInBoth(problem: HttpProblem): { fr: string; en: string } {
  return { fr: renderProblem(problem.key, problem.params, problem.errors, 'fr').detail, en: renderProblem(problem.key, problem.params, problem.errors, 'en').detail };
}

/** The generic text of a status, for errors that carry no key of their own. */
export function statusKey(status: number): ErrorKey {
  return (String(status) in en.status ? `status.${status}` : 'status.other') as ErrorKey;
}

export function problemBody(status: number, code: string, detail: string, errors?: FieldError[], params?: MessageParams) {
  // The key's parameters a client can word itself (the web app, times in its reader's zone); a `{fr, en}` pair is already in `detail`.
  const plain = Object.entries(params ?? {}).filter((e): e is [string, string | number] => typeof e[1] === 'string' || typeof e[1] === 'number');
  return {
    type: `https://httpstatuses.io/${status}`,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    code,
    detail,
    ...(errors ? { errors } : {}),
    ...(plain.length ? { params: Object.fromEntries(plain) } : {}),
  };
}
