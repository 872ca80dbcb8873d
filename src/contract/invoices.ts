import { Type, type Static } from 'typebox';

/** GET /v1/staff/invoice-seller: the seller every new invoice names, from the configuration. */
export const InvoiceSeller = Type.Object({
  name: Type.String(),
  address: Type.String({ description: 'Lines separated by \\n' }),
  vatId: Type.Union([Type.String(), Type.Null()]),
  placeholder: Type.Boolean({ description: 'No INVOICE_SELLER_ADDRESS is configured: invoices carry a made-up address and must not go to customers as they are' }),
});
export type InvoiceSeller = Static<typeof InvoiceSeller>;
