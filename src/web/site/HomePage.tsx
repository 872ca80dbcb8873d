import { CallToAction } from './home/CallToAction.tsx';
import { CompetitionsTeaser } from './home/CompetitionsTeaser.tsx';
import { Features } from './home/Features.tsx';
import { Hero } from './home/Hero.tsx';
import { Steps } from './home/Steps.tsx';

/** The landing page: what BlockHost does, how it works, competitions, and a call to create a server. */
export function HomePage() {
  return (
    <>
      <Hero />
      <Features />
      <Steps />
      <CompetitionsTeaser />
      <CallToAction />
    </>
  );
}
