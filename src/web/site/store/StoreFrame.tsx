import type { ReactNode } from 'react';
import { Container } from '@mui/material';

/** Public pages bring their own container; inside the dashboard the layout gives one. */
export function PageFrame({ inDashboard, children }: { inDashboard: boolean; children: ReactNode }) {
  if (inDashboard) return <>{children}</>;
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      {children}
    </Container>
  );
}
