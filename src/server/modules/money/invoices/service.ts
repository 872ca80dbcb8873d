import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../../db/client.ts';
import { invoiceCounters, invoices, type InvoiceLine, type InvoiceParty } from '../../../db/schema/invoices.ts';
import { notFound } from '../../../lib/problems.ts';
import { pageOf, type Window } from '../../../lib/paging.ts';
import type { Invoice } from '../../../../contract/invoices.ts';
import fr from '../../../../../locales/fr/invoices.json' with { type: 'json' };
import en from '../../../../../locales/en/invoices.json' with { type: 'json' };

export type Lang = 'fr' | 'en';
type Row = typeof invoices.$inferSelect;
const strings = { fr, en };

export interface InvoiceSettings {
  sellerName: string;
  sellerAddress: string;
  sellerVatId: string | null;
  vatRatePercent: number;
}

export interface IssueInput {
  userId: string;
  paymentId: string;
  buyer: InvoiceParty;
  lines: InvoiceLine[];
  currency: string;
  /** Amounts include VAT (consumer prices); a credit note's are negative. */
  totalCents: number;
  kind?: 'INVOICE' | 'CREDIT_NOTE';
  creditedInvoiceId?: string | null;
  issuedAt: Date;
}

/** `{{name}}` placeholders filled from the parameters. */
function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(params[key] ?? ''));
}

function money(cents: number, currency: string, lang: Lang): string {
  // French groups thousands with a narrow no-break space, which the PDF's standard fonts lack (it
  // printed as a stray glyph): the no-break space they have stands in for it.
  return new Intl.NumberFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', { style: 'currency', currency }).format(cents / 100).replaceAll('\u202f', '\u00a0');
}

/**
 * Invoices and credit notes. Each is numbered without gaps per year: the number comes from
 * `invoice_counters` in the payment's own transaction (the counter row's lock orders them), so a
 * payment that rolls back gives its number back. Prices include VAT; the VAT rate is the seller's.
 */
export class InvoicesService {
  private readonly db: Db;
  private readonly settings: InvoiceSettings;

  constructor(db: Db, settings: InvoiceSettings) {
    this.db = db;
    this.settings = settings;
  }

  async issue(tx: Executor, input: IssueInput): Promise<Row> {
    const year = input.issuedAt.getUTCFullYear();
    // One statement takes the year's next number and writes the invoice with it.
    const counter = tx.$with('counter').as(
      tx
        .insert(invoiceCounters)
        .values({ year, last: 1 })
        .onConflictDoUpdate({ target: invoiceCounters.year, set: { last: sql`${invoiceCounters.last} + 1` } })
        .returning({ last: invoiceCounters.last }),
    );
    const seq = sql<number>`(select ${counter.last} from ${counter})`;
    const vatRateBp = Math.round(this.settings.vatRatePercent * 100);
    const netCents = Math.round((input.totalCents * 10_000) / (10_000 + vatRateBp));
    const [row] = await tx
      .with(counter)
      .insert(invoices)
      .values({
        number: sql`${`BH-${year}-`} || lpad(${seq}::text, 6, '0')`,
        year,
        seq,
        kind: input.kind ?? 'INVOICE',
        userId: input.userId,
        paymentId: input.paymentId,
        creditedInvoiceId: input.creditedInvoiceId ?? null,
        seller: { name: this.settings.sellerName, address: this.settings.sellerAddress, vatId: this.settings.sellerVatId },
        buyer: input.buyer,
        lines: input.lines,
        vatRateBp,
        netCents,
        vatCents: input.totalCents - netCents,
        totalCents: input.totalCents,
        currency: input.currency,
        issuedAt: input.issuedAt,
      })
      .returning();
    return row!;
  }

  /** The invoice of a payment (not its credit notes). */
  async ofPayment(paymentId: string, executor: Executor = this.db): Promise<Row | undefined> {
    const [row] = await executor
      .select()
      .from(invoices)
      .where(and(eq(invoices.paymentId, paymentId), eq(invoices.kind, 'INVOICE')));
    return row;
  }

  /**
   * A deleted account's invoices stay, as French accounting law requires for ten years
   * (docs/decisions.md), their buyer named `name` alone: the email and address go.
   */
  async anonymise(userId: string, name: string): Promise<void> {
    await this.db.update(invoices).set({ buyer: { name } }).where(eq(invoices.userId, userId));
  }

  async list(userId: string, window: Window, lang: Lang) {
    const [rows, [total]] = await Promise.all([
      this.db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(desc(invoices.issuedAt), desc(invoices.seq)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(invoices).where(eq(invoices.userId, userId)),
    ]);
    return pageOf(
      rows.map((r) => this.view(r, lang)),
      total?.n ?? 0,
      window,
    );
  }

  /** One of the user's invoices; 404 for anyone else's. */
  async get(userId: string, id: string): Promise<Row> {
    const [row] = await this.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, id), eq(invoices.userId, userId)));
    if (!row) throw notFound('invoice');
    return row;
  }

  /** Any invoice, for the back office. */
  async byId(id: string): Promise<Row | undefined> {
    const [row] = await this.db.select().from(invoices).where(eq(invoices.id, id));
    return row;
  }

  view(row: Row, lang: Lang): Invoice {
    return {
      id: row.id,
      number: row.number,
      kind: row.kind,
      paymentId: row.paymentId,
      creditedInvoiceId: row.creditedInvoiceId,
      seller: row.seller,
      buyer: row.buyer,
      lines: row.lines.map((l) => ({
        description: this.lineText(l, lang),
        key: l.description.key,
        params: l.description.params,
        quantity: l.quantity,
        unitCents: l.unitCents,
        totalCents: l.totalCents,
      })),
      vatRate: row.vatRateBp / 100,
      netCents: row.netCents,
      vatCents: row.vatCents,
      totalCents: row.totalCents,
      currency: row.currency,
      issuedAt: row.issuedAt.toISOString(),
    };
  }

  private lineText(line: InvoiceLine, lang: Lang): string {
    const t = strings[lang].lines as Record<string, string>;
    return fill(t[line.description.key] ?? line.description.key, line.description.params);
  }

  /** The invoice as a PDF, in `lang`. */
  async pdf(row: Row, lang: Lang, corrects?: string): Promise<Buffer> {
    const t = strings[lang];
    const date = (d: Date) => d.toLocaleDateString(lang === 'fr' ? 'fr-FR' : 'en-GB', { timeZone: 'UTC' });
    // Loaded at the first PDF asked for, not at every start of the API (its fonts and compression are heavy).
    const { default: PDFDocument } = await import('pdfkit');
    const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${row.kind === 'INVOICE' ? t.invoice : t.creditNote} ${row.number}`, Author: row.seller.name } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));

    doc
      .font('Helvetica-Bold')
      .fontSize(20)
      .text(`${row.kind === 'INVOICE' ? t.invoice : t.creditNote} ${row.number}`);
    doc
      .font('Helvetica')
      .fontSize(10)
      .text(`${t.issuedAt} : ${date(row.issuedAt)}`);
    if (corrects) doc.text(fill(t.corrects, { number: corrects }));
    doc.moveDown();
    const top = doc.y;
    const party = (title: string, p: InvoiceParty, x: number) => {
      doc.font('Helvetica-Bold').text(title, x, top, { width: 230 });
      doc.font('Helvetica').text([p.name, p.address, p.email, p.vatId ? `${t.vatId} ${p.vatId}` : null].filter(Boolean).join('\n'), x, doc.y, { width: 230 });
    };
    party(t.seller, row.seller, 50);
    const afterSeller = doc.y;
    party(t.buyer, row.buyer, 320);
    doc.y = Math.max(afterSeller, doc.y) + 20;
    doc.x = 50;

    // Columns side by side, none reaching into the next; a row is as tall as its tallest cell, so a
    // heading or description that wraps pushes the next row down instead of running into it.
    const table = { description: { x: 50, width: 235 }, quantity: { x: 295, width: 40 }, unit: { x: 345, width: 95 }, total: { x: 450, width: 95 } };
    const label = { x: table.quantity.x, width: table.unit.x + table.unit.width - table.quantity.x };
    const rowAt = (cells: Array<[{ x: number; width: number }, string]>, bold = false) => {
      const y = doc.y;
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
      let height = 0;
      for (const [col, text] of cells) {
        const options = { width: col.width, align: col === table.description ? 'left' : 'right' } as const;
        height = Math.max(height, doc.heightOfString(text, options));
        doc.text(text, col.x, y, options);
      }
      doc.y = y + height + doc.currentLineHeight() / 2;
    };
    rowAt(
      [
        [table.description, t.description],
        [table.quantity, t.quantity],
        [table.unit, t.unitPrice],
        [table.total, t.total],
      ],
      true,
    );
    for (const l of row.lines)
      rowAt([
        [table.description, this.lineText(l, lang)],
        [table.quantity, String(l.quantity)],
        [table.unit, money(l.unitCents, row.currency, lang)],
        [table.total, money(l.totalCents, row.currency, lang)],
      ]);
    doc.moveDown();
    rowAt([
      [label, t.net],
      [table.total, money(row.netCents, row.currency, lang)],
    ]);
    rowAt([
      [label, fill(t.vat, { rate: (row.vatRateBp / 100).toLocaleString(lang) })],
      [table.total, money(row.vatCents, row.currency, lang)],
    ]);
    rowAt(
      [
        [label, t.grandTotal],
        [table.total, money(row.totalCents, row.currency, lang)],
      ],
      true,
    );
    doc.x = 50;
    doc.moveDown();
    doc.font('Helvetica').text(fill(t.paid, { date: date(row.issuedAt) }), 50);
    doc.end();
    return done;
  }
}
