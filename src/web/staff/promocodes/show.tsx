import { useMemo } from 'react';
import { Box, Typography } from '@mui/material';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useShow } from '@refinedev/core';
import { Show, useDataGrid } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import type { PromoCode } from '../../../contract/promocodes.ts';
import type { PromoCodeUse } from '../../../contract/staff.ts';
import type { ApiError } from '../../app/api.ts';
import { asGridProps, BackButton, ErrorAlert, Fact, Facts, useGridDefaults, ViewTitle } from '../common.tsx';
import { formatDate } from '../../ui/format.ts';
import { useDescribePromo } from './PromoForm.tsx';
import { PromoStatus } from './PromoStatus.tsx';

/** Who used a code, newest first. */
function UsesGrid({ code }: { code: string }) {
  const { t, i18n } = useTranslation('staff');
  const { dataGridProps } = useDataGrid<PromoCodeUse, ApiError>({
    resource: 'promoCodeUses',
    meta: { params: { code } },
    pagination: { pageSize: 10 },
    sorters: { mode: 'off' },
    filters: { mode: 'off' },
    // A part of the code's page: its paging is not the page's address, which names the code.
    syncWithLocation: false,
  });
  const columns = useMemo<GridColDef<PromoCodeUse>[]>(
    () => [
      { field: 'userName', headerName: t('promoCodes.uses.user'), flex: 1, minWidth: 140 },
      { field: 'usedAt', headerName: t('promoCodes.uses.usedAt'), width: 180, valueGetter: (_, row) => formatDate(row.usedAt, i18n.language) },
      { field: 'paymentId', headerName: t('promoCodes.uses.on'), width: 150, valueGetter: (_, row) => (row.paymentId ? t('promoCodes.uses.payment') : row.gameId ? t('promoCodes.uses.game') : '—') },
    ],
    [t, i18n.language],
  );
  const defaults = useGridDefaults();
  return (
    <Box data-testid="promo-uses">
      <DataGrid
        {...asGridProps<PromoCodeUse>(dataGridProps)}
        {...defaults}
        getRowId={(row) => `${row.userId}-${row.usedAt}`}
        columns={columns}
        disableColumnSorting
        localeText={{ ...defaults.localeText, noRowsLabel: t('promoCodes.uses.none') }}
      />
    </Box>
  );
}

/** A code's terms, how far it is used, and who used it. */
export function PromoShow() {
  const { t, i18n } = useTranslation('staff');
  const describe = useDescribePromo();
  const { query, showId } = useShow<PromoCode, ApiError>({ resource: 'promoCodes' });
  const p = query.data?.data;
  const lang = i18n.language;
  return (
    <Show goBack={<BackButton />} title={<ViewTitle>{p?.code ?? t('promoCodes.promoCodes')}</ViewTitle>} isLoading={query.isLoading} canDelete={false}>
      <ErrorAlert error={query.error} />
      {p && (
        <Facts>
          <Fact label={t('archive.status')}>
            <PromoStatus code={p} />
          </Fact>
          <Fact label={t('promoCodes.fields.gives')}>{describe(p)}</Fact>
          <Fact label={t('promoCodes.fields.uses')}>{p.maxUses ? `${p.uses} / ${p.maxUses}` : p.uses}</Fact>
          <Fact label={t('promoCodes.fields.validFrom')}>{p.validFrom ? formatDate(p.validFrom, lang) : t('promoCodes.fields.noLimit')}</Fact>
          <Fact label={t('promoCodes.fields.validUntil')}>{p.validUntil ? formatDate(p.validUntil, lang) : t('promoCodes.fields.noLimit')}</Fact>
          <Fact label={t('promoCodes.fields.createdAt')}>{formatDate(p.createdAt, lang)}</Fact>
        </Facts>
      )}
      <Typography variant="h4" component="h2" sx={{ mb: 1 }}>
        {t('promoCodes.uses.title')}
      </Typography>
      {showId !== undefined && <UsesGrid code={String(showId)} />}
    </Show>
  );
}
