import { useMemo } from 'react';
import { Stack } from '@mui/material';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { EditButton, List, ShowButton, useDataGrid } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import type { PromoCode } from '../../../contract/promocodes.ts';
import type { ApiError } from '../../app/api.ts';
import { ArchiveButton, asGridProps, useGridDefaults, usePhoneColumns, ViewTitle } from '../common.tsx';
import { formatDate } from '../../ui/format.ts';
import { PromoStatus } from './PromoStatus.tsx';
import { useDescribePromo } from './PromoForm.tsx';

/** Every promo code with what it gives, its uses so far, its dates and whether it is still accepted. */
export function PromoList() {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language;
  const describe = useDescribePromo();
  const { dataGridProps } = useDataGrid<PromoCode, ApiError>({ resource: 'promoCodes', pagination: { pageSize: 20 }, sorters: { mode: 'off' }, filters: { mode: 'off' } });
  const columns = useMemo<GridColDef<PromoCode>[]>(
    () => [
      { field: 'code', headerName: t('promoCodes.fields.code'), flex: 1, minWidth: 100 },
      { field: 'value', headerName: t('promoCodes.fields.gives'), width: 110, valueGetter: (_, row) => describe(row) },
      { field: 'uses', headerName: t('promoCodes.fields.uses'), width: 100, valueGetter: (_, row) => (row.maxUses ? `${row.uses} / ${row.maxUses}` : String(row.uses)) },
      { field: 'validUntil', headerName: t('promoCodes.fields.validUntil'), width: 170, valueGetter: (_, row) => (row.validUntil ? formatDate(row.validUntil, lang) : t('promoCodes.fields.noLimit')) },
      { field: 'archived', headerName: t('archive.status'), width: 120, renderCell: ({ row }) => <PromoStatus code={row} /> },
      {
        field: 'actions',
        headerName: '',
        width: 124,
        renderCell: ({ row }) => (
          <Stack direction="row" sx={{ height: '100%', alignItems: 'center' }}>
            <ShowButton hideText recordItemId={row.code} aria-label={t('buttons.show')} />
            <EditButton hideText recordItemId={row.code} aria-label={t('buttons.edit')} />
            {!row.archived && (
              <ArchiveButton
                resource="promoCodes"
                id={row.code}
                title={t('promoCodes.archive.title', { code: row.code })}
                text={t('promoCodes.archive.text')}
                done={t('promoCodes.archive.done', { code: row.code })}
              />
            )}
          </Stack>
        ),
      },
    ],
    [t, lang, describe],
  );
  const phoneColumns = usePhoneColumns(['uses', 'validUntil', 'archived']);
  return (
    <List title={<ViewTitle>{t('promoCodes.titles.list')}</ViewTitle>} createButtonProps={{ children: t('promoCodes.create') }}>
      <DataGrid {...asGridProps<PromoCode>(dataGridProps)} {...useGridDefaults()} getRowId={(row) => row.code} columns={columns} columnVisibilityModel={phoneColumns} disableColumnSorting />
    </List>
  );
}
