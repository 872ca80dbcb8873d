import { lazy, useState } from 'react';
import { Alert, Box, Button, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Payment, PaymentCheckout } from '../../../contract/payments.ts';
import { newIdempotencyKey } from '../../app/api.ts';
import { useApiWrite } from '../../app/queries.ts';
import { cardFailureText, formatMoney } from './money.ts';

// Stripe's Payment Element and script: only when the server pays through Stripe.
const StripeCardForm = lazy(() => import('./StripeCardForm.tsx'));

export interface CardStepProps {
  checkout: PaymentCheckout;
  onPaid: (payment: Payment) => void;
  onCancel: () => void;
}

/** Collects the card of a payment: Stripe's form with a publishable key, the sandbox's otherwise. */
export default function CardStep(props: CardStepProps) {
  const { checkout } = props;
  if (checkout.provider === 'stripe' && checkout.publishableKey && checkout.clientSecret)
    return <StripeCardForm {...props} publishableKey={checkout.publishableKey} clientSecret={checkout.clientSecret} />;
  return <SandboxCardForm {...props} />;
}

const testCards = [
  { number: '4242 4242 4242 4242', outcome: 'sandbox.success' },
  { number: '4000 0000 0000 0002', outcome: 'sandbox.declined' },
  { number: '4000 0000 0000 9995', outcome: 'sandbox.insufficient' },
] as const;

/** The sandbox: no money moves; a test card number decides the outcome, as Stripe's test cards do. */
function SandboxCardForm({ checkout, onPaid, onCancel }: CardStepProps) {
  const { t, i18n } = useTranslation('credits');
  const [number, setNumber] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync: write } = useApiWrite<Payment>();
  const digits = number.replace(/\s/g, '');
  const valid = /^\d{16}$/.test(digits);

  const pay = async () => {
    setTouched(true);
    if (!valid) return;
    setBusy(true);
    setError(null);
    try {
      // A new key per attempt: another card after a decline is another attempt, not a replay.
      onPaid(await write({ url: `/v1/payment/sandbox/${checkout.paymentId}/confirm`, method: 'post', payload: { cardNumber: digits }, idempotencyKey: newIdempotencyKey() }));
    } catch (err) {
      setError(cardFailureText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void pay();
      }}
      data-testid="sandbox-form"
    >
      <Alert severity="warning" sx={{ mb: 2 }} data-testid="sandbox-notice">
        <Typography sx={{ fontWeight: 700 }}>{t('sandbox.title')}</Typography>
        <Typography variant="body2">{t('sandbox.text')}</Typography>
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
          {testCards.map((c) => (
            <li key={c.number}>
              <Box component="code" sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                {c.number}
              </Box>{' '}
              : {t(c.outcome)}
            </li>
          ))}
        </Box>
      </Alert>
      <TextField
        fullWidth
        label={t('sandbox.number')}
        value={number}
        onChange={(e) => setNumber(e.target.value)}
        onBlur={() => setTouched(true)}
        error={touched && !valid}
        helperText={touched && !valid ? t('sandbox.invalidNumber') : t('sandbox.numberHelp')}
        slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'cc-number', maxLength: 23 } }}
      />
      {error && (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="card-error">
          {error}
        </Alert>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
        <Button type="submit" variant="contained" size="large" disabled={busy} sx={{ flex: 1 }}>
          {t('card.pay', { amount: formatMoney(checkout.amountCents, checkout.currency, i18n.language) })}
        </Button>
        <Button onClick={onCancel} disabled={busy}>
          {t('card.cancel')}
        </Button>
      </Box>
    </Box>
  );
}
