import type { ReactNode } from 'react';
import { Alert, Box, Button, Card, CardContent, Divider, FormControlLabel, FormHelperText, Link, Switch, TextField, Typography } from '@mui/material';
import { Controller, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { usePromoCode } from './usePromoCode.ts';
import type { CreateValues } from './values.ts';

/**
 * The purchase beside the form: promo code, balance, price, discount and the balance after, a way
 * to buy credits when short (coming back here), auto-renew, the API's refusal, and the pay button.
 */
export function SummaryCard({
  control,
  promo,
  balance,
  listPrice,
  price,
  buyCredits,
  refusal,
  sending,
  canSubmit,
}: {
  control: Control<CreateValues>;
  promo: ReturnType<typeof usePromoCode>;
  balance: number;
  listPrice: number;
  price: number;
  buyCredits: string;
  /** Why the API refused the purchase; `short` when the balance does not cover it. */
  refusal: { text: string; short: boolean } | null;
  sending: boolean;
  canSubmit: boolean;
}) {
  const { t } = useTranslation('games');
  const after = balance - price;
  const buyLink = (
    <Link component={RouterLink} to={buyCredits}>
      {t('create.buyCredits')}
    </Link>
  );
  return (
    <Card sx={{ position: { md: 'sticky' }, top: { md: 88 } }}>
      <CardContent>
        <Typography variant="h4" component="h2" sx={{ mb: 2 }}>
          {t('create.summary')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mb: 1 }}>
          <TextField
            size="small"
            label={t('create.promo')}
            value={promo.code}
            onChange={(e) => promo.setCode(e.target.value)}
            onKeyDown={(e) => {
              // Enter checks the code rather than buying the server.
              if (e.key === 'Enter') {
                e.preventDefault();
                promo.apply();
              }
            }}
            error={promo.error !== null}
            slotProps={{ htmlInput: { maxLength: 32, spellCheck: false } }}
            sx={{ flex: 1 }}
          />
          <Button variant="outlined" onClick={promo.apply} disabled={!promo.valid || promo.promo !== null}>
            {t('create.promoApply')}
          </Button>
        </Box>
        {promo.error && (
          <Alert severity="error" sx={{ mb: 1 }} data-testid="game-promo-error">
            {promo.error}
          </Alert>
        )}
        {promo.promo && (
          <Alert severity="success" sx={{ mb: 1 }} data-testid="game-promo-ok">
            {t('create.promoOk', { code: promo.promo.code, value: promo.promo.value })}
          </Alert>
        )}
        <SummaryLine label={t('create.balance')}>{t('credits', { count: balance })}</SummaryLine>
        <SummaryLine label={t('create.price')} testId="create-price">
          − {t('credits', { count: listPrice })}
        </SummaryLine>
        {promo.promo && (
          <SummaryLine label={t('create.discount', { value: promo.promo.value })} testId="create-discount">
            + {t('credits', { count: listPrice - price })}
          </SummaryLine>
        )}
        <Divider sx={{ my: 1 }} />
        <SummaryLine label={t('create.balanceAfter')} strong error={after < 0} testId="balance-after">
          {t('credits', { count: after })}
        </SummaryLine>
        {after < 0 && !refusal?.short && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {t('create.notEnough')} {buyLink}
          </Alert>
        )}
        {refusal && (
          <Alert severity="error" sx={{ mt: 2 }} role="alert">
            {refusal.short ? t('create.paymentRequired') : refusal.text} {refusal.short && buyLink}
          </Alert>
        )}
        <Controller
          control={control}
          name="autoRenew"
          render={({ field }) => <FormControlLabel sx={{ mt: 1 }} control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />} label={t('create.autoRenew')} />}
        />
        <FormHelperText sx={{ mt: 0 }}>{t('create.autoRenewHelp')}</FormHelperText>
        <Button type="submit" variant="contained" size="large" fullWidth sx={{ mt: 2 }} disabled={sending || !canSubmit}>
          {sending ? t('create.sending') : t('create.submit', { count: price })}
        </Button>
      </CardContent>
    </Card>
  );
}

function SummaryLine({ label, children, strong, error, testId }: { label: string; children: ReactNode; strong?: boolean; error?: boolean; testId?: string }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.5 }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography sx={{ fontWeight: strong ? 700 : 500 }} color={error ? 'error' : undefined} data-testid={testId}>
        {children}
      </Typography>
    </Box>
  );
}
