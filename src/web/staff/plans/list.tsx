import { useMemo } from 'react';
import { Stack } from '@mui/material';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { EditButton, List, useDataGrid } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import type { SubscriptionPlan } from '../../../contract/subscriptions.ts';
import type { ApiError } from '../../app/api.ts';
import { formatMoney } from '../../money/checkout/money.ts';
import { formatNumber } from '../../ui/format.ts';
import { ArchiveButton, ArchivedChip, asGridProps, useGridDefaults, usePhoneColumns, ViewTitle } from '../common.tsx';

type PlanRow = SubscriptionPlan & { subscriberCount?: number };

/** The subscription plans, archived ones too: price per period, credits granted, subscribers now. */
export function PlanList() {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language;
  const { dataGridProps } = useDataGrid<PlanRow, ApiError>({ resource: 'plans', pagination: { pageSize: 20 }, sorters: { mode: 'off' }, filters: { mode: 'off' } });
  const columns = useMemo<GridColDef<PlanRow>[]>(
    () => [
      { field: 'name', headerName: t('plans.fields.name'), flex: 1, minWidth: 110, valueGetter: (_, row) => row.name[lang === 'en' ? 'en' : 'fr'] },
      { field: 'priceCents', headerName: t('plans.fields.price'), width: 124, valueGetter: (_, row) => `${formatMoney(row.priceCents, row.currency, lang)} / ${t(`plans.per.${row.interval}`)}` },
      { field: 'credits', headerName: t('plans.fields.creditsColumn'), width: 100, type: 'number', valueFormatter: (value: number) => formatNumber(value, lang) },
      { field: 'subscriberCount', headerName: t('plans.fields.subscribers'), width: 110, type: 'number', valueGetter: (_, row) => row.subscriberCount ?? 0 },
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
                resource="plans"
                id={row.id}
                title={t('plans.archive.title', { name: row.name[lang === 'en' ? 'en' : 'fr'] })}
                text={t('plans.archive.text')}
                done={t('plans.archive.done')}
              />
            )}
          </Stack>
        ),
      },
    ],
    [t, lang],
  );
  const phoneColumns = usePhoneColumns(['credits', 'subscriberCount', 'archived']);
  return (
    <List title={<ViewTitle>{t('plans.titles.list')}</ViewTitle>} createButtonProps={{ children: t('plans.create') }}>
      <DataGrid {...asGridProps<PlanRow>(dataGridProps)} {...useGridDefaults()} columns={columns} columnVisibilityModel={phoneColumns} disableColumnSorting />
    </List>
  );
}
