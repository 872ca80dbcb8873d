import { Card, CardActionArea, CardContent, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { ContentDoc } from '../../contract/content.ts';
import { useLocalePath } from '../app/locale.tsx';
import { formatDate } from '../ui/format.ts';
import { summary } from './summary.ts';

/** A content page as a card linking to it: its date when it has one, title and summary. */
export function ContentCard({ doc, component = 'div' }: { doc: ContentDoc; component?: 'div' | 'li' }) {
  const { i18n } = useTranslation();
  const to = useLocalePath();
  const date = formatDate(doc.meta.date, i18n.language);
  return (
    <Card component={component}>
      <CardActionArea component={RouterLink} to={to(doc.path)} sx={{ height: '100%' }}>
        <CardContent>
          {date && (
            <Typography variant="overline" color="secondary" component="p">
              {date}
            </Typography>
          )}
          <Typography variant="h3" sx={{ fontSize: '1.15rem', mb: 1 }}>
            {doc.title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {summary(doc)}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
