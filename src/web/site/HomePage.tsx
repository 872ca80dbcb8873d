import { lazy, Suspense, useState } from 'react';
import { accountDeleted } from '../app/accountDeleted.ts';
import { CallToAction } from './home/CallToAction.tsx';
import { CompetitionsTeaser } from './home/CompetitionsTeaser.tsx';
import { Features } from './home/Features.tsx';
import { Hero } from './home/Hero.tsx';
import { Steps } from './home/Steps.tsx';

// Only the page a deleted account's person lands on loads it: a visitor's home stays as light.
const AccountDeletedNotice = lazy(() => import('./home/AccountDeletedNotice.tsx').then((m) => ({ default: m.AccountDeletedNotice })));

/** The landing page (and, once an account is deleted, a word on it): what BlockHost does, how it works, competitions, and a call to create a server. */
export function HomePage() {
  const [deleted] = useState(() => accountDeleted() !== null);
  return (
    <>
      {deleted && (
        <Suspense fallback={null}>
          <AccountDeletedNotice />
        </Suspense>
      )}
      <Hero />
      <Features />
      <Steps />
      <CompetitionsTeaser />
      <CallToAction />
    </>
  );
}
