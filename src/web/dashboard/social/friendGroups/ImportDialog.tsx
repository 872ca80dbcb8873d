import { useState } from 'react';
import { Alert, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useCustomMutation } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { FriendGroupImportReport, ImportResult } from '../../../../contract/social.ts';
import { ActionAlert, useConfirmedAction } from '../../../ui/useConfirmedAction.tsx';

/** The API's largest list at once. */
const IMPORT_MAX = 200;

/** Names one per line (or separated by commas, semicolons or spaces), duplicates dropped. */
function parseNames(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
}

const resultColor: Record<ImportResult, 'success' | 'default' | 'error' | 'warning'> = { ADDED: 'success', ALREADY_MEMBER: 'default', INVALID: 'error', BLOCKED: 'warning' };

/** Pasted Minecraft names added to a group at once, then one result per name. */
export function ImportDialog({ open, groupId, onClose, onImported }: { open: boolean; groupId: string; onClose: () => void; onImported: () => Promise<unknown> }) {
  const { t } = useTranslation('social');
  const [text, setText] = useState('');
  const [report, setReport] = useState<FriendGroupImportReport | null>(null);
  const { run, busy, result, dismiss } = useConfirmedAction();
  const { mutateAsync } = useCustomMutation<FriendGroupImportReport>();
  const names = parseNames(text);
  const tooMany = names.length > IMPORT_MAX;
  const close = () => {
    setText('');
    setReport(null);
    dismiss();
    onClose();
  };
  const submit = () =>
    void run({
      action: async () => {
        const { data } = await mutateAsync({ url: `/v1/friend/group/${groupId}/member/import`, method: 'post', values: { mcNames: names } });
        setReport(data);
        await onImported();
      },
      failure: t('import.failed'),
    });
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="import-title">
      <DialogTitle id="import-title">{t('import.title')}</DialogTitle>
      <DialogContent>
        {report ? (
          <ImportReport report={report} />
        ) : (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('import.help', { max: IMPORT_MAX })}
            </Typography>
            <TextField
              autoFocus
              multiline
              fullWidth
              minRows={6}
              maxRows={14}
              label={t('import.label')}
              value={text}
              onChange={(e) => setText(e.target.value)}
              error={tooMany}
              helperText={tooMany ? t('import.tooMany', { max: IMPORT_MAX, n: names.length }) : t('import.count', { count: names.length })}
            />
            <ActionAlert result={result} />
          </>
        )}
      </DialogContent>
      <DialogActions>
        {report ? (
          <Button variant="contained" onClick={close}>
            {t('close')}
          </Button>
        ) : (
          <>
            <Button onClick={close}>{t('cancel')}</Button>
            <Button variant="contained" onClick={submit} disabled={busy || names.length === 0 || tooMany}>
              {t('import.submit')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}

function ImportReport({ report }: { report: FriendGroupImportReport }) {
  const { t } = useTranslation('social');
  return (
    <>
      <Alert severity={report.added > 0 ? 'success' : 'info'} sx={{ mb: 1.5 }} data-testid="import-summary">
        {t('import.summary', { count: report.added, total: report.results.length })}
      </Alert>
      <TableContainer sx={{ maxHeight: 360 }}>
        <Table size="small" stickyHeader aria-label={t('import.results')} data-testid="import-results">
          <TableHead>
            <TableRow>
              <TableCell>{t('import.name')}</TableCell>
              <TableCell>{t('import.result')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {report.results.map((r, i) => (
              <TableRow key={`${i}-${r.mcName}`} data-testid={`import-row-${r.mcName}`}>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{r.mcName}</TableCell>
                <TableCell>
                  <Chip size="small" color={resultColor[r.result]} label={t(`import.outcome.${r.result}`)} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}
