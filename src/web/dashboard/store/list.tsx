import { useList } from '@refinedev/core';
import type { GameDefinition } from '../../../contract/catalogue.ts';
import type { ApiError } from '../../app/api.ts';
import { StoreView } from '../../catalogue/StoreView.tsx';
import { useErrorMessage } from '../../ui/states.tsx';

/** /dashboard/store: the catalogue, read through Refine. */
export function StoreList() {
  const errorMessage = useErrorMessage();
  const { query, result } = useList<GameDefinition, ApiError>({ resource: 'definitions', pagination: { pageSize: 100 } });
  return <StoreView definitions={query.isSuccess ? result.data : undefined} error={query.isError ? errorMessage(query.error) : null} onRetry={() => void query.refetch()} base="/dashboard" />;
}
