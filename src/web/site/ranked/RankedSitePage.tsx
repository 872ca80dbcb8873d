import { Container } from '@mui/material';
import { ContentPage } from '../../content/ContentPage.tsx';
import { Leaderboards } from './Leaderboards.tsx';
import { TournamentLists } from './TournamentLists.tsx';

/** /ranked: the competitions' page (its markdown introduction), the tournaments (live, upcoming, past), then the ladders' leaderboards. */
export function RankedSitePage() {
  return (
    <>
      <ContentPage path="/ranked" />
      <Container maxWidth="lg" sx={{ pb: { xs: 4, md: 8 } }}>
        <TournamentLists />
        <Leaderboards />
      </Container>
    </>
  );
}
