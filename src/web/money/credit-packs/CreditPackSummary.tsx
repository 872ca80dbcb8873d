import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Divider, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { CreditPack } from '../../../contract/credit-packs.ts';
import type { PaymentCheckout } from '../../../contract/payments.ts';
import type { PromoCodeCheck } from '../../../contract/promocodes.ts';
import { ApiError, apiFetch, errorText, newIdempotencyKey } from '../../app/api.ts';
import { useApiWrite } from '../../app/queries.ts';
import { formatDay, formatMoney } from '../checkout/money.ts';

/** The chosen pack, its promo code and what will be paid; "continue" makes the payment. */
export default function CreditPackSummary({ pack, checkout, onCheckout }: { pack: CreditPack; checkout: PaymentCheckout | null; onCheckout: (c: PaymentCheckout) => void }) {
  const { t, i18n } = useTranslation('credits');
  const [code, setCode] = useState('');
  const [promo, setPromo] = useState<PromoCodeCheck | null>(null);
  const [promoError, setPromoError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // One key per summary: a second click (or a retry after a network error) makes no second payment.
  const [idempotencyKey] = useState(newIdempotencyKey);
  const lang = i18n.language;
  const { mutateAsync: write } = useApiWrite<PaymentCheckout>();

  const check = async () => {
    setChecking(true);
    setPromoError(null);
    try {
      setPromo(await apiFetch<PromoCodeCheck>(`/v1/promocode/${encodeURIComponent(code.trim())}?for=PACK`));
    } catch (err) {
      setPromo(null);
      if (err instanceof ApiError && err.status === 404) setPromoError(t('promo.unknown'));
      else if (err instanceof ApiError && (err.status === 422 || err.status === 400)) setPromoError(`${t('promo.unusable')} ${errorText(err)}`);
      else setPromoError(`${t('promo.failed')} ${errorText(err)}`);
    } finally {
      setChecking(false);
    }
  };

  const pay = async () => {
    setBusy(true);
    setError(null);
    try {
      const payload = { pricingId: pack.id, ...(promo ? { promoCode: promo.code } : {}) };
      onCheckout(await write({ url: '/v1/payment/stripe', method: 'post', payload, idempotencyKey }));
    } catch (err) {
      setError(`${t('summary.failed')} ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };

  // Rounded as the API rounds a percentage off: on the price left to pay.
  const discount = promo?.kind === 'PERCENT_OFF' ? pack.priceCents - Math.round((pack.priceCents * (100 - Math.min(promo.value, 100))) / 100) : 0;
  const promoBonus = promo?.kind === 'BONUS_CREDITS' ? promo.value : 0;
  // Once the payment exists, the API's figures are the ones paid.
  const total = checkout?.amountCents ?? pack.priceCents - discount;
  const receive = checkout ? checkout.credits + checkout.bonusCredits : pack.credits + pack.bonusCredits + promoBonus;
  const validPattern = /^[A-Za-z0-9_-]{3,32}$/.test(code.trim());

  return (
    <Card variant="outlined" data-testid="credits-summary">
      <CardContent>
        <Typography variant="h2" sx={{ fontSize: '1.3rem', mb: 2 }}>
          {t('summary.title')}
        </Typography>
        <Box
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            if (validPattern) void check();
          }}
          sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mb: 1 }}
        >
          <TextField
            size="small"
            label={t('promo.label')}
            value={code}
            onChange={(e) => {
              setCode(e.target.value.toUpperCase());
              setPromo(null);
              setPromoError(null);
            }}
            disabled={checkout !== null}
            error={promoError !== null}
            slotProps={{ htmlInput: { maxLength: 32, autoCapitalize: 'characters', spellCheck: false } }}
            sx={{ flex: 1 }}
          />
          <Button type="submit" variant="outlined" disabled={!validPattern || checking || checkout !== null || promo !== null}>
            {t('promo.apply')}
          </Button>
        </Box>
        {promoError && (
          <Alert severity="error" sx={{ mb: 1 }} data-testid="promo-error">
            {promoError}
          </Alert>
        )}
        {promo && (
          <Alert
            severity="success"
            sx={{ mb: 1 }}
            data-testid="promo-ok"
            action={
              checkout === null && (
                <Button color="inherit" size="small" onClick={() => (setPromo(null), setCode(''))}>
                  {t('promo.remove')}
                </Button>
              )
            }
          >
            {promo.kind === 'PERCENT_OFF' ? t('promo.percent', { code: promo.code, value: promo.value }) : t('promo.bonus', { code: promo.code, count: promo.value })}
            {promo.validUntil && ` (${t('promo.validUntil', { date: formatDay(promo.validUntil, lang) })})`}
          </Alert>
        )}
        <Box component="dl" sx={{ m: 0, mt: 2, display: 'grid', gridTemplateColumns: 'auto auto', rowGap: 0.75, columnGap: 2, '& dd': { m: 0, textAlign: 'right' } }}>
          <dt>{t('summary.pack')}</dt>
          <dd>{t('credits', { count: pack.credits })}</dd>
          {pack.bonusCredits + promoBonus > 0 && (
            <>
              <dt>{t('summary.bonus')}</dt>
              <dd>+ {t('credits', { count: pack.bonusCredits + promoBonus })}</dd>
            </>
          )}
          <dt>{t('summary.price')}</dt>
          <dd>{formatMoney(pack.priceCents, pack.currency, lang)}</dd>
          {discount > 0 && (
            <>
              <dt>{t('summary.discount')}</dt>
              <dd>− {formatMoney(discount, pack.currency, lang)}</dd>
            </>
          )}
        </Box>
        <Divider sx={{ my: 1.5 }} />
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto auto', rowGap: 0.75, columnGap: 2, fontWeight: 700, '& dd': { m: 0, textAlign: 'right' } }}>
          <dt>{t('summary.total')}</dt>
          <dd data-testid="summary-total">{formatMoney(total, checkout?.currency ?? pack.currency, lang)}</dd>
          <dt>{t('summary.receive')}</dt>
          <dd data-testid="summary-receive">{t('credits', { count: receive })}</dd>
        </Box>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
        {!checkout && (
          <Button variant="contained" size="large" fullWidth sx={{ mt: 2 }} onClick={() => void pay()} disabled={busy || checking} data-testid="credits-continue">
            {t('summary.continue')}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
