import { useMemo } from 'react';
import { Chip, Stack } from '@mui/material';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { EditButton, List, ShowButton, useDataGrid } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import type { GameDefinition } from '../../../contract/catalogue.ts';
import type { ApiError } from '../../app/api.ts';
import { asGridProps, useGridDefaults, usePhoneColumns, ViewTitle } from '../common.tsx';

/** Every game definition, drafts included: name, version, published, how many packages. */
export function DefinitionList() {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language === 'en' ? 'en' : 'fr';
  // The catalogue's list pages but neither sorts nor filters.
  const { dataGridProps } = useDataGrid<GameDefinition, ApiError>({
    resource: 'definitions',
    pagination: { pageSize: 20 },
    sorters: { mode: 'off' },
    filters: { mode: 'off' },
  });
  const columns = useMemo<GridColDef<GameDefinition>[]>(
    () => [
      { field: 'name', headerName: t('definitions.fields.name'), flex: 1, minWidth: 110, valueGetter: (_, row) => row.name[lang] },
      { field: 'version', headerName: t('definitions.fields.versionColumn'), width: 110 },
      {
        field: 'published',
        headerName: t('definitions.fields.published'),
        width: 104,
        renderCell: ({ row }) => <Chip size="small" color={row.published ? 'success' : 'default'} label={row.published ? t('definitions.published') : t('definitions.draft')} />,
      },
      { field: 'packages', headerName: t('definitions.fields.packageCount'), width: 110, type: 'number', valueGetter: (_, row) => row.packages.length },
      {
        field: 'actions',
        headerName: '',
        width: 88,
        sortable: false,
        renderCell: ({ row }) => (
          <Stack direction="row" sx={{ height: '100%', alignItems: 'center' }}>
            <ShowButton hideText recordItemId={row.id} aria-label={t('buttons.show')} />
            <EditButton hideText recordItemId={row.id} aria-label={t('buttons.edit')} />
          </Stack>
        ),
      },
    ],
    [t, lang],
  );
  const defaults = useGridDefaults();
  const phoneColumns = usePhoneColumns(['version', 'packages']);
  return (
    <List title={<ViewTitle>{t('definitions.titles.list')}</ViewTitle>} createButtonProps={{ children: t('definitions.create') }}>
      <DataGrid {...asGridProps<GameDefinition>(dataGridProps)} {...defaults} columns={columns} columnVisibilityModel={phoneColumns} disableColumnSorting />
    </List>
  );
}
