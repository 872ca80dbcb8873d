import { Container } from '@mui/material';
import { ComingSoon } from '../ui/ComingSoon.tsx';

export function StripeResultPage() {
  return (
    <Container maxWidth="lg">
      <ComingSoon page="stripeResult" />
    </Container>
  );
}
