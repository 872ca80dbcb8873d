import { useState } from 'react';
import { Alert, Button, Divider, Typography } from '@mui/material';
import { Undo as RefundIcon } from '@mui/icons-material';
import { CanAccess, useInvalidate, useShow } from '@refinedev/core';
import { RefreshButton, Show } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import type { StaffPayment } from '../../../contract/staff.ts';
import type { ApiError } from '../../app/api.ts';
import { formatMoney } from '../../money/checkout/money.ts';
import { ActionDialog, ReasonInput } from '../ActionDialog.tsx';
import { ErrorAlert, Fact, Facts } from '../common.tsx';
import { formatDate } from '../../ui/format.ts';
import { PageTitle, ShowLink } from '../lists.tsx';
import { PaymentStatusChip } from './PaymentStatusChip.tsx';

/** One card payment: who paid what, through which provider; staff refund a paid pack after a confirmation. */
export function PaymentShow() {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language;
  const { query, result: payment } = useShow<StaffPayment, ApiError>({ resource: 'payments' });
  const invalidate = useInvalidate();
  const [refunding, setRefunding] = useState(false);
  return (
    <Show
      resource="payments"
      isLoading={query.isLoading}
      breadcrumb={false}
      title={<PageTitle>{payment ? t('payments.titles.one', { amount: formatMoney(payment.amountCents, payment.currency, lang), name: payment.userName }) : t('payments.titles.show')}</PageTitle>}
      headerButtons={({ refreshButtonProps }) => (
        <>
          {payment?.refundable && (
            <CanAccess resource="payments" action="refund">
              <Button variant="outlined" color="error" startIcon={<RefundIcon />} onClick={() => setRefunding(true)}>
                {t('payments.refund.open')}
              </Button>
            </CanAccess>
          )}
          <RefreshButton {...refreshButtonProps} />
        </>
      )}
    >
      <ErrorAlert error={query.error} />
      {payment && (
        <>
          <Facts>
            <Fact label={t('payments.fields.status')}>
              <PaymentStatusChip status={payment.status} />
            </Fact>
            <Fact label={t('payments.fields.user')}>
              <ShowLink resource="users" id={payment.userId}>
                {payment.userName}
              </ShowLink>
            </Fact>
            <Fact label={t('payments.fields.kind')}>{t(`payments.kinds.${payment.kind}`)}</Fact>
            <Fact label={t('payments.fields.amount')}>{formatMoney(payment.amountCents, payment.currency, lang)}</Fact>
            <Fact label={t('payments.fields.credits')}>{payment.bonusCredits ? t('payments.creditsWithBonus', { credits: payment.credits, bonus: payment.bonusCredits }) : payment.credits}</Fact>
            {payment.promoCode && <Fact label={t('payments.fields.promoCode')}>{payment.promoCode}</Fact>}
          </Facts>
          <Divider sx={{ mb: 3 }} />
          <Facts>
            <Fact label={t('payments.fields.provider')}>{payment.provider}</Fact>
            <Fact label={t('payments.fields.providerId')}>
              <Typography component="span" sx={{ fontFamily: 'monospace' }} data-testid="payment-provider-id">
                {payment.providerId ?? '—'}
              </Typography>
            </Fact>
            <Fact label={t('payments.fields.createdAt')}>{formatDate(payment.createdAt, lang)}</Fact>
            {payment.settledAt && <Fact label={t('payments.fields.settledAt')}>{formatDate(payment.settledAt, lang)}</Fact>}
            {payment.refundedCents > 0 && <Fact label={t('payments.fields.refunded')}>{formatMoney(payment.refundedCents, payment.currency, lang)}</Fact>}
            {payment.invoiceId && (
              <Fact label={t('payments.fields.invoice')}>
                <ShowLink resource="staffInvoices" id={payment.invoiceId}>
                  {t('payments.seeInvoice')}
                </ShowLink>
              </Fact>
            )}
          </Facts>
          {payment.failureReason && <Alert severity="warning">{t('payments.failure', { reason: payment.failureReason })}</Alert>}
          {refunding && (
            <ActionDialog<{ reason: string }, StaffPayment>
              open
              onClose={() => setRefunding(false)}
              testId="refund-dialog"
              title={t('payments.refund.title')}
              text={t('payments.refund.text', {
                amount: formatMoney(payment.amountCents - payment.refundedCents, payment.currency, lang),
                credits: payment.credits + payment.bonusCredits,
                name: payment.userName,
              })}
              url={`/v1/staff/payments/${encodeURIComponent(payment.id)}/refund`}
              defaultValues={{ reason: '' }}
              submitLabel={t('payments.refund.submit')}
              danger
              confirmation={() => ({
                title: t('payments.refund.confirmTitle'),
                text: t('payments.refund.confirmText', { amount: formatMoney(payment.amountCents - payment.refundedCents, payment.currency, lang), name: payment.userName }),
                confirm: t('payments.refund.submit'),
              })}
              success={() => t('payments.refund.done')}
              onDone={() => {
                void invalidate({ resource: 'payments', invalidates: ['list', 'detail'], id: payment.id });
                void invalidate({ resource: 'staffTransactions', invalidates: ['list'] });
                void invalidate({ resource: 'audit', invalidates: ['list'] });
              }}
              fields={(control) => <ReasonInput control={control} />}
            />
          )}
        </>
      )}
    </Show>
  );
}
