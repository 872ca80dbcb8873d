import { ComingSoon } from '../ui/ComingSoon.tsx';

export function AccountPage() {
  return <ComingSoon page="account" />;
}
