import { Container } from '@mui/material';
import { ComingSoon } from '../ui/ComingSoon.tsx';

export function CreditsPage() {
  return (
    <Container maxWidth="lg">
      <ComingSoon page="credits" />
    </Container>
  );
}
