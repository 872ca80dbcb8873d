import { Container } from '@mui/material';
import { ContentPage } from '../../content/ContentPage.tsx';
import { Leaderboards } from './Leaderboards.tsx';

/** /ranked: the competitions' page (its markdown, with the tournaments under it), then the ladders' leaderboards. */
export function RankedSitePage() {
  return (
    <>
      <ContentPage path="/ranked" />
      <Container maxWidth="lg" sx={{ pb: { xs: 4, md: 8 } }}>
        <Leaderboards />
      </Container>
    </>
  );
}
