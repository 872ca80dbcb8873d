import { useState } from 'react';
import { Alert, Box, Card, CardContent, CardHeader, IconButton, Typography, useMediaQuery, useTheme } from '@mui/material';
import { PictureAsPdf as PdfIcon } from '@mui/icons-material';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useTranslation } from 'react-i18next';
import type { Invoice } from '../../../contract/invoices.ts';
import { errorText } from '../../app/api.ts';
import { downloadInvoicePdf } from '../../ui/invoicePdf.ts';
import { formatDate } from '../../ui/format.ts';
import { EmptyState, LoadError, useErrorMessage } from '../../ui/states.tsx';
import { formatMoney } from '../checkout/money.ts';
import { useResourceGrid } from '../../dashboard/lists.tsx';

/** The player's invoices and credit notes, each with its PDF. */
export function InvoicesGrid() {
  const { t, i18n } = useTranslation('credits');
  const { t: tLine } = useTranslation('invoices');
  const errorMessage = useErrorMessage();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const { gridProps, error, reload, isEmpty } = useResourceGrid<Invoice>('invoices', { pageSize: 10 });
  const [pdfError, setPdfError] = useState<string | null>(null);
  const lang = i18n.language;
  const columns: GridColDef<Invoice>[] = [
    {
      field: 'number',
      headerName: t('account.invoices.number'),
      width: 150,
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4 }}>
          {row.number}
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {t(`account.invoices.kind.${row.kind}`)}
          </Typography>
        </Box>
      ),
    },
    { field: 'issuedAt', headerName: t('account.invoices.date'), width: 170, valueFormatter: (value: string) => formatDate(value, lang) },
    {
      field: 'lines',
      headerName: t('account.invoices.description'),
      flex: 1,
      minWidth: 120,
      // In the language on screen, from the line's key (the API's text, in the cookie's language, for a key this build lacks).
      renderCell: ({ row }) => (
        <Box sx={{ lineHeight: 1.4, whiteSpace: 'normal', overflowWrap: 'anywhere' }}>{row.lines.map((l) => tLine(`lines.${l.key}`, { ...l.params, defaultValue: l.description })).join(', ')}</Box>
      ),
    },
    { field: 'totalCents', headerName: t('account.invoices.total'), type: 'number', width: 110, valueFormatter: (value: number, row) => formatMoney(value, row.currency, lang) },
    {
      field: 'pdf',
      headerName: t('account.invoices.pdf'),
      width: 70,
      sortable: false,
      renderCell: ({ row }) => (
        <IconButton
          aria-label={t('account.invoices.download', { number: row.number })}
          onClick={() => {
            setPdfError(null);
            downloadInvoicePdf(`/v1/purchase/invoice/${encodeURIComponent(row.id)}`, row.number, lang).catch((err: unknown) => setPdfError(`${t('account.invoices.pdfError')} ${errorText(err)}`));
          }}
        >
          <PdfIcon />
        </IconButton>
      ),
    },
  ];
  return (
    <Card>
      <CardHeader title={t('account.invoices.title')} titleTypographyProps={{ variant: 'h4', component: 'h2' }} />
      <CardContent sx={{ pt: 0 }}>
        {error && <LoadError message={`${t('account.loadError')} ${errorMessage(error)}`} onRetry={reload} />}
        {pdfError && (
          <Alert severity="error" sx={{ mb: 2 }} onClose={() => setPdfError(null)}>
            {pdfError}
          </Alert>
        )}
        {isEmpty && <EmptyState title={t('account.invoices.empty')} />}
        {!error && !isEmpty && (
          <Box data-testid="invoices-grid">
            <DataGrid
              {...gridProps}
              columns={columns}
              aria-label={t('account.invoices.title')}
              getRowHeight={() => 'auto'}
              columnVisibilityModel={{ issuedAt: !phone, lines: !phone }}
              sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: 1 } }}
            />
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
