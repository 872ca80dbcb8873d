import { Type, type Static } from 'typebox';
import { DateTime, Id, Nullable } from './common.ts';

/** GET /v1/staff/invoice-seller: the seller every new invoice names, from the configuration. */
export const InvoiceSeller = Type.Object({
  name: Type.String(),
  address: Type.String({ description: 'Lines separated by \\n' }),
  vatId: Type.Union([Type.String(), Type.Null()]),
  placeholder: Type.Boolean({ description: 'No INVOICE_SELLER_ADDRESS is configured: invoices carry a made-up address and must not go to customers as they are' }),
});
export type InvoiceSeller = Static<typeof InvoiceSeller>;

const InvoiceParty = Type.Object({
  name: Type.String(),
  address: Type.Optional(Nullable(Type.String())),
  email: Type.Optional(Nullable(Type.String())),
  vatId: Type.Optional(Nullable(Type.String())),
});

export const Invoice = Type.Object({
  id: Id,
  number: Type.String(),
  kind: Type.Enum(['INVOICE', 'CREDIT_NOTE'] as const),
  paymentId: Id,
  creditedInvoiceId: Nullable(Id),
  seller: InvoiceParty,
  buyer: InvoiceParty,
  lines: Type.Array(
    Type.Object({
      description: Type.String({ description: "The line in the reader's language (the locale cookie, else Accept-Language)" }),
      key: Type.String({ description: 'Its text, a key of locales/{fr,en}/invoices.json `lines`: a client words it in the language on screen' }),
      params: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
      quantity: Type.Integer(),
      unitCents: Type.Integer(),
      totalCents: Type.Integer(),
    }),
  ),
  vatRate: Type.Number({ description: 'Percent, e.g. 20' }),
  netCents: Type.Integer(),
  vatCents: Type.Integer(),
  totalCents: Type.Integer(),
  currency: Type.String(),
  issuedAt: DateTime,
});

export type Invoice = Static<typeof Invoice>;
