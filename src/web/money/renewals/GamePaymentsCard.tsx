import { useState } from 'react';
import { Box, Button, Card, CardContent, CardHeader, Chip, Link, Typography } from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { DataGrid } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { GamePayment } from '../../../contract/renewals.ts';
import { useLocalePath } from '../../app/locale.tsx';
import { formatDate } from '../../ui/format.ts';
import { LoadError, useErrorMessage } from '../../ui/states.tsx';
import { useResourceGrid } from '../../dashboard/lists.tsx';
import { useGamePaymentAction } from './useGamePaymentAction.tsx';

const PENDING = [{ field: 'status', operator: 'eq' as const, value: 'PENDING' }];

/** The player's renewals waiting to be paid, each with Pay and (after a confirmation) Cancel. */
export function GamePaymentsCard() {
  const { t, i18n } = useTranslation('games');
  const to = useLocalePath();
  const errorMessage = useErrorMessage();
  const { gridProps, error, reload, isEmpty } = useResourceGrid<GamePayment>('gamePayments', { filters: PENDING, pageSize: 5 });
  const action = useGamePaymentAction(reload);
  const lang = i18n.language;
  // Whether a renewal is overdue, as of when the card opened.
  const [now] = useState(Date.now);
  const columns: GridColDef<GamePayment>[] = [
    {
      field: 'gameName',
      headerName: t('renewal.game'),
      flex: 1,
      minWidth: 140,
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4, whiteSpace: 'normal', overflowWrap: 'anywhere' }}>
          <Link component={RouterLink} to={to(`/dashboard/game/${row.gameId}`)}>
            {row.gameName}
          </Link>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {t('credits', { count: row.amountCredits })}
          </Typography>
        </Box>
      ),
    },
    {
      field: 'periodStart',
      headerName: t('renewal.due'),
      width: 190,
      // Due at the start of the period it pays; past that date the game has expired.
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4 }}>
          {formatDate(row.periodStart, lang)}
          <Box sx={{ mt: 0.5 }}>
            {Date.parse(row.periodStart) < now ? <Chip size="small" color="error" label={t('renewal.listExpired')} /> : <Chip size="small" color="warning" label={t('renewal.listPending')} />}
          </Box>
        </Box>
      ),
    },
    {
      field: 'actions',
      headerName: t('renewal.actions'),
      width: 230,
      sortable: false,
      renderCell: ({ row }) => (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          <Button size="small" variant="contained" disabled={action.busy} onClick={() => action.run(row.id, 'PAY')}>
            {t('renewal.pay', { amount: t('credits', { count: row.amountCredits }) })}
          </Button>
          <Button
            size="small"
            color="error"
            disabled={action.busy}
            onClick={() =>
              action.run(row.id, 'CANCEL', {
                title: t('renewal.confirmCancelTitle', { name: row.gameName }),
                text: t('renewal.confirmCancelText', { date: formatDate(row.periodStart, lang) }),
                confirm: t('renewal.cancel'),
              })
            }
          >
            {t('renewal.cancel')}
          </Button>
        </Box>
      ),
    },
  ];
  return (
    <Card data-testid="game-payments-card">
      {action.dialog}
      <CardHeader title={t('renewal.listTitle')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} />
      <CardContent sx={{ pt: 0 }}>
        {action.message && <Box sx={{ mb: 2 }}>{action.message}</Box>}
        {error && <LoadError message={errorMessage(error)} onRetry={reload} />}
        {/* Nothing to pay is the usual case: a line, not a big empty box. */}
        {isEmpty && <Typography color="text.secondary">{t('renewal.listEmpty')}</Typography>}
        {!error && !isEmpty && (
          <Box data-testid="game-payments-grid">
            <DataGrid
              {...gridProps}
              columns={columns}
              aria-label={t('renewal.listTitle')}
              getRowHeight={() => 'auto'}
              sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 1 } }}
            />
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
