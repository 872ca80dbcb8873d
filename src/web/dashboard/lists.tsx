import { useEffect, type ReactNode } from 'react';
import { useTable, type BaseRecord, type CrudFilter } from '@refinedev/core';
import { keepPreviousData } from '@tanstack/react-query';
import { Alert, Box, Button, CircularProgress, Table, TableBody, TableContainer, TablePagination, Typography } from '@mui/material';
import type { DataGridProps, GridValidRowModel } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import { errorText, type ApiError } from '../app/api.ts';
import type { ResourceName } from '../app/resources.ts';
import { gridLocaleText } from '../ui/gridLocale.ts';

const PAGE_SIZES = [5, 10, 20, 50];
const NO_FILTERS: CrudFilter[] = [];

interface ResourceQuery {
  /** Values of the `:name` parts of the resource's path. */
  params?: Record<string, string>;
  /** Equality filters sent as query parameters. */
  filters?: CrudFilter[];
  pageSize?: number;
}

/** One page of a resource through Refine's data provider, paged on the server. */
function useResourceTable<T extends BaseRecord>(resource: ResourceName, { params, filters = NO_FILTERS, pageSize = 10 }: ResourceQuery) {
  const table = useTable<T, ApiError>({
    resource,
    meta: { params },
    pagination: { mode: 'server', pageSize },
    filters: { permanent: filters },
    // A new page keeps the last one on screen until it arrives, instead of a spinner.
    queryOptions: { placeholderData: keepPreviousData },
    // A player's pages show several lists at once (a game's tabs, the social page): each would write its paging over the others'.
    syncWithLocation: false,
  });
  const { currentPage, setCurrentPage, result, tableQuery } = table;
  // After a removal the last page may be empty: step back one.
  const stepBack = tableQuery.isSuccess && !tableQuery.isPlaceholderData && result.data.length === 0 && currentPage > 1;
  useEffect(() => {
    if (stepBack) setCurrentPage((p) => p - 1);
  }, [stepBack, setCurrentPage]);
  return table;
}

/** A resource's page as the tables below read it: its rows and total, loading or failed, with its pagination. */
export function usePaged<T extends BaseRecord>(resource: ResourceName, query: ResourceQuery = {}) {
  const table = useResourceTable<T>(resource, query);
  const { tableQuery, result, currentPage, pageSize } = table;
  return {
    rows: result.data,
    total: result.total ?? 0,
    loading: tableQuery.isPending,
    // A failed refetch keeps showing the rows it had.
    error: tableQuery.isError && !tableQuery.data ? tableQuery.error : null,
    reload: () => void tableQuery.refetch(),
    pagination: {
      page: currentPage - 1,
      rowsPerPage: pageSize,
      count: result.total ?? 0,
      onPageChange: (_: unknown, p: number) => table.setCurrentPage(p + 1),
      onRowsPerPageChange: (e: React.ChangeEvent<HTMLInputElement>) => {
        table.setPageSize(Number(e.target.value));
        table.setCurrentPage(1);
      },
    },
  };
}

/** The props of an MUI X DataGrid showing a resource, paged on the server. */
export function useResourceGrid<T extends GridValidRowModel & BaseRecord>(resource: ResourceName, query: ResourceQuery = {}) {
  const { i18n } = useTranslation();
  const table = useResourceTable<T>(resource, query);
  const { tableQuery, result, currentPage, pageSize, setCurrentPage, setPageSize } = table;
  const gridProps = {
    rows: result.data,
    rowCount: result.total ?? 0,
    loading: tableQuery.isFetching,
    paginationMode: 'server',
    paginationModel: { page: currentPage - 1, pageSize },
    onPaginationModelChange: (model) => {
      if (model.pageSize !== pageSize) {
        setPageSize(model.pageSize);
        setCurrentPage(1);
      } else setCurrentPage(model.page + 1);
    },
    pageSizeOptions: PAGE_SIZES,
    localeText: gridLocaleText(i18n.language),
    disableColumnMenu: true,
    disableColumnSorting: true,
    disableRowSelectionOnClick: true,
  } satisfies Partial<DataGridProps<T>>;
  return { gridProps, error: tableQuery.isError ? tableQuery.error : null, reload: () => void tableQuery.refetch(), isEmpty: tableQuery.isSuccess && result.total === 0 };
}

/** Loading, error (with retry) and empty states around a server-paged table of rows. */
export function PagedTable<T extends BaseRecord>({ paged, empty, label, row }: { paged: ReturnType<typeof usePaged<T>>; empty: string; label: string; row: (item: T) => ReactNode }) {
  const { t } = useTranslation('common');
  if (paged.error)
    return (
      <Alert severity="error" action={<Button onClick={paged.reload}>{t('retry')}</Button>}>
        {t('lists.loadError')}: {errorText(paged.error)}
      </Alert>
    );
  if (paged.loading)
    return (
      <Box role="status" sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress size={28} aria-label={t('loading')} />
      </Box>
    );
  if (paged.total === 0)
    return (
      <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }} data-testid="empty">
        {empty}
      </Typography>
    );
  return (
    <>
      <TableContainer sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={label}>
          <TableBody>{paged.rows.map(row)}</TableBody>
        </Table>
      </TableContainer>
      <ListPagination {...paged.pagination} />
    </>
  );
}

/** The pager under a table, in the page's language. */
export function ListPagination(props: {
  page: number;
  count: number;
  rowsPerPage: number;
  onPageChange: (event: unknown, page: number) => void;
  onRowsPerPageChange: (event: React.ChangeEvent<HTMLInputElement>) => void;
}) {
  const { t } = useTranslation('common');
  return (
    <TablePagination
      component="div"
      rowsPerPageOptions={PAGE_SIZES}
      labelRowsPerPage={t('lists.rowsPerPage')}
      labelDisplayedRows={({ from, to, count }) => t('lists.displayedRows', { from, to, count })}
      getItemAriaLabel={(type) => t(`lists.pageNav.${type}`)}
      {...props}
      sx={{ '.MuiTablePagination-toolbar': { flexWrap: 'wrap', px: 0 } }}
    />
  );
}
