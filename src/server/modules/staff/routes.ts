import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Bytes, IdParams, Media, Page } from '../../../contract/common.ts';
import { userCreditAddRequest } from '../../../contract/user.ts';
import {
  AuditEntry,
  AuditQuery,
  StaffInvoice,
  StaffInvoicesQuery,
  StaffPayment,
  StaffPaymentsQuery,
  StaffReason,
  StaffTransaction,
  StaffTransactionsQuery,
  StaffUser,
  StaffUserDetail,
  StaffUsersQuery,
  UserCreditAdded,
} from '../../../contract/staff.ts';
import { named } from '../../lib/schema.ts';
import { notFound } from '../../lib/problems.ts';
import { pageWindow } from '../../lib/paging.ts';
import { langOf, wantsPdf } from '../../lib/negotiation.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';

/** The back office's calls on people, money and the audit log: staff write, staff and support read. */
const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { staff } = services;
  const tags = ['staff'];

  await signedIn(app, ['staff', 'support'], (staffAndSupport) => {
    staffAndSupport.get(
      '/v1/staff/users',
      {
        schema: {
          tags,
          summary: 'Staff and support: users with their balance, found by a prefix of their name, email or Minecraft name',
          querystring: StaffUsersQuery,
          response: { 200: Page(StaffUser) },
        },
      },
      async (request) => staff.users(request.query, pageWindow(request.query)),
    );

    staffAndSupport.get(
      '/v1/staff/users/:id',
      { schema: { tags, summary: 'Staff and support: a user with their subscription, games and latest 20 payments', params: IdParams, response: { 200: StaffUserDetail } } },
      async (request) => staff.user(request.params.id),
    );

    staffAndSupport.get(
      '/v1/staff/transactions',
      { schema: { tags, summary: "Staff and support: every user's credit ledger, newest first", querystring: StaffTransactionsQuery, response: { 200: Page(StaffTransaction) } } },
      async (request) => staff.transactions(request.query, request.locale, pageWindow(request.query)),
    );

    staffAndSupport.get(
      '/v1/staff/payments',
      { schema: { tags, summary: 'Staff and support: card payments of every user, newest first', querystring: StaffPaymentsQuery, response: { 200: Page(StaffPayment) } } },
      async (request) => staff.payments(request.query, pageWindow(request.query)),
    );

    staffAndSupport.get('/v1/staff/payments/:id', { schema: { tags, summary: 'Staff and support: one card payment', params: IdParams, response: { 200: StaffPayment } } }, async (request) =>
      staff.payment(request.params.id),
    );

    staffAndSupport.get(
      '/v1/staff/invoices',
      { schema: { tags, summary: 'Staff and support: invoices and credit notes of every user, newest first', querystring: StaffInvoicesQuery, response: { 200: Page(StaffInvoice) } } },
      async (request) => staff.invoices(request.query, pageWindow(request.query), langOf(request)),
    );

    staffAndSupport.get(
      '/v1/staff/invoices/:id',
      {
        schema: {
          tags,
          summary: 'Staff and support: one invoice, as JSON or, with Accept: application/pdf, as a PDF in the reader’s language',
          params: IdParams,
          response: { 200: Media('The invoice', { 'application/json': StaffInvoice, 'application/pdf': Bytes('application/pdf') }) },
        },
      },
      async (request, reply) => {
        const { invoices } = services;
        const row = await invoices.byId(request.params.id);
        if (!row) throw notFound('invoice');
        const lang = langOf(request);
        if (wantsPdf(request.headers.accept)) {
          const corrects = row.creditedInvoiceId ? (await invoices.byId(row.creditedInvoiceId))?.number : undefined;
          return reply
            .type('application/pdf')
            .header('content-disposition', `inline; filename="${row.number}.pdf"`)
            .send((await invoices.pdf(row, lang, corrects)) as never);
        }
        return staff.invoice(row, lang);
      },
    );

    staffAndSupport.get(
      '/v1/staff/audit',
      { schema: { tags, summary: 'Staff and support: the audit log of staff writes, newest first', querystring: AuditQuery, response: { 200: Page(AuditEntry) } } },
      async (request) => services.audit.list(request.query, pageWindow(request.query), request.locale),
    );

    staffAndSupport.get('/v1/staff/audit/:id', { schema: { tags, summary: 'Staff and support: one entry of the audit log', params: IdParams, response: { 200: AuditEntry } } }, async (request) =>
      services.audit.entry(request.params.id, request.locale),
    );
  });

  await signedIn(app, ['staff'], (staffOnly) => {
    staffOnly.post(
      '/v1/user/credit',
      {
        schema: {
          problems: [404],
          tags: ['credits', ...tags],
          summary: 'Staff: add (or, negative, take back) credits on a user, with a reason in the ledger and the audit log; 409 when the balance would go below zero',
          body: named(userCreditAddRequest),
          response: { 200: UserCreditAdded },
        },
      },
      async (request) => staff.credit(request.user.id, request.body),
    );

    staffOnly.post(
      '/v1/staff/payments/:id/refund',
      {
        schema: {
          tags,
          summary: "Staff: refund what is left of a pack's payment; the credits it bought come back out of the balance (never below zero) when the provider confirms, with a credit note",
          params: IdParams,
          body: StaffReason,
          response: { 200: StaffPayment },
        },
      },
      async (request) => {
        await services.payments.refund(request.user.id, request.params.id, request.body.reason);
        return staff.payment(request.params.id);
      },
    );
  });
};

export default routes;
