import { AccountDeletedNotice } from './home/AccountDeletedNotice.tsx';
import { CallToAction } from './home/CallToAction.tsx';
import { CompetitionsTeaser } from './home/CompetitionsTeaser.tsx';
import { Features } from './home/Features.tsx';
import { Hero } from './home/Hero.tsx';
import { Steps } from './home/Steps.tsx';

/** The landing page (and, once an account is deleted, a word on it): what BlockHost does, how it works, competitions, and a call to create a server. */
export function HomePage() {
  return (
    <>
      <AccountDeletedNotice />
      <Hero />
      <Features />
      <Steps />
      <CompetitionsTeaser />
      <CallToAction />
    </>
  );
}
