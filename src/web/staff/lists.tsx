import { useCallback, useEffect, useRef, useState, type ElementType, type ReactNode } from 'react';
import { Alert, Button, Link, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useGo, useLink, useNavigation, type BaseRecord, type CrudFilter, type CrudSort } from '@refinedev/core';
import { useDataGrid } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useSearchParams } from 'react-router';
import type { GridValidRowModel } from '@mui/x-data-grid';
import { errorText, type ApiError } from '../app/api.ts';
import { asGridProps } from './common.tsx';

/** The filter fields of the back office's lists, which their address carried as `?userId=…` before Refine kept it. */
const filterFields: readonly string[] = ['q', 'userId', 'kind', 'from', 'to', 'actorId', 'entity', 'entityId', 'status', 'ownerId', 'definitionId', 'hidden'];

/**
 * A list's filter as the data provider sends it, from what the reader picked: a search on `q`, the
 * times that bound the days picked for `from` and `to`, any other field equal to its value.
 */
function toFilter(field: string, value: string): CrudFilter | null {
  if (!value) return null;
  if (field === 'q') return { field, operator: 'contains', value };
  if (field === 'from' || field === 'to') {
    const bound = dayBound(value, field === 'to');
    return bound ? { field, operator: 'eq', value: bound } : null;
  }
  return { field, operator: 'eq', value };
}

/** What the reader picked, from a filter's value: for `from` and `to`, the day the time bounds. */
function shown(field: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (field !== 'from' && field !== 'to') return String(value);
  const date = new Date(String(value));
  if (Number.isNaN(date.getTime())) return '';
  if (field === 'to') date.setDate(date.getDate() - 1);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** `userId=…`, `kind=…` as Refine's filters. */
const filtersOf = (query: Array<[string, string]>) => query.flatMap(([field, value]) => toFilter(field, value) ?? []);

/**
 * A back-office list: the main grid of its page, paged, sorted and filtered by the API, all three
 * kept in the address by Refine (`syncWithLocation`), so that a link or a reload opens it as it
 * was; a new filter goes back to the first page.
 */
export function useFilteredGrid<T extends BaseRecord & GridValidRowModel, F extends string>(resource: string, fields: readonly F[], sort: CrudSort) {
  const grid = useDataGrid<T, ApiError>({ resource, pagination: { pageSize: 20 }, sorters: { initial: [sort] } });
  const { filters, setFilters, setCurrentPage } = grid;
  const values = Object.fromEntries(fields.map((f) => [f, shown(f, filters.find((filter) => 'field' in filter && filter.field === f)?.value)])) as Record<F, string>;
  const setFilter = useCallback(
    (field: F, value: string | null) => {
      const next = toFilter(field, value ?? '');
      setFilters((current) => [...current.filter((filter) => !('field' in filter && filter.field === field)), ...(next ? [next] : [])]);
      setCurrentPage(1);
    },
    [setFilters, setCurrentPage],
  );
  // The filters are the fields above the grid, not its columns': the grid is not handed them (MIT's
  // grid keeps one filter item and would hand the others back as removed).
  const { filterModel: _filterModel, onFilterModelChange: _onFilterModelChange, ...gridProps } = grid.dataGridProps;
  return { ...grid, gridProps: asGridProps<T>(gridProps), values, setFilter };
}

/**
 * The back office's pages, a list's address of before (`?userId=…`, kept in bookmarks) turned
 * into Refine's once, before the list opens on it.
 */
export function OldListAddress() {
  const [params] = useSearchParams();
  const go = useGo();
  const old = [...params].filter(([field]) => filterFields.includes(field));
  if (old.length === 0) return <Outlet />;
  const kept = [...params].filter(([field]) => !filterFields.includes(field));
  return <Navigate replace to={go({ type: 'path', query: { ...Object.fromEntries(kept), filters: filtersOf(old) } }) ?? ''} />;
}

/**
 * The start of a `YYYY-MM-DD` day in the reader's time zone as the API's ISO time; with `next`, the
 * start of the day after, since the lists' `to` is exclusive.
 */
function dayBound(day: string, next = false): string | undefined {
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

/** A link to a back-office list, filtered (`{ userId }`), in the address Refine reads its filters from. */
export function ListLink({ resource, query, children }: { resource: string; query: Record<string, string>; children: ReactNode }) {
  const RouterLink = useLink();
  const { listUrl } = useNavigation();
  const go = useGo();
  return (
    <Link component={RouterLink as ElementType} to={go({ to: listUrl(resource), query: { filters: filtersOf(Object.entries(query)) }, type: 'path' }) ?? ''} underline="hover">
      {children}
    </Link>
  );
}
