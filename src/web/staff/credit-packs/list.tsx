import { useMemo } from 'react';
import { Stack } from '@mui/material';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { EditButton, List, useDataGrid } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import type { CreditPack } from '../../../contract/credit-packs.ts';
import type { ApiError } from '../../app/api.ts';
import { formatMoney } from '../../money/checkout/money.ts';
import { formatNumber, useLocalized } from '../../ui/format.ts';
import { ArchiveButton, ArchivedChip, asGridProps, useGridDefaults, usePhoneColumns, ViewTitle } from '../common.tsx';

/** The credit packs, archived ones too, cheapest first: what each gives and costs. */
export function CreditPackList() {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language;
  const localized = useLocalized();
  const { dataGridProps } = useDataGrid<CreditPack, ApiError>({ resource: 'creditPacks', pagination: { pageSize: 20 }, sorters: { mode: 'off' }, filters: { mode: 'off' } });
  const columns = useMemo<GridColDef<CreditPack>[]>(
    () => [
      { field: 'label', headerName: t('creditPacks.fields.label'), flex: 1, minWidth: 130, valueGetter: (_, row) => (row.label ? localized(row.label) : '—') },
      { field: 'credits', headerName: t('creditPacks.fields.credits'), width: 100, type: 'number', valueFormatter: (value: number) => formatNumber(value, lang) },
      { field: 'bonusCredits', headerName: t('creditPacks.fields.bonusCredits'), width: 100, type: 'number', valueFormatter: (value: number) => formatNumber(value, lang) },
      { field: 'priceCents', headerName: t('creditPacks.fields.price'), width: 110, type: 'number', valueFormatter: (_, row) => formatMoney(row.priceCents, row.currency, lang) },
      { field: 'archived', headerName: t('archive.status'), width: 120, renderCell: ({ row }) => <ArchivedChip archived={row.archived} /> },
      {
        field: 'actions',
        headerName: '',
        width: 84,
        renderCell: ({ row }) => (
          <Stack direction="row" sx={{ height: '100%', alignItems: 'center' }}>
            <EditButton hideText recordItemId={row.id} aria-label={t('buttons.edit')} />
            {!row.archived && (
              <ArchiveButton
                resource="creditPacks"
                id={row.id}
                title={t('creditPacks.archive.title', { name: row.label ? localized(row.label) : row.credits })}
                text={t('creditPacks.archive.text')}
                done={t('creditPacks.archive.done')}
              />
            )}
          </Stack>
        ),
      },
    ],
    [t, lang, localized],
  );
  const phoneColumns = usePhoneColumns(['credits', 'bonusCredits', 'archived']);
  return (
    <List title={<ViewTitle>{t('creditPacks.titles.list')}</ViewTitle>} createButtonProps={{ children: t('creditPacks.create') }}>
      <DataGrid {...asGridProps<CreditPack>(dataGridProps)} {...useGridDefaults()} columns={columns} columnVisibilityModel={phoneColumns} disableColumnSorting />
    </List>
  );
}
