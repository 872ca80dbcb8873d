import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Card, CardActions, CardContent, Chip, CircularProgress, Container, Skeleton, Typography } from '@mui/material';
import { CheckCircle as CheckCircleIcon } from '@mui/icons-material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { Page } from '../../../contract/common.ts';
import type { CreditPack } from '../../../contract/credit-packs.ts';
import type { Payment, PaymentCheckout } from '../../../contract/payments.ts';
import { errorText } from '../../app/api.ts';
import { useSession } from '../../app/auth.tsx';
import { useCurrentUser } from '../../app/currentUser.tsx';
import { apiQuery, hasFailed } from '../../app/queries.ts';
import { CreditsReceived } from './CreditsReceived.tsx';
import { formatMoney } from '../checkout/money.ts';
import { useLocalized } from '../../ui/format.ts';

// What a visitor never uses loads on demand: the order form (its text field pulls in much of MUI)
// once a signed-in player picks a pack, the card step (and, with Stripe, Stripe's script) once a
// payment exists.
const CreditPackSummary = lazy(() => import('./CreditPackSummary.tsx'));
const CardStep = lazy(() => import('../checkout/CardStep.tsx'));

/** /credits: the packs, a promo code checked before paying, then the card step and the credits received. */
export function CreditsPage() {
  const { t, i18n } = useTranslation('credits');
  const localized = useLocalized();
  const session = useSession();
  const { pathname, search } = useLocation();
  const packs = useQuery(apiQuery<Page<CreditPack>>('/v1/pricing?size=50'));
  const [chosen, setChosen] = useState<CreditPack | null>(null);
  const [checkout, setCheckout] = useState<PaymentCheckout | null>(null);
  const [paid, setPaid] = useState<Payment | null>(null);
  const user = useCurrentUser();
  const signedIn = session.status === 'authenticated';

  // Another pack drops the payment made for the last one (it stays PENDING, unpaid).
  const choose = (pack: CreditPack) => {
    if (pack.id === chosen?.id) return;
    setChosen(pack);
    setCheckout(null);
  };
  // On a phone the card step opens below the fold: bring it into view.
  const cardStep = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (checkout) cardStep.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [checkout]);

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <title>{`${t('title')} · BlockHost`}</title>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.8rem', md: '2.4rem' }, mb: 1 }}>
        {t('title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('subtitle')}
      </Typography>

      {paid ? (
        <CreditsReceived payment={paid} onAgain={() => (setPaid(null), setCheckout(null), setChosen(null))} />
      ) : (
        <>
          {!signedIn && session.status !== 'loading' && (
            // The button under the text, not beside it: a phone keeps the sentence readable.
            <Alert severity="info" sx={{ mb: 3 }}>
              {t('signIn.text')}
              <Box sx={{ mt: 1 }}>
                <Button variant="contained" size="small" onClick={() => void session.signIn(pathname + search)} data-testid="credits-sign-in">
                  {t('signIn.button')}
                </Button>
              </Box>
            </Alert>
          )}

          <Typography variant="h2" sx={{ fontSize: '1.4rem', mb: 2 }}>
            {t('packs.title')}
          </Typography>
          {hasFailed(packs) && (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void packs.refetch()}>
                  {t('account.retry')}
                </Button>
              }
            >
              {t('packs.loadError')} {errorText(packs.error)}
            </Alert>
          )}
          {packs.isSuccess && packs.data.data.length === 0 && <Alert severity="info">{t('packs.empty')}</Alert>}
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' }, mb: 4 }}>
            {!packs.isSuccess && !hasFailed(packs) && [0, 1, 2].map((i) => <Skeleton key={i} variant="rounded" height={170} aria-hidden />)}
            {packs.isSuccess &&
              packs.data.data.map((pack) => {
                const selected = chosen?.id === pack.id;
                return (
                  <Card
                    key={pack.id}
                    variant="outlined"
                    data-testid="credit-pack"
                    sx={{ display: 'flex', flexDirection: 'column', borderColor: selected ? 'primary.main' : undefined, borderWidth: selected ? 2 : 1 }}
                  >
                    <CardContent sx={{ flex: 1 }}>
                      {pack.label && (
                        <Typography variant="overline" color="text.secondary">
                          {localized(pack.label)}
                        </Typography>
                      )}
                      <Typography variant="h3" component="p" sx={{ fontSize: '1.6rem', fontWeight: 700 }}>
                        {t('credits', { count: pack.credits })}
                      </Typography>
                      {pack.bonusCredits > 0 && <Chip color="success" size="small" label={t('packs.bonus', { count: pack.bonusCredits })} sx={{ mt: 0.5 }} />}
                      <Typography sx={{ mt: 1.5, fontSize: '1.25rem' }}>{formatMoney(pack.priceCents, pack.currency, i18n.language)}</Typography>
                    </CardContent>
                    {signedIn && (
                      <CardActions sx={{ px: 2, pb: 2 }}>
                        <Button fullWidth variant={selected ? 'contained' : 'outlined'} startIcon={selected ? <CheckCircleIcon /> : undefined} onClick={() => choose(pack)} aria-pressed={selected}>
                          {selected ? t('packs.chosen') : t('packs.choose')}
                        </Button>
                      </CardActions>
                    )}
                  </Card>
                );
              })}
          </Box>

          {signedIn && chosen && (
            <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
              <Suspense fallback={<Skeleton variant="rounded" height={320} />}>
                <CreditPackSummary key={chosen.id} pack={chosen} checkout={checkout} onCheckout={setCheckout} />
              </Suspense>
              {checkout && (
                <Card variant="outlined" ref={cardStep} sx={{ scrollMarginTop: 80 }}>
                  <CardContent>
                    <Typography variant="h2" sx={{ fontSize: '1.3rem', mb: 2 }}>
                      {t('card.title')}
                    </Typography>
                    <Suspense
                      fallback={
                        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 2 }}>
                          <CircularProgress size={20} />
                          {t('card.loading')}
                        </Box>
                      }
                    >
                      <CardStep
                        checkout={checkout}
                        onPaid={(payment) => {
                          setPaid(payment);
                          // The header's balance and the one shown below follow the credits just received.
                          user.reload();
                        }}
                        onCancel={() => setCheckout(null)}
                      />
                    </Suspense>
                  </CardContent>
                </Card>
              )}
            </Box>
          )}
        </>
      )}
    </Container>
  );
}
