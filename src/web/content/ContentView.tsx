import { Box, Container, Link, List, ListItem, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { Link as RouterLink } from 'react-router';
import { headingId, type ContentDoc } from '../../contract/content.ts';
import { useLocalePath } from '../app/locale.tsx';
import { ChildPages } from './ChildPages.tsx';
import { PageFacts } from './PageFacts.tsx';

function textOf(children: unknown): string {
  if (typeof children === 'string') return children;
  if (Array.isArray(children)) return children.map(textOf).join('');
  return '';
}

/** A content page: markdown body, with its table of contents beside it when the page asks for one. */
export default function ContentView({ doc, embedded = false }: { doc: ContentDoc; embedded?: boolean }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const components: Components = {
    h2: ({ children }) => (
      <Typography variant="h3" component="h2" id={headingId(textOf(children))} sx={{ mt: 5, mb: 2, scrollMarginTop: 88 }}>
        {children}
      </Typography>
    ),
    h3: ({ children }) => (
      <Typography variant="h4" component="h3" id={headingId(textOf(children))} sx={{ mt: 3, mb: 1.5, scrollMarginTop: 88 }}>
        {children}
      </Typography>
    ),
    p: ({ children }) => (
      <Typography component="p" sx={{ mb: 2, lineHeight: 1.7 }}>
        {children}
      </Typography>
    ),
    a: ({ href, children }) =>
      href?.startsWith('/') ? (
        <Link component={RouterLink} to={to(href)} color="secondary">
          {children}
        </Link>
      ) : (
        <Link href={href} target="_blank" rel="noopener noreferrer" color="secondary">
          {children}
        </Link>
      ),
    li: ({ children }) => <Box component="li" sx={{ mb: 1, lineHeight: 1.7 }}>{children}</Box>,
  };
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 4, md: 8 } }}>
      {!embedded && <title>{`${doc.title} · BlockHost`}</title>}
      <Typography variant="h1" component={embedded ? 'h2' : 'h1'} sx={{ mb: 2, fontSize: { xs: '2rem', md: '2.6rem' } }}>
        {doc.title}
      </Typography>
      {doc.description && (
        <Typography variant="h6" component="p" color="text.secondary" sx={{ mb: 4, fontWeight: 400 }}>
          {doc.description}
        </Typography>
      )}
      <Box sx={{ display: 'grid', gap: 6, gridTemplateColumns: { xs: '1fr', md: doc.toc?.length ? '1fr 260px' : '1fr' }, alignItems: 'start' }}>
        <Box component="article" sx={{ minWidth: 0 }}>
          <PageFacts doc={doc} />
          <Box sx={{ maxWidth: 780 }}>
            <Markdown remarkPlugins={[remarkGfm]} components={components}>
              {doc.body}
            </Markdown>
          </Box>
          <ChildPages doc={doc} />
        </Box>
        {doc.toc && doc.toc.length > 0 && (
          <Paper component="nav" aria-label={t('content.toc')} variant="outlined" sx={{ p: 2, position: { md: 'sticky' }, top: { md: 96 }, order: { xs: -1, md: 0 } }}>
            <Typography variant="overline" component="h2" color="text.secondary">
              {t('content.toc')}
            </Typography>
            <List dense disablePadding>
              {doc.toc.map((entry) => (
                <ListItem key={entry.id} disableGutters sx={{ pl: entry.depth === 3 ? 2 : 0 }}>
                  <Link href={`#${entry.id}`} underline="hover" color="text.primary">
                    {entry.text}
                  </Link>
                </ListItem>
              ))}
            </List>
          </Paper>
        )}
      </Box>
    </Container>
  );
}
