import { useBarePath } from '../app/locale.tsx';
import { ContentPage } from '../content/ContentPage.tsx';

/** /dashboard/ranked/*: the competitions of /ranked (content pages), for a signed-in player. */
export function RankedPage() {
  return <ContentPage path={useBarePath().replace(/^\/dashboard/, '')} />;
}
