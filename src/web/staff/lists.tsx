import { useCallback, useEffect, useRef, useState, type ElementType, type ReactNode } from 'react';
import { Alert, Button, Link, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useLink, useNavigation, type BaseRecord, type CrudFilter, type CrudSort } from '@refinedev/core';
import { useDataGrid } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { GridValidRowModel } from '@mui/x-data-grid';
import { errorText, type ApiError } from '../app/api.ts';
import { asGridProps } from './common.tsx';

/**
 * A list's filters kept in the address (`?userId=…&kind=…`): a link can open a list already
 * filtered (a user's payments), a reload keeps them.
 */
function useUrlFilters<F extends string>(fields: readonly F[]) {
  const [params, setParams] = useSearchParams();
  const values = Object.fromEntries(fields.map((f) => [f, params.get(f) ?? ''])) as Record<F, string>;
  const set = useCallback(
    (field: F, value: string | null) => {
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          if (value) next.set(field, value);
          else next.delete(field);
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  return { values, set };
}

/**
 * A back-office grid paged, sorted and filtered by the API: `useDataGrid` with the list's filters
 * from the address; a new filter goes back to the first page.
 */
export function useFilteredGrid<T extends BaseRecord & GridValidRowModel, F extends string>(
  resource: string,
  fields: readonly F[],
  toFilters: (values: Record<F, string>) => CrudFilter[],
  sort: CrudSort,
) {
  const { values, set } = useUrlFilters(fields);
  const grid = useDataGrid<T, ApiError>({
    resource,
    pagination: { pageSize: 20 },
    sorters: { initial: [sort] },
    filters: { permanent: toFilters(values) },
  });
  const { setCurrentPage } = grid;
  const setFilter = useCallback(
    (field: F, value: string | null) => {
      set(field, value);
      setCurrentPage(1);
    },
    [set, setCurrentPage],
  );
  return { ...grid, gridProps: asGridProps<T>(grid.dataGridProps), values, setFilter };
}

/** Equality filters for the data provider, the empty ones left out. */
export function equalityFilters(values: Record<string, string | undefined>): CrudFilter[] {
  return Object.entries(values).flatMap(([field, value]) => (value ? [{ field, operator: 'eq' as const, value }] : []));
}

/**
 * The start of a `YYYY-MM-DD` day in the reader's time zone as the API's ISO time; with `next`, the
 * start of the day after, since the lists' `to` is exclusive.
 */
export function dayBound(day: string, next = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T00:00:00`);
  if (Number.isNaN(date.getTime())) return undefined;
  if (next) date.setDate(date.getDate() + 1);
  return date.toISOString();
}

/** A search box whose value reaches `onSearch` once the typing pauses. */
export function SearchField({ value, onSearch, label, testId }: { value: string; onSearch: (value: string) => void; label: string; testId?: string }) {
  const [text, setText] = useState(value);
  const pause = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(pause.current), []);
  return (
    <TextField
      type="search"
      size="small"
      label={label}
      value={text}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        clearTimeout(pause.current);
        pause.current = setTimeout(() => onSearch(next.trim()), 350);
      }}
      sx={{ minWidth: { xs: '100%', sm: 260 } }}
      slotProps={{ htmlInput: { maxLength: 64, 'data-testid': testId } }}
    />
  );
}

/** A filter picked from a list, "all" when empty. */
export function FilterSelect({
  label,
  value,
  onChange,
  options,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: Array<{ value: string; label: string }>;
  testId?: string;
}) {
  const { t } = useTranslation('staff');
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      sx={{ minWidth: 180 }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true }, htmlInput: { 'data-testid': testId } }}
    >
      <MenuItem value="">{t('filters.all')}</MenuItem>
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The filters above a grid: in a row on a wide screen, stacked on a phone. */
export function FilterBar({ children }: { children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, flexWrap: 'wrap', rowGap: 2 }} data-testid="filters">
      {children}
    </Stack>
  );
}

/** The page's one heading, in the back office's card header. */
export function PageTitle({ children }: { children: ReactNode }) {
  return (
    <Typography variant="h5" component="h1" sx={{ overflowWrap: 'anywhere' }}>
      {children}
    </Typography>
  );
}

/** A list that did not load, with a retry. */
export function LoadFailure({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('staff');
  if (!error) return null;
  return (
    <Alert severity="error" sx={{ mb: 2 }} action={<Button onClick={onRetry}>{t('actions.retry')}</Button>}>
      {t('actions.loadFailed')} {errorText(error)}
    </Alert>
  );
}

/** A link to a record's show page in the back office. */
export function ShowLink({ resource, id, children }: { resource: string; id: string; children: ReactNode }) {
  const RouterLink = useLink();
  const { showUrl } = useNavigation();
  return (
    <Link component={RouterLink as ElementType} to={showUrl(resource, id)} underline="hover">
      {children}
    </Link>
  );
}

/** A link to a back-office list, filtered (`?userId=…`). */
export function ListLink({ resource, query, children }: { resource: string; query: Record<string, string>; children: ReactNode }) {
  const RouterLink = useLink();
  const { listUrl } = useNavigation();
  return (
    <Link component={RouterLink as ElementType} to={`${listUrl(resource)}?${new URLSearchParams(query)}`} underline="hover">
      {children}
    </Link>
  );
}
