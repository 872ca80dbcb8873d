import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Entrant } from '../../../contract/tournaments.ts';

/**
 * A tournament's entrants, seed, player and entry, as its public page and the back office show
 * them (the back office draws the bracket with BracketView too); a line says so when nobody has registered.
 */
export function EntrantsTable({ entrants, labelledBy }: { entrants: Entrant[]; labelledBy?: string }) {
  const { t } = useTranslation('ranked');
  if (entrants.length === 0) return <Typography color="text.secondary">{t('tournaments.noEntrants')}</Typography>;
  return (
    <Table size="small" aria-labelledby={labelledBy} data-testid="tournament-entrants">
      <TableHead>
        <TableRow>
          <TableCell>{t('tournaments.seed')}</TableCell>
          <TableCell>{t('leaderboard.player')}</TableCell>
          <TableCell>{t('tournaments.entryStatus')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {entrants.map((e) => (
          <TableRow key={e.player.id}>
            <TableCell sx={{ width: 64 }}>{e.seed ?? '—'}</TableCell>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>{e.player.mcName ?? e.player.name}</TableCell>
            <TableCell>{t(`tournaments.entrantStatus.${e.status}`)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
