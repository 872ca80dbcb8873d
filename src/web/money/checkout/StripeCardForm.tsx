import { useEffect, useState } from 'react';
import { Alert, Box, Button } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe } from '@stripe/stripe-js';
import { useTranslation } from 'react-i18next';
import { useLocalePath } from '../../app/locale.tsx';
import type { CardStepProps } from './CardStep.tsx';
import { formatMoney } from './money.ts';

/** Stripe's Payment Element for a payment intent; Stripe's script loads here, on the card step only. */
export default function StripeCardForm(props: CardStepProps & { publishableKey: string; clientSecret: string }) {
  const { t, i18n } = useTranslation('credits');
  const theme = useTheme();
  // Stripe's script loads now; a retry after it failed to load asks for it again.
  const [stripe, setStripe] = useState(() => loadStripe(props.publishableKey));
  const [loadFailed, setLoadFailed] = useState(false);
  // Elements takes its Stripe once: a new Stripe is a new Elements.
  const [tries, setTries] = useState(0);
  useEffect(() => {
    let live = true;
    stripe.then(
      (s) => live && s === null && setLoadFailed(true),
      () => live && setLoadFailed(true),
    );
    return () => {
      live = false;
    };
  }, [stripe]);
  if (loadFailed)
    return (
      <Alert
        severity="error"
        action={
          <Button
            color="inherit"
            size="small"
            onClick={() => {
              setLoadFailed(false);
              setStripe(loadStripe(props.publishableKey));
              setTries((n) => n + 1);
            }}
          >
            {t('stripe.retry')}
          </Button>
        }
      >
        {t('stripe.loadError')}
      </Alert>
    );
  return (
    <Elements
      key={tries}
      stripe={stripe}
      options={{
        clientSecret: props.clientSecret,
        locale: i18n.language === 'en' ? 'en' : 'fr',
        appearance: { theme: theme.palette.mode === 'dark' ? 'night' : 'stripe', variables: { colorPrimary: theme.palette.primary.main } },
      }}
    >
      <StripeForm {...props} amount={formatMoney(props.checkout.amountCents, props.checkout.currency, i18n.language)} />
    </Elements>
  );
}

function StripeForm({ checkout, onCancel, amount }: CardStepProps & { amount: string }) {
  const { t } = useTranslation('credits');
  const stripe = useStripe();
  const elements = useElements();
  const to = useLocalePath();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const pay = async () => {
    if (!stripe || !elements) return;
    setBusy(true);
    setError(null);
    // Stripe leaves for 3-D Secure when it must, and always comes back to the result page, which
    // waits for the webhook rather than trusting the redirect.
    const { error: failure } = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: `${location.origin}${to(`/stripe_result?paymentId=${encodeURIComponent(checkout.paymentId)}`)}` },
    });
    setError(failure.message ?? t('card.failed'));
    setBusy(false);
  };

  return (
    <Box
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        void pay();
      }}
    >
      <PaymentElement />
      {error && (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="card-error">
          {error}
        </Alert>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
        <Button type="submit" variant="contained" size="large" disabled={busy || !stripe || !elements} sx={{ flex: 1 }}>
          {t('card.pay', { amount })}
        </Button>
        <Button onClick={onCancel} disabled={busy}>
          {t('card.cancel')}
        </Button>
      </Box>
    </Box>
  );
}
