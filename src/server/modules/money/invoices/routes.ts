import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Bytes, IdParams, Media, Page, PageQuery } from '../../../../contract/common.ts';
import { Invoice } from '../../../../contract/invoices.ts';
import { InvoiceSeller } from '../../../../contract/invoices.ts';
import { pageWindow } from '../../../lib/paging.ts';
import { langOf, wantsPdf } from '../../../lib/negotiation.ts';
import { signedIn } from '../../../plugins/auth.ts';
import type { Services } from '../../../services.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const invoices = services.invoices;
  const tags = ['invoices'];

  await signedIn(app, null, (player) => {
    player.get('/v1/purchase/invoices', { schema: { tags, summary: 'Your invoices and credit notes, newest first', querystring: PageQuery, response: { 200: Page(Invoice) } } }, async (request) =>
      invoices.list(request.user.id, pageWindow(request.query), langOf(request)),
    );

    player.get(
      '/v1/purchase/invoice/:id',
      {
        schema: {
          tags,
          summary: 'One of your invoices: JSON, or a PDF with Accept: application/pdf (French or English by the Accept-Language)',
          params: IdParams,
          response: { 200: Media('The invoice', { 'application/json': Invoice, 'application/pdf': Bytes('application/pdf') }) },
        },
      },
      async (request, reply) => {
        const row = await invoices.get(request.user.id, request.params.id);
        const lang = langOf(request);
        if (wantsPdf(request.headers.accept)) {
          const corrects = row.creditedInvoiceId ? (await invoices.byId(row.creditedInvoiceId))?.number : undefined;
          return (
            reply
              .type('application/pdf')
              .header('content-disposition', `inline; filename="${row.number}.pdf"`)
              // A PDF goes out as bytes; the response schema describes the JSON form.
              .send((await invoices.pdf(row, lang, corrects)) as never)
          );
        }
        return invoices.view(row, lang);
      },
    );
  });

  // Staff only: the back office warns while the seller's address is the placeholder (README, Configuration).
  await signedIn(app, ['staff'], (staff) => {
    staff.get(
      '/v1/staff/invoice-seller',
      { schema: { tags: ['staff'], summary: 'Staff: the seller new invoices name, and whether its address is still the placeholder', response: { 200: InvoiceSeller } } },
      async () => {
        const { sellerName, sellerAddress, sellerVatId, sellerPlaceholder } = services.config.invoices;
        return { name: sellerName, address: sellerAddress, vatId: sellerVatId, placeholder: sellerPlaceholder };
      },
    );
  });
};

export default routes;
