import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const invoiceKinds = ['INVOICE', 'CREDIT_NOTE'] as const;

export interface InvoiceParty {
  name: string;
  address?: string | null;
  email?: string | null;
  vatId?: string | null;
}
export interface InvoiceLine {
  /** A message key and its parameters, rendered in the reader's language. */
  description: { key: string; params: Record<string, string | number> };
  quantity: number;
  unitCents: number;
  totalCents: number;
}

/**
 * An invoice for every card payment, or a credit note for a refund. Numbered without gaps per
 * year (BH-2026-000001): the number is taken from `invoice_counters` in the payment's
 * transaction, so a rolled-back payment gives its number back.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull(),
    year: integer('year').notNull(),
    seq: integer('seq').notNull(),
    kind: text('kind', { enum: invoiceKinds }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    paymentId: uuid('payment_id').notNull(),
    /** The invoice a credit note corrects. */
    creditedInvoiceId: uuid('credited_invoice_id'),
    seller: jsonb('seller').$type<InvoiceParty>().notNull(),
    buyer: jsonb('buyer').$type<InvoiceParty>().notNull(),
    lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
    /** VAT rate in basis points (2000 = 20 %); amounts in minor units, negative on a credit note. */
    vatRateBp: integer('vat_rate_bp').notNull(),
    netCents: integer('net_cents').notNull(),
    vatCents: integer('vat_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    currency: text('currency').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_number_idx').on(t.number),
    uniqueIndex('invoices_year_seq_idx').on(t.year, t.seq),
    index('invoices_user_idx').on(t.userId, t.issuedAt),
    index('invoices_payment_idx').on(t.paymentId),
  ],
);

/** The last number given each year. */
export const invoiceCounters = pgTable('invoice_counters', {
  year: integer('year').primaryKey(),
  last: integer('last').notNull(),
});
