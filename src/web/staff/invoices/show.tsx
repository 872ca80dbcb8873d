import { Divider, Table, TableBody, TableCell, TableContainer, TableFooter, TableHead, TableRow } from '@mui/material';
import { useShow } from '@refinedev/core';
import { RefreshButton, Show } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import type { StaffInvoice } from '../../../contract/staff.ts';
import type { ApiError } from '../../app/api.ts';
import { formatMoney } from '../../money/checkout/money.ts';
import { ErrorAlert, Fact, Facts } from '../common.tsx';
import { formatDate } from '../../ui/format.ts';
import { PageTitle, ShowLink } from '../lists.tsx';
import { InvoicePdfButton } from './InvoicePdfButton.tsx';

/** One invoice or credit note: its buyer, lines and totals, and its PDF. */
export function InvoiceShow() {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language;
  const { query, result: invoice } = useShow<StaffInvoice, ApiError>({ resource: 'staffInvoices' });
  const money = (cents: number) => (invoice ? formatMoney(cents, invoice.currency, lang) : '');
  return (
    <Show
      resource="staffInvoices"
      isLoading={query.isLoading}
      breadcrumb={false}
      title={<PageTitle>{invoice ? `${t(`staffInvoices.kinds.${invoice.kind}`)} ${invoice.number}` : t('staffInvoices.titles.show')}</PageTitle>}
      headerButtons={({ refreshButtonProps }) => (
        <>
          {invoice && <InvoicePdfButton id={invoice.id} number={invoice.number} />}
          <RefreshButton {...refreshButtonProps} />
        </>
      )}
    >
      <ErrorAlert error={query.error} />
      {invoice && (
        <>
          <Facts>
            <Fact label={t('staffInvoices.fields.user')}>
              <ShowLink resource="users" id={invoice.userId}>
                {invoice.buyer.name}
              </ShowLink>
            </Fact>
            {invoice.buyer.email && <Fact label={t('staffInvoices.fields.email')}>{invoice.buyer.email}</Fact>}
            <Fact label={t('staffInvoices.fields.issuedAt')}>{formatDate(invoice.issuedAt, lang)}</Fact>
            <Fact label={t('staffInvoices.fields.payment')}>
              <ShowLink resource="payments" id={invoice.paymentId}>
                {t('staffInvoices.seePayment')}
              </ShowLink>
            </Fact>
            {invoice.creditedInvoiceId && (
              <Fact label={t('staffInvoices.fields.corrects')}>
                <ShowLink resource="staffInvoices" id={invoice.creditedInvoiceId}>
                  {t('staffInvoices.seeCorrected')}
                </ShowLink>
              </Fact>
            )}
          </Facts>
          <Divider />
          <TableContainer>
            <Table size="small" aria-label={t('staffInvoices.fields.lines')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('staffInvoices.fields.description')}</TableCell>
                  <TableCell align="right">{t('staffInvoices.fields.quantity')}</TableCell>
                  <TableCell align="right">{t('staffInvoices.fields.total')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {invoice.lines.map((line, i) => (
                  <TableRow key={i}>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{line.description}</TableCell>
                    <TableCell align="right">{line.quantity}</TableCell>
                    <TableCell align="right">{money(line.totalCents)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
              <TableFooter>
                <TableRow>
                  <TableCell colSpan={2}>{t('staffInvoices.vat', { rate: invoice.vatRate, net: money(invoice.netCents) })}</TableCell>
                  <TableCell align="right">{money(invoice.vatCents)}</TableCell>
                </TableRow>
                <TableRow>
                  <TableCell colSpan={2} sx={{ fontWeight: 700 }}>
                    {t('staffInvoices.fields.total')}
                  </TableCell>
                  <TableCell align="right" sx={{ fontWeight: 700 }}>
                    {money(invoice.totalCents)}
                  </TableCell>
                </TableRow>
              </TableFooter>
            </Table>
          </TableContainer>
        </>
      )}
    </Show>
  );
}
