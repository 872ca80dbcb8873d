import { useState } from 'react';
import { Alert, Link } from '@mui/material';
import { useCustomMutation, type BaseRecord } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import type { GamePaymentResult } from '../../../contract/renewals.ts';
import type { ApiError } from '../../app/api.ts';
import { useCurrentUser } from '../../app/currentUser.tsx';
import { useLocalePath } from '../../app/locale.tsx';
import { formatDate } from '../../ui/format.ts';
import { useConfirmedAction, type Confirmation } from '../../ui/useConfirmedAction.tsx';

type GamePaymentAction = 'PAY' | 'CANCEL';

/**
 * Pays or cancels a game's renewal through Refine, after a confirmation when given one; the balance
 * follows a payment. `message` is the result to show under the action, with a way to buy credits
 * when the balance was short.
 */
export function useGamePaymentAction(onDone: (result: GamePaymentResult) => void) {
  const { t, i18n } = useTranslation('games');
  const user = useCurrentUser();
  const { mutateAsync } = useCustomMutation<GamePaymentResult & BaseRecord, ApiError>();
  const { run: runConfirmed, busy, result, dismiss, dialog } = useConfirmedAction();
  const [short, setShort] = useState(false);
  const date = (iso: string) => formatDate(iso, i18n.language);

  const run = (paymentId: string, action: GamePaymentAction, confirm?: Confirmation) =>
    void runConfirmed({
      confirm,
      action: async () => {
        setShort(false);
        try {
          const { data } = await mutateAsync({ url: '/v1/game/payment', method: 'post', values: { paymentId, action }, successNotification: false, errorNotification: false });
          if (action === 'PAY') user.reload();
          onDone(data);
          return data;
        } catch (err) {
          // 402: the balance does not cover it; said in the player's words, with a link to buy credits.
          if ((err as ApiError).status !== 402) throw err;
          setShort(true);
          throw new Error(t('renewal.short'));
        }
      },
      success: (data) => (action === 'PAY' ? t('renewal.paid', { date: date(data.periodEnd ?? data.payment.periodEnd) }) : t('renewal.canceled', { date: date(data.payment.periodStart) })),
      failure: t('renewal.failed'),
    });

  const message = result && (
    <Alert severity={result.severity} onClose={dismiss} data-testid="renewal-message">
      {result.text} {result.severity === 'error' && short && <BuyCreditsLink />}
    </Alert>
  );
  return { run, busy, message, dialog };
}

/** The link to buy credits from a short-balance message, coming back to this page. */
function BuyCreditsLink() {
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const { pathname } = useLocation();
  return (
    <Link component={RouterLink} to={`${to('/credits')}?back=${encodeURIComponent(pathname)}`}>
      {t('renewal.buyCredits')}
    </Link>
  );
}
