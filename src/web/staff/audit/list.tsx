import { Box, Chip, TextField, Typography, useMediaQuery, useTheme } from '@mui/material';
import { List } from '@refinedev/mui';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '../../../contract/staff.ts';
import { useGridDefaults } from '../common.tsx';
import { formatDate } from '../../ui/format.ts';
import { FilterBar, FilterSelect, LoadFailure, PageTitle, ShowLink, useFilteredGrid } from '../lists.tsx';
import { UserPicker } from '../users/UserPicker.tsx';
import { EntityLink } from './EntityLink.tsx';

/** The kinds of things staff change, as the audit log names them. */
const auditedEntities = ['user', 'game', 'payment', 'review', 'definition', 'package', 'pricing', 'promoCode', 'plan'] as const;

type Filter = 'actorId' | 'entity' | 'entityId' | 'from' | 'to';

/** Every staff write, newest first (read-only): who, when, what, on which entity and why. */
export function AuditList() {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language;
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const defaults = useGridDefaults();
  const { gridProps, values, setFilter, tableQuery } = useFilteredGrid<AuditEntry, Filter>('audit', ['actorId', 'entity', 'entityId', 'from', 'to'], { field: 'createdAt', order: 'desc' });
  const columns: GridColDef<AuditEntry>[] = [
    {
      field: 'createdAt',
      headerName: t('audit.fields.createdAt'),
      width: 180,
      valueFormatter: (value: string) => formatDate(value, lang),
    },
    {
      field: 'actorName',
      headerName: t('audit.fields.actor'),
      width: 130,
      sortable: false,
      renderCell: ({ row }) => (
        <ShowLink resource="users" id={row.actorId}>
          {row.actorName}
        </ShowLink>
      ),
    },
    {
      field: 'action',
      headerName: t('audit.fields.action'),
      flex: 1,
      minWidth: 200,
      sortable: false,
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4, whiteSpace: 'normal', overflowWrap: 'anywhere' }}>
          <ShowLink resource="audit" id={row.id}>
            {t(`audit.actions.${row.action}`, row.action)}
          </ShowLink>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            <EntityLink entity={row.entity} id={row.entityId} name={row.entityName} />
          </Typography>
          {/* A phone shows only this column: the reason, who and when go under the action. */}
          {phone && (
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
              {[row.reason, row.actorName, formatDate(row.createdAt, lang)].filter(Boolean).join(' · ')}
            </Typography>
          )}
        </Box>
      ),
    },
    {
      field: 'reason',
      headerName: t('audit.fields.reason'),
      flex: 2,
      minWidth: 160,
      sortable: false,
      renderCell: ({ row }) => <Box sx={{ lineHeight: 1.4, whiteSpace: 'normal', overflowWrap: 'anywhere' }}>{row.reason ?? '—'}</Box>,
    },
  ];
  return (
    <List resource="audit" title={<PageTitle>{t('audit.titles.list')}</PageTitle>} breadcrumb={false}>
      <FilterBar>
        <UserPicker label={t('audit.fields.actor')} value={values.actorId} onChange={(id) => setFilter('actorId', id)} testId="audit-actor" />
        <FilterSelect
          label={t('audit.fields.entity')}
          value={values.entity}
          onChange={(v) => setFilter('entity', v)}
          options={auditedEntities.map((entity) => ({ value: entity, label: t(`audit.entities.${entity}`) }))}
          testId="audit-entity"
        />
        {(['from', 'to'] as const).map((field) => (
          <TextField
            key={field}
            type="date"
            size="small"
            label={t(`audit.filters.${field}`)}
            value={values[field]}
            onChange={(e) => setFilter(field, e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        ))}
        {values.entityId && <Chip label={t('audit.filters.entityId', { id: values.entityId })} onDelete={() => setFilter('entityId', null)} sx={{ alignSelf: 'center' }} />}
      </FilterBar>
      <LoadFailure error={tableQuery.error} onRetry={() => void tableQuery.refetch()} />
      <Box data-testid="audit-grid">
        <DataGrid
          {...defaults}
          {...gridProps}
          columns={columns}
          aria-label={t('audit.titles.list')}
          getRowHeight={() => 'auto'}
          columnVisibilityModel={{ createdAt: !phone, actorName: !phone, reason: !phone }}
          sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 1 } }}
        />
      </Box>
    </List>
  );
}
