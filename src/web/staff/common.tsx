import type { ReactNode } from 'react';
import { Alert, Box, Chip, IconButton, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import { ArchiveOutlined as ArchiveIcon, ArrowBack as ArrowBackIcon } from '@mui/icons-material';
import { useBack, useCan } from '@refinedev/core';
import type { DataGridProps, GridValidRowModel } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import { errorText } from '../app/api.ts';
import { gridLocaleText } from '../ui/gridLocale.ts';
import { DeleteAction } from './DeleteAction.tsx';

/** What every back-office grid shares: the page's language, no client-side sorting or filtering the API would not do. */
export function useGridDefaults() {
  const { i18n } = useTranslation();
  return {
    localeText: gridLocaleText(i18n.language),
    pageSizeOptions: [10, 20, 50, 100],
    disableColumnMenu: true,
    disableColumnFilter: true,
    disableRowSelectionOnClick: true,
    autoHeight: true,
    sx: { border: 0 },
  } satisfies Partial<DataGridProps>;
}

/**
 * useDataGrid's props as our DataGrid takes them. @refinedev/mui's types name the grid's CommonJS
 * typings and ours its ES module ones: the same props, two types TypeScript will not match.
 */
export function asGridProps<R extends GridValidRowModel>(props: object): Omit<DataGridProps<R>, 'columns'> {
  return props as Omit<DataGridProps<R>, 'columns'>;
}

/** A call that failed, in the API's own words (a form's field errors show on the fields). */
export function ErrorAlert({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <Alert severity="error" sx={{ mb: 2 }} data-testid="form-error">
      {title && <strong>{title} </strong>}
      {errorText(error)}
    </Alert>
  );
}

/** One label and its value on a show page. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="p">
        {label}
      </Typography>
      <Box sx={{ overflowWrap: 'anywhere' }}>{children}</Box>
    </Box>
  );
}

/** Facts side by side on a wide screen, stacked on a phone. */
export function Facts({ children }: { children: ReactNode }) {
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', columnGap: 4, rowGap: 2, mb: 3 }}>
      {children}
    </Stack>
  );
}

/**
 * Takes a record off sale after a confirmation (the API's DELETE: archived, kept on what used it).
 * Hidden for a record archived already, and, by access control, for support.
 */
export function ArchiveButton({ resource, id, title, text, done }: { resource: string; id: string; title: string; text?: string; done: string }) {
  const { t } = useTranslation('staff');
  return (
    <DeleteAction
      resource={resource}
      id={id}
      label={t('archive.action')}
      icon={<ArchiveIcon fontSize="small" />}
      title={title}
      text={text}
      successNotification={{ message: done, type: 'success' }}
      errorNotification={(error) => ({ message: t('archive.failed'), description: errorText(error), type: 'error' })}
    />
  );
}

/** On sale, or archived. */
export function ArchivedChip({ archived }: { archived: boolean }) {
  const { t } = useTranslation('staff');
  return <Chip size="small" color={archived ? 'default' : 'success'} variant={archived ? 'outlined' : 'filled'} label={archived ? t('archive.archived') : t('archive.active')} />;
}

/** The views' back arrow, named for screen readers (Refine's has no name). */
export function BackButton() {
  const { t } = useTranslation('staff');
  const back = useBack();
  return (
    <IconButton onClick={back} aria-label={t('buttons.back')}>
      <ArrowBackIcon />
    </IconButton>
  );
}

/** A view's title, the page's one h1. */
export function ViewTitle({ children }: { children: ReactNode }) {
  return (
    <Typography variant="h4" component="h1" sx={{ overflowWrap: 'anywhere' }}>
      {children}
    </Typography>
  );
}

/** Which columns a phone shows: the secondary ones are hidden below 600 px. */
export function usePhoneColumns(secondary: string[]): Record<string, boolean> {
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  return phone ? Object.fromEntries(secondary.map((c) => [c, false])) : {};
}

/**
 * Whether the signed-in user may change a record of `resource` (staff may, support only read). An
 * edit page opened by someone who may not shows the record read-only, with no button that would
 * only be refused: `footerButtons` hides Save, `ReadOnly` disables the fields and says why.
 */
export function useReadOnly(resource: string): { readOnly: boolean; footerButtons?: () => null } {
  const can = useCan({ resource, action: 'edit' }).data?.can ?? true;
  return can ? { readOnly: false } : { readOnly: true, footerButtons: () => null };
}

export function ReadOnly({ readOnly, children }: { readOnly: boolean; children: ReactNode }) {
  const { t } = useTranslation('staff');
  return (
    <>
      {readOnly && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="read-only">
          {t('readOnly')}
        </Alert>
      )}
      <Box component="fieldset" disabled={readOnly} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
        {children}
      </Box>
    </>
  );
}
