import { lazy, Suspense, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CardHeader, Chip, CircularProgress, Dialog, DialogContent, DialogTitle, Skeleton, Typography } from '@mui/material';
import { useCustom, useCustomMutation, type BaseRecord } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { Page } from '../../../contract/common.ts';
import type { PaymentCheckout } from '../../../contract/payments.ts';
import type { Subscription, SubscriptionPlan } from '../../../contract/subscriptions.ts';
import { errorText, type ApiError } from '../../app/api.ts';
import { useCurrentUser } from '../../app/currentUser.tsx';
import { ActionAlert, useConfirmedAction } from '../../ui/useConfirmedAction.tsx';
import { formatMoney } from '../checkout/money.ts';
import { formatDate, useLocalized } from '../../ui/format.ts';
import { LoadError } from '../../ui/states.tsx';

// The same card step as /credits, loaded when a player subscribes.
const CardStep = lazy(() => import('../checkout/CardStep.tsx'));

const SUBSCRIPTION = '/v1/payment/stripe/subscription';

/** The player's subscription (plan, next renewal, cancel or resume), or the plans to subscribe to. */
export function SubscriptionCard() {
  const { t } = useTranslation('credits');
  const { query } = useCustom<Subscription & BaseRecord, ApiError>({ url: SUBSCRIPTION, method: 'get' });
  const subscription = query.data?.data as Subscription | null | undefined;
  // A cancelled or never-paid subscription leaves the plans on offer.
  const current = subscription && subscription.status !== 'CANCELED' && subscription.status !== 'INCOMPLETE' ? subscription : null;
  return (
    <Card data-testid="subscription-card">
      <CardHeader title={t('account.subscription.title')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} />
      <CardContent sx={{ pt: 0 }}>
        {query.isError ? (
          <LoadError message={`${t('account.subscription.loadError')} ${errorText(query.error)}`} onRetry={() => void query.refetch()} />
        ) : query.isPending ? (
          <Skeleton height={60} />
        ) : current ? (
          <CurrentSubscription subscription={current} onChanged={() => void query.refetch()} />
        ) : (
          <Plans onSubscribed={() => void query.refetch()} />
        )}
      </CardContent>
    </Card>
  );
}

function CurrentSubscription({ subscription, onChanged }: { subscription: Subscription; onChanged: () => void }) {
  const { t, i18n } = useTranslation('credits');
  const localized = useLocalized();
  const { mutateAsync } = useCustomMutation<Subscription & BaseRecord, ApiError>();
  const { run, busy, result, dialog } = useConfirmedAction();
  const lang = i18n.language;
  const plan = subscription.plan;
  const end = subscription.currentPeriodEnd ? formatDate(subscription.currentPeriodEnd, lang) : '—';

  const act = (action: 'cancel' | 'resume') =>
    void run({
      ...(action === 'cancel' && { confirm: { title: t('account.subscription.confirmTitle'), text: t('account.subscription.confirmText', { date: end }), confirm: t('account.subscription.cancel') } }),
      action: async () => {
        await mutateAsync({ url: `${SUBSCRIPTION}/${action}`, method: 'post', values: {}, successNotification: false, errorNotification: false });
        onChanged();
      },
      success: action === 'cancel' ? t('account.subscription.cancelled', { date: end }) : t('account.subscription.resumed'),
      failure: t('account.subscription.failed'),
    });

  return (
    <>
      {dialog}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography sx={{ fontWeight: 700 }}>{localized(plan.name)}</Typography>
        <Chip size="small" color={subscription.status === 'ACTIVE' ? 'success' : 'warning'} label={t(`account.subscription.status.${subscription.status}`)} />
      </Box>
      <Typography color="text.secondary">{planText(t, plan, localized(plan.name), lang)}</Typography>
      <Typography sx={{ mt: 1 }} data-testid="subscription-period">
        {subscription.cancelAtPeriodEnd ? t('account.subscription.ends', { date: end }) : t('account.subscription.renews', { date: end })}
      </Typography>
      <ActionAlert result={result} />
      <Box sx={{ mt: 2 }}>
        {subscription.cancelAtPeriodEnd ? (
          <Button variant="contained" onClick={() => act('resume')} disabled={busy}>
            {t('account.subscription.resume')}
          </Button>
        ) : (
          <Button variant="outlined" color="error" onClick={() => act('cancel')} disabled={busy}>
            {t('account.subscription.cancel')}
          </Button>
        )}
      </Box>
    </>
  );
}

function planText(t: (key: string, options?: Record<string, unknown>) => string, plan: SubscriptionPlan, name: string, lang: string) {
  return t('account.subscription.plan', {
    name,
    price: formatMoney(plan.priceCents, plan.currency, lang),
    interval: t(`account.subscription.interval.${plan.interval}`),
    credits: t('credits', { count: plan.credits }),
  });
}

/** The plans on offer; subscribing makes a payment whose card step opens in a dialog. */
function Plans({ onSubscribed }: { onSubscribed: () => void }) {
  const { t, i18n } = useTranslation('credits');
  const localized = useLocalized();
  const user = useCurrentUser();
  const { query } = useCustom<Page<SubscriptionPlan> & BaseRecord, ApiError>({ url: '/v1/subscription?size=20', method: 'get' });
  const { mutate, mutation } = useCustomMutation<PaymentCheckout & BaseRecord, ApiError>();
  const [checkout, setCheckout] = useState<PaymentCheckout | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (query.isError) return <LoadError message={`${t('account.loadError')} ${errorText(query.error)}`} onRetry={() => void query.refetch()} />;
  if (query.isPending) return <Skeleton height={60} />;
  const plans = (query.data.data as Page<SubscriptionPlan>).data;
  if (plans.length === 0) return <Typography color="text.secondary">{t('account.subscription.noPlans')}</Typography>;

  const subscribe = (plan: SubscriptionPlan) => {
    setError(null);
    mutate(
      { url: SUBSCRIPTION, method: 'post', values: { subscriptionId: plan.id } },
      {
        onSuccess: ({ data }) => setCheckout(data),
        onError: (err) => setError(`${t('summary.failed')} ${errorText(err)}`),
      },
    );
  };

  return (
    <>
      <Typography color="text.secondary" sx={{ mb: 1.5 }}>
        {t('account.subscription.none')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 1.5 }}>
        {plans.map((plan) => (
          <Box key={plan.id} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1, p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1 }}>
            <Typography>{planText(t, plan, localized(plan.name), i18n.language)}</Typography>
            <Button variant="contained" onClick={() => subscribe(plan)} disabled={mutation.isPending}>
              {t('account.subscription.subscribe')}
            </Button>
          </Box>
        ))}
      </Box>
      {error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
      <Dialog open={checkout !== null} onClose={() => setCheckout(null)} fullWidth maxWidth="sm">
        <DialogTitle>{t('card.title')}</DialogTitle>
        <DialogContent>
          {checkout && (
            <Suspense fallback={<CircularProgress size={24} aria-label={t('card.loading')} />}>
              <CardStep
                checkout={checkout}
                onPaid={() => {
                  setCheckout(null);
                  user.reload();
                  onSubscribed();
                }}
                onCancel={() => setCheckout(null)}
              />
            </Suspense>
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
