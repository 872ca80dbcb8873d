import { useEffect, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Container, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useSearchParams } from 'react-router';
import type { Payment } from '../../../contract/payments.ts';
import { apiFetch, errorText } from '../../app/api.ts';
import { useSession } from '../../app/auth.tsx';
import { useCurrentUser } from '../../app/currentUser.tsx';
import { useLocalePath } from '../../app/locale.tsx';
import { CreditsReceived } from './CreditsReceived.tsx';
import { cardFailureText } from '../checkout/money.ts';

const POLL_MS = 2000;
// About a minute: Stripe's webhook normally lands within seconds; past that, say so and stop asking.
const MAX_POLLS = 30;

type Outcome = { status: 'waiting'; polls: number } | { status: 'settled'; payment: Payment } | { status: 'slow' } | { status: 'error'; error: unknown };

/**
 * Where Stripe sends the player back after the card step (`payment_intent`, `redirect_status`, and
 * our `paymentId`). The redirect proves nothing: the credits come from Stripe's webhook, so the page
 * asks the payment's state until it leaves PENDING, a bounded number of times.
 */
export function StripeResultPage() {
  const { t } = useTranslation('credits');
  const session = useSession();
  const { pathname, search } = useLocation();
  const [params] = useSearchParams();
  const paymentId = params.get('paymentId');
  // Stripe already knows a failed redirect; the payment's own state still has the reason.
  const redirectFailed = params.get('redirect_status') === 'failed';
  const signedIn = session.status === 'authenticated';
  const outcome = usePaymentOutcome(signedIn ? paymentId : null);

  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 } }}>
      <title>{`${t('result.title')} · BlockHost`}</title>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.4rem' }, mb: 3 }}>
        {t('result.title')}
      </Typography>
      {!paymentId ? (
        <Alert severity="error" action={<TryAgain />}>
          {t('result.missing')}
        </Alert>
      ) : session.status === 'unauthenticated' ? (
        <Alert severity="info">
          {t('result.signIn')}
          <Box sx={{ mt: 1 }}>
            <Button variant="contained" size="small" onClick={() => void session.signIn(pathname + search)}>
              {t('signIn.button')}
            </Button>
          </Box>
        </Alert>
      ) : (
        <OutcomeView outcome={outcome} redirectFailed={redirectFailed} />
      )}
    </Container>
  );
}

function OutcomeView({ outcome, redirectFailed }: { outcome: Outcome; redirectFailed: boolean }) {
  const { t } = useTranslation('credits');
  if (outcome.status === 'error')
    return (
      <Alert severity="error" action={<TryAgain />}>
        {t('result.loadError')} {errorText(outcome.error)}
      </Alert>
    );
  if (outcome.status === 'slow')
    return (
      <Alert severity="warning" data-testid="payment-slow">
        {t('result.slow')}
      </Alert>
    );
  if (outcome.status === 'waiting')
    return (
      <Box role="status" data-testid="payment-processing" sx={{ display: 'flex', gap: 2, alignItems: 'center', p: 3, border: 1, borderColor: 'divider', borderRadius: 2 }}>
        <CircularProgress size={32} />
        <Box>
          <Typography sx={{ fontWeight: 700 }}>{t('result.processing')}</Typography>
          <Typography color="text.secondary">{t('result.processingText')}</Typography>
        </Box>
      </Box>
    );
  const { payment } = outcome;
  if (payment.status === 'SUCCEEDED') return <CreditsReceived payment={payment} />;
  return (
    <Alert severity="error" action={<TryAgain />} data-testid="payment-failed">
      <Typography sx={{ fontWeight: 700 }}>{t('result.failedTitle')}</Typography>
      {payment.status === 'REFUNDED' ? (
        <Typography>{t('result.refunded')}</Typography>
      ) : (
        <>
          <Typography>{t('result.failedText')}</Typography>
          {(payment.failureReason || redirectFailed) && <Typography>{payment.failureReason ? cardFailureText(t, payment.failureReason) : t('card.declined')}</Typography>}
        </>
      )}
    </Alert>
  );
}

function TryAgain() {
  const { t } = useTranslation('credits');
  const to = useLocalePath();
  return (
    <Button color="inherit" size="small" component={RouterLink} to={to('/credits')} sx={{ whiteSpace: 'nowrap' }}>
      {t('result.tryAgain')}
    </Button>
  );
}

/** Asks the payment's state every POLL_MS until it settles (then the balance follows) or MAX_POLLS. */
function usePaymentOutcome(paymentId: string | null): Outcome {
  const user = useCurrentUser();
  const reloadUser = user.reload;
  const [outcome, setOutcome] = useState<Outcome>({ status: 'waiting', polls: 0 });
  useEffect(() => {
    if (paymentId === null) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async (polls: number) => {
      try {
        const payment = await apiFetch<Payment>(`/v1/payment/${encodeURIComponent(paymentId)}`);
        if (!live) return;
        if (payment.status !== 'PENDING') {
          setOutcome({ status: 'settled', payment });
          if (payment.status === 'SUCCEEDED') reloadUser();
        } else if (polls + 1 >= MAX_POLLS) setOutcome({ status: 'slow' });
        else {
          setOutcome({ status: 'waiting', polls: polls + 1 });
          timer = setTimeout(() => void poll(polls + 1), POLL_MS);
        }
      } catch (error) {
        if (live) setOutcome({ status: 'error', error });
      }
    };
    void poll(0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // reloadUser changes with each render of the provider; the poll must not restart for it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [paymentId]);
  return outcome;
}
