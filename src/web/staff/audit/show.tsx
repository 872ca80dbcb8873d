import { Box, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useShow } from '@refinedev/core';
import { Show } from '@refinedev/mui';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '../../../contract/staff.ts';
import type { ApiError } from '../../app/api.ts';
import { ErrorAlert, Fact, Facts } from '../common.tsx';
import { formatDate } from '../../ui/format.ts';
import { PageTitle, ShowLink } from '../lists.tsx';
import { EntityLink } from './EntityLink.tsx';

type Snapshot = Record<string, unknown> | null;

const asSnapshot = (value: unknown): Snapshot => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null);

/** A value of a snapshot as text: nested objects as compact JSON, nothing as a dash. */
function show(value: unknown): string {
  if (value === undefined || value === null) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The entity's fields before and after the change, the changed ones first and marked. */
function BeforeAfter({ before, after }: { before: unknown; after: unknown }) {
  const { t } = useTranslation('staff');
  const [was, is] = [asSnapshot(before), asSnapshot(after)];
  const fields = [...new Set([...Object.keys(was ?? {}), ...Object.keys(is ?? {})])];
  const changed = (field: string) => show(was?.[field]) !== show(is?.[field]);
  fields.sort((a, b) => Number(changed(b)) - Number(changed(a)));
  if (fields.length === 0) return <Typography color="text.secondary">{t('audit.noSnapshot')}</Typography>;
  return (
    <TableContainer>
      <Table size="small" aria-label={t('audit.changes')} data-testid="audit-changes">
        <TableHead>
          <TableRow>
            <TableCell>{t('audit.field')}</TableCell>
            <TableCell>{t('audit.fields.before')}</TableCell>
            <TableCell>{t('audit.fields.after')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {fields.map((field) => (
            <TableRow key={field} data-changed={changed(field)} sx={changed(field) ? { bgcolor: 'action.hover' } : undefined}>
              <TableCell sx={{ fontWeight: changed(field) ? 700 : 400 }}>{field}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace', fontSize: '0.8rem', overflowWrap: 'anywhere', maxWidth: 320 }}>{show(was?.[field])}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace', fontSize: '0.8rem', overflowWrap: 'anywhere', maxWidth: 320 }}>{show(is?.[field])}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** One staff write: who, when, why, and the entity before and after. */
export function AuditShow() {
  const { t, i18n } = useTranslation('staff');
  const { query, result: entry } = useShow<AuditEntry, ApiError>({ resource: 'audit' });
  return (
    <Show resource="audit" isLoading={query.isLoading} breadcrumb={false} title={<PageTitle>{entry ? t(`audit.actions.${entry.action}`, entry.action) : t('audit.titles.show')}</PageTitle>}>
      <ErrorAlert error={query.error} />
      {entry && (
        <>
          <Facts>
            <Fact label={t('audit.fields.actor')}>
              <ShowLink resource="users" id={entry.actorId}>
                {entry.actorName}
              </ShowLink>
            </Fact>
            <Fact label={t('audit.fields.createdAt')}>{formatDate(entry.createdAt, i18n.language)}</Fact>
            <Fact label={t('audit.fields.action')}>
              <Typography component="span" sx={{ fontFamily: 'monospace' }}>
                {entry.action}
              </Typography>
            </Fact>
            <Fact label={t('audit.fields.entity')}>
              <EntityLink entity={entry.entity} id={entry.entityId} name={entry.entityName} />
            </Fact>
          </Facts>
          <Box sx={{ mb: 3 }}>
            <Fact label={t('audit.fields.reason')}>
              <span data-testid="audit-reason">{entry.reason ?? '—'}</span>
            </Fact>
          </Box>
          <BeforeAfter before={entry.before} after={entry.after} />
        </>
      )}
    </Show>
  );
}
