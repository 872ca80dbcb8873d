import { ComingSoon } from '../ui/ComingSoon.tsx';

export function RankedPage() {
  return <ComingSoon page="ranked" />;
}
