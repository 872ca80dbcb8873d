import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import fr from '../../../locales/fr/mail.json' with { type: 'json' };
import en from '../../../locales/en/mail.json' with { type: 'json' };
import { formatMessage, type Locale, type MessageParams } from '../../contract/messages.ts';

/** A message of locales/{fr,en}/mail.json: its subject, its words, and the button a link gets. */
type MailKind = 'reset' | 'emailConfirm' | 'emailChanged' | 'passwordChanged' | 'dataExportReady';

export interface Mail {
  to: string;
  /** The reader's saved language. */
  locale: Locale;
  /** The name the greeting uses. */
  name: string;
  kind: MailKind;
  params?: MessageParams;
  /** The one link the message is about, when it has one. */
  link?: string;
}

export interface MailLog {
  info(object: object, message: string): void;
}

const catalogues = { fr, en };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Plain text and HTML of one message, in its reader's language. */
function renderMail(mail: Mail): { subject: string; text: string; html: string } {
  const t = catalogues[mail.locale];
  const part = t[mail.kind];
  const say = (template: string) => formatMessage(template, mail.params ?? {}, mail.locale);
  const greeting = formatMessage(t.greeting, { name: mail.name }, mail.locale);
  const body = say(part.body);
  const action = 'action' in part ? part.action : undefined;
  // A link someone did not ask for is harmless to ignore; a notice of a change is not.
  const ignore = mail.link ? t.ignore : undefined;
  const text = [greeting, '', body, ...(mail.link ? ['', mail.link] : []), ...(ignore ? ['', ignore] : []), '', t.signature, ''].join('\n');
  const button =
    mail.link && action
      ? `<p><a href="${esc(mail.link)}" style="display:inline-block;padding:10px 18px;background:#2e7d32;color:#fff;border-radius:6px;text-decoration:none;font-weight:bold">${esc(action)}</a></p><p style="font-size:13px;color:#5b665b">${esc(mail.link)}</p>`
      : '';
  const html = `<!doctype html><html lang="${mail.locale}"><body style="font-family:system-ui,sans-serif;color:#1b1f1b;line-height:1.5">
<p>${esc(greeting)}</p><p>${esc(body)}</p>${button}${ignore ? `<p>${esc(ignore)}</p>` : ''}<p>${esc(t.signature)}</p></body></html>`;
  return { subject: say(part.subject), text, html };
}

/**
 * Sends the platform's emails: through `SMTP_URL` in production; without it, each message is
 * written as an .eml file under `DATA_DIR/outbox` and its link logged, so a bare machine still
 * gets a working password reset.
 */
export class Mailer {
  private transport: Promise<Transporter> | undefined;
  private readonly smtpUrl: string | undefined;
  private readonly outbox: string | undefined;
  private readonly from: string;
  private readonly log: MailLog;

  constructor(options: { smtpUrl: string | undefined; from: string; outbox: string; log: MailLog }) {
    this.from = options.from;
    this.log = options.log;
    this.outbox = options.smtpUrl ? undefined : options.outbox;
    this.smtpUrl = options.smtpUrl;
  }

  /** nodemailer is loaded at the first email, not at every start of the API. */
  private async transporter(): Promise<Transporter> {
    this.transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      this.smtpUrl ? nodemailer.createTransport(this.smtpUrl) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    );
    return this.transport;
  }

  async send(mail: Mail): Promise<void> {
    const { subject, text, html } = renderMail(mail);
    const info = await (await this.transporter()).sendMail({ from: this.from, to: mail.to, subject, text, html });
    if (!this.outbox) return;
    await fs.mkdir(this.outbox, { recursive: true });
    const file = path.join(this.outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`);
    // Written aside, then renamed: whoever watches the outbox never reads a message half-written.
    await fs.writeFile(`${file}.part`, (info as unknown as { message: Buffer }).message, { mode: 0o600 });
    await fs.rename(`${file}.part`, file);
    this.log.info({ to: mail.to, subject, file, link: mail.link }, 'email written to the outbox (no SMTP_URL)');
  }
}
