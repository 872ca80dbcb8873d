import { Box, Chip, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ContentDoc } from '../../contract/content.ts';
import { formatDate } from '../ui/format.ts';

const facts = ['date', 'format', 'prize'] as const;

/** A competition's date, format, prize and status, from its front matter. */
export function PageFacts({ doc }: { doc: ContentDoc }) {
  const { t, i18n } = useTranslation();
  const { status } = doc.meta;
  const shown = facts.filter((f) => typeof doc.meta[f] === 'string');
  if (!shown.length && typeof status !== 'string') return null;
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 4, display: 'grid', gap: 1.5, maxWidth: 780 }} data-testid="page-facts">
      {typeof status === 'string' && <Chip label={t(`content.status.${status}`, { defaultValue: status })} color={status === 'upcoming' ? 'secondary' : 'default'} sx={{ justifySelf: 'start' }} />}
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 3, rowGap: 0.5 }}>
        {shown.map((f) => (
          <Box key={f} sx={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary">
              {t(`content.facts.${f}`)}
            </Typography>
            <Typography component="dd" sx={{ m: 0, fontWeight: 600, mb: { xs: 1, sm: 0 } }}>
              {f === 'date' ? formatDate(doc.meta[f], i18n.language) : String(doc.meta[f])}
            </Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}
