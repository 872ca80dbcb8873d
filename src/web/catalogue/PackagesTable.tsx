import { Card, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { GameDefinition } from '../../contract/catalogue.ts';
import { useFormatRam } from '../ui/format.ts';

/** A definition's packages: RAM, players, period and price; the period folds under the price on a phone. */
export function PackagesTable({ packages }: { packages: GameDefinition['packages'] }) {
  const { t, i18n } = useTranslation('games');
  const lang = i18n.language === 'en' ? 'en' : 'fr';
  const ram = useFormatRam();
  return (
    <TableContainer component={Card} sx={{ mb: 4 }}>
      <Table size="small" aria-label={t('product.packages')} sx={{ '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } } }}>
        <TableHead>
          <TableRow>
            <TableCell>{t('package.name')}</TableCell>
            <TableCell>{t('package.ram')}</TableCell>
            <TableCell>{t('package.players')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('package.period')}</TableCell>
            <TableCell align="right">{t('package.price')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {packages.map((p) => (
            <TableRow key={p.id}>
              <TableCell>
                <Typography component="span" sx={{ fontWeight: 600, display: 'block', fontSize: 'inherit' }}>
                  {p.name[lang]}
                </Typography>
                {p.description && (
                  <Typography variant="caption" color="text.secondary" component="span" sx={{ display: 'block' }}>
                    {p.description[lang]}
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{ram(p.ramMb)}</TableCell>
              <TableCell>{p.maxPlayers}</TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('package.days', { count: p.periodDays })}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {t('credits', { count: p.priceCredits })}
                <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
                  {t('package.days', { count: p.periodDays })}
                </Typography>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
