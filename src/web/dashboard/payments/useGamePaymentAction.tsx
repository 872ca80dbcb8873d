import { useState } from 'react';
import { Link } from '@mui/material';
import { useCustomMutation, type BaseRecord } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import type { GamePaymentResult } from '../../../contract/games.ts';
import { errorText, type ApiError } from '../../app/api.ts';
import { useCurrentUser } from '../../app/currentUser.tsx';
import { useLocalePath } from '../../app/locale.tsx';
import { formatDate } from '../../site/store/shared.tsx';

export type GamePaymentAction = 'PAY' | 'CANCEL';
export interface ActionMessage {
  severity: 'success' | 'error';
  text: string;
  /** A short balance: the message links to /credits, which brings the player back here. */
  buyCredits?: boolean;
}

/** Pays or cancels a game's renewal through Refine; the balance follows a payment. */
export function useGamePaymentAction(onDone: (result: GamePaymentResult) => void) {
  const { t, i18n } = useTranslation('games');
  const user = useCurrentUser();
  const { mutate, mutation } = useCustomMutation<GamePaymentResult & BaseRecord, ApiError>();
  const [message, setMessage] = useState<ActionMessage | null>(null);
  const run = (paymentId: string, action: GamePaymentAction) => {
    setMessage(null);
    mutate(
      { url: '/v1/game/payment', method: 'post', values: { paymentId, action } },
      {
        onSuccess: ({ data }) => {
          const date = formatDate(data.periodEnd ?? data.payment.periodEnd, i18n.language);
          setMessage({ severity: 'success', text: action === 'PAY' ? t('renewal.paid', { date }) : t('renewal.canceled', { date: formatDate(data.payment.periodStart, i18n.language) }) });
          if (action === 'PAY') user.reload();
          onDone(data);
        },
        onError: (err) =>
          setMessage(err.status === 402 ? { severity: 'error', text: t('renewal.short'), buyCredits: true } : { severity: 'error', text: `${t('renewal.failed')} ${errorText(err)}` }),
      },
    );
  };
  return { run, busy: mutation.isPending, message, clear: () => setMessage(null) };
}

/** The link to buy credits from a short-balance message, coming back to this page. */
export function BuyCreditsLink() {
  const { t } = useTranslation('games');
  const to = useLocalePath();
  const { pathname } = useLocation();
  return (
    <Link component={RouterLink} to={`${to('/credits')}?back=${encodeURIComponent(pathname)}`}>
      {t('renewal.buyCredits')}
    </Link>
  );
}
