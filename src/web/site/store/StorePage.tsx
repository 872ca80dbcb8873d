import { useQuery } from '@tanstack/react-query';
import type { Page } from '../../../contract/common.ts';
import type { GameDefinition } from '../../../contract/catalogue.ts';
import { apiQuery, hasFailed } from '../../app/queries.ts';
import { StoreFrame } from './StoreFrame.tsx';
import { StoreView } from '../../catalogue/StoreView.tsx';
import { useErrorMessage } from '../../ui/states.tsx';

/** The public /store: every published game definition, read without Refine (which only the dashboard loads). */
export function StorePage() {
  const errorMessage = useErrorMessage();
  const list = useQuery(apiQuery<Page<GameDefinition>>('/v1/definition/game/list?size=100'));
  return (
    <StoreFrame>
      <StoreView definitions={list.isSuccess ? list.data.data : undefined} error={hasFailed(list) && list.error ? errorMessage(list.error) : null} onRetry={() => void list.refetch()} base="" />
    </StoreFrame>
  );
}
