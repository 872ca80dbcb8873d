import { useState } from 'react';
import { Box, Button, Chip, Rating, Typography, useMediaQuery, useTheme } from '@mui/material';
import { Restore as RestoreIcon, VisibilityOff as HideIcon } from '@mui/icons-material';
import { CanAccess, useInvalidate, useList } from '@refinedev/core';
import { List } from '@refinedev/mui';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import type { GameDefinition } from '../../../contract/catalogue.ts';
import type { StaffReview } from '../../../contract/reviews.ts';
import { ActionDialog, ReasonInput } from '../ActionDialog.tsx';
import { useGridDefaults } from '../common.tsx';
import { formatDate } from '../../ui/format.ts';
import { FilterBar, FilterSelect, LoadFailure, PageTitle, ShowLink, useFilteredGrid } from '../lists.tsx';

/** Hides a review from the public list and the average rating (asked again first), or puts it back. */
function ModerateDialog({ review, onClose }: { review: StaffReview; onClose: () => void }) {
  const { t } = useTranslation('staff');
  const invalidate = useInvalidate();
  const action = review.hidden ? 'restore' : 'hide';
  return (
    <ActionDialog<{ reason: string }, StaffReview>
      open
      onClose={onClose}
      testId="moderate-dialog"
      title={t(`reviews.${action}.title`, { name: review.userName })}
      text={review.comment ?? t('reviews.noComment')}
      url={`/v1/staff/reviews/${encodeURIComponent(review.id)}/${action}`}
      defaultValues={{ reason: '' }}
      submitLabel={t(`reviews.${action}.submit`)}
      danger={action === 'hide'}
      confirmation={() => (action === 'hide' ? { title: t('reviews.hide.confirmTitle'), text: t('reviews.hide.confirmText', { name: review.userName }), confirm: t('reviews.hide.submit') } : null)}
      success={() => t(`reviews.${action}.done`)}
      onDone={() => {
        void invalidate({ resource: 'reviews', invalidates: ['list'] });
        void invalidate({ resource: 'audit', invalidates: ['list'] });
      }}
      fields={(control) => <ReasonInput control={control} />}
    />
  );
}

/** Every review, hidden ones too: by game and visibility; sorted by date or rating; staff hide or restore one. */
export function ReviewList() {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language === 'en' ? 'en' : 'fr';
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const defaults = useGridDefaults();
  const [moderating, setModerating] = useState<StaffReview | null>(null);
  const { gridProps, values, setFilter, tableQuery } = useFilteredGrid<StaffReview, 'definitionId' | 'hidden'>('reviews', ['definitionId', 'hidden'], {
    field: 'createdAt',
    order: 'desc',
  });
  const { result: definitions } = useList<GameDefinition>({ resource: 'definitions', pagination: { pageSize: 100 } });
  const columns: GridColDef<StaffReview>[] = [
    { field: 'createdAt', headerName: t('reviews.fields.createdAt'), width: 170, valueFormatter: (value: string) => formatDate(value, lang) },
    {
      field: 'rating',
      headerName: t('reviews.fields.rating'),
      width: 130,
      renderCell: ({ row }) => <Rating value={row.rating} readOnly size="small" aria-label={t('reviews.stars', { count: row.rating })} />,
    },
    {
      field: 'comment',
      headerName: t('reviews.fields.comment'),
      flex: 1,
      minWidth: 160,
      sortable: false,
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4, whiteSpace: 'normal', overflowWrap: 'anywhere' }}>
          {/* A phone has no rating column: the stars go above the review. */}
          {phone && <Rating value={row.rating} readOnly size="small" aria-label={t('reviews.stars', { count: row.rating })} sx={{ display: 'flex' }} />}
          {row.comment ?? (
            <Typography component="span" color="text.secondary">
              {t('reviews.noComment')}
            </Typography>
          )}
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {row.definitionName[lang]} ·{' '}
            <ShowLink resource="users" id={row.userId}>
              {row.userName}
            </ShowLink>
          </Typography>
          {row.hidden && (
            <Typography variant="caption" color="warning.main" sx={{ display: 'block' }} data-testid="hidden-reason">
              {t('reviews.hiddenBecause', { reason: row.hiddenReason ?? '' })}
            </Typography>
          )}
        </Box>
      ),
    },
    {
      field: 'hidden',
      headerName: t('reviews.fields.hidden'),
      width: 110,
      sortable: false,
      renderCell: ({ row }) => <Chip size="small" color={row.hidden ? 'warning' : 'success'} label={t(row.hidden ? 'reviews.hiddenLabel' : 'reviews.visibleLabel')} />,
    },
    {
      field: 'actions',
      headerName: '',
      width: 120,
      sortable: false,
      renderCell: ({ row }) => (
        <CanAccess resource="reviews" action={row.hidden ? 'restore' : 'hide'}>
          <Button size="small" color={row.hidden ? 'primary' : 'error'} startIcon={row.hidden ? <RestoreIcon /> : <HideIcon />} onClick={() => setModerating(row)}>
            {t(row.hidden ? 'reviews.restore.open' : 'reviews.hide.open')}
          </Button>
        </CanAccess>
      ),
    },
  ];
  return (
    <List resource="reviews" title={<PageTitle>{t('reviews.titles.list')}</PageTitle>} breadcrumb={false}>
      <FilterBar>
        <FilterSelect
          label={t('reviews.fields.definition')}
          value={values.definitionId}
          onChange={(v) => setFilter('definitionId', v)}
          options={definitions.data.map((d) => ({ value: d.id, label: d.name[lang] }))}
          testId="reviews-definition"
        />
        <FilterSelect
          label={t('reviews.fields.hidden')}
          value={values.hidden}
          onChange={(v) => setFilter('hidden', v)}
          options={[
            { value: 'false', label: t('reviews.visibleOnly') },
            { value: 'true', label: t('reviews.hiddenOnly') },
          ]}
          testId="reviews-hidden"
        />
      </FilterBar>
      <LoadFailure error={tableQuery.error} onRetry={() => void tableQuery.refetch()} />
      <Box data-testid="reviews-grid">
        <DataGrid
          {...defaults}
          {...gridProps}
          columns={columns}
          aria-label={t('reviews.titles.list')}
          getRowHeight={() => 'auto'}
          columnVisibilityModel={{ createdAt: !phone, rating: !phone, hidden: !phone }}
          sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 1 } }}
        />
      </Box>
      {moderating && <ModerateDialog review={moderating} onClose={() => setModerating(null)} />}
    </List>
  );
}
