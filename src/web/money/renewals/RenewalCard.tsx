import { Alert, Box, Button, Card, CardContent, FormControlLabel, FormHelperText, Switch, Typography } from '@mui/material';
import { useCustomMutation, type BaseRecord } from '@refinedev/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Game } from '../../../contract/games.ts';
import { errorText, type ApiError } from '../../app/api.ts';
import { formatDate } from '../../ui/format.ts';
import { useGamePaymentAction } from './useGamePaymentAction.tsx';

/**
 * A game's paid period: until when, auto-renew, and the renewal waiting to be paid (Pay, or "pay
 * and reactivate" once it expired). `onChanged` reads the game again.
 */
export function RenewalCard({ game, onChanged }: { game: Game; onChanged: () => void }) {
  const { t, i18n } = useTranslation('games');
  const lang = i18n.language;
  const action = useGamePaymentAction(onChanged);
  const { mutate, mutation } = useCustomMutation<Game & BaseRecord, ApiError>();
  const [switchError, setSwitchError] = useState<string | null>(null);
  // The switch moves at once; a refused change puts it back.
  const [wanted, setWanted] = useState<boolean | null>(null);
  // Whether the renewal is overdue, as of when the card opened.
  const [now] = useState(Date.now);
  const renewal = game.renewal?.status === 'PENDING' ? game.renewal : null;
  const expired = game.status === 'EXPIRED';
  const amount = renewal ? t('credits', { count: renewal.amountCredits }) : '';

  const setAutoRenew = (autoRenew: boolean) => {
    setSwitchError(null);
    setWanted(autoRenew);
    mutate(
      { url: `/v1/game/${encodeURIComponent(game.id)}`, method: 'patch', values: { autoRenew }, successNotification: false, errorNotification: false },
      {
        onSuccess: onChanged,
        onError: (err) => {
          setWanted(null);
          setSwitchError(`${t('renewal.autoRenewFailed')} ${errorText(err)}`);
        },
      },
    );
  };

  return (
    <Card data-testid="renewal-card">
      {action.dialog}
      <CardContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', alignItems: 'center', gap: 2 }}>
          <Box>
            <Typography variant="h4" component="h2">
              {t('renewal.title')}
            </Typography>
            <Typography color="text.secondary" data-testid="period-end">
              {t('renewal.periodEnd', { date: formatDate(game.periodEnd, lang) })}
            </Typography>
          </Box>
          <Box>
            <FormControlLabel
              control={<Switch checked={wanted ?? game.autoRenew} disabled={mutation.isPending || !!game.worldDeletedAt} onChange={(e) => setAutoRenew(e.target.checked)} />}
              label={t('renewal.autoRenew')}
            />
            <FormHelperText sx={{ mt: 0 }}>{t('renewal.autoRenewHelp')}</FormHelperText>
          </Box>
        </Box>
        {switchError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {switchError}
          </Alert>
        )}
        {game.worldDeletedAt ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {t('renewal.worldDeleted')}
          </Alert>
        ) : expired ? (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="renewal-expired">
            {t('renewal.expired', { date: formatDate(game.expiredAt ?? game.periodEnd, lang) })} {renewal && t('renewal.expiredPay', { amount })}
            {renewal && (
              <Box sx={{ mt: 1 }}>
                <Button variant="contained" size="small" disabled={action.busy} onClick={() => action.run(renewal.id, 'PAY')}>
                  {t('renewal.payAndReactivate')}
                </Button>
              </Box>
            )}
          </Alert>
        ) : (
          renewal && (
            <Alert severity="warning" sx={{ mt: 2 }} data-testid="renewal-pending">
              {t(Date.parse(renewal.periodStart) < now ? 'renewal.overdue' : 'renewal.pending', { amount, date: formatDate(renewal.periodStart, lang) })}
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
                <Button variant="contained" size="small" disabled={action.busy} onClick={() => action.run(renewal.id, 'PAY')}>
                  {t('renewal.pay', { amount })}
                </Button>
                <Button
                  size="small"
                  color="inherit"
                  disabled={action.busy}
                  onClick={() =>
                    action.run(renewal.id, 'CANCEL', {
                      title: t('renewal.confirmCancelTitle', { name: game.name }),
                      text: t('renewal.confirmCancelText', { date: formatDate(renewal.periodStart, lang) }),
                      confirm: t('renewal.cancel'),
                    })
                  }
                >
                  {t('renewal.cancel')}
                </Button>
              </Box>
            </Alert>
          )
        )}
        {action.message && <Box sx={{ mt: 2 }}>{action.message}</Box>}
      </CardContent>
    </Card>
  );
}
