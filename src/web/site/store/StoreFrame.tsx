import type { ReactNode } from 'react';
import { Container } from '@mui/material';

/** The public store's pages bring their own container (in the dashboard, its layout gives one). */
export function StoreFrame({ children }: { children: ReactNode }) {
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      {children}
    </Container>
  );
}
