import { Box } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ContentDoc } from '../../contract/content.ts';
import { apiQuery } from '../app/queries.ts';
import { ContentCard } from './ContentCard.tsx';

/** The pages of a folder (the competitions under /ranked), newest first, as cards. */
export function ChildPages({ doc }: { doc: ContentDoc }) {
  const { i18n } = useTranslation();
  const list = useQuery(apiQuery<ContentDoc[]>(`/_content/list/${i18n.language}${doc.path}`));
  const children = list.isSuccess ? list.data.filter((d) => d.path !== doc.path) : [];
  if (!children.length) return null;
  const sorted = [...children].sort((a, b) => String(b.meta.date ?? '').localeCompare(String(a.meta.date ?? '')));
  return (
    <Box component="ul" sx={{ listStyle: 'none', p: 0, mt: 4, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }} data-testid="child-pages">
      {sorted.map((d) => (
        <ContentCard key={d.path} doc={d} component="li" />
      ))}
    </Box>
  );
}
