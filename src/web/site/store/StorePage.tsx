import type { Page } from '../../../contract/common.ts';
import type { GameDefinition } from '../../../contract/games.ts';
import { useFetch } from '../../app/useFetch.ts';
import { StoreFrame } from './StoreFrame.tsx';
import { StoreView } from '../../catalogue/StoreView.tsx';
import { useErrorMessage } from '../../ui/states.tsx';

/** The public /store: every published game definition, read without Refine (which only the dashboard loads). */
export function StorePage() {
  const errorMessage = useErrorMessage();
  const list = useFetch<Page<GameDefinition>>('/v1/definition/game/list?size=100');
  return (
    <StoreFrame>
      <StoreView definitions={list.status === 'done' ? list.data.data : undefined} error={list.status === 'error' ? errorMessage(list.error) : null} onRetry={list.reload} base="" />
    </StoreFrame>
  );
}
