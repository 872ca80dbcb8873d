import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CardHeader, InputAdornment, Stack, TextField, Typography } from '@mui/material';
import { Add as AddIcon } from '@mui/icons-material';
import { useCan, useCustomMutation, useInvalidate } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { GamePackage } from '../../../contract/catalogue.ts';
import { ApiError, errorText } from '../../app/api.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';

/** Each field by the API's path for it, so the API's field errors land on it. */
const fields = ['name.fr', 'name.en', 'description.fr', 'description.en', 'ramMb', 'maxPlayers', 'periodDays', 'priceCredits', 'backupsKept', 'backupsMaxMb'] as const;
type Field = (typeof fields)[number];
type Values = Record<Field, string>;
const labels: Record<Field, string> = {
  'name.fr': 'nameFr',
  'name.en': 'nameEn',
  'description.fr': 'descriptionFr',
  'description.en': 'descriptionEn',
  ramMb: 'ramMb',
  maxPlayers: 'maxPlayers',
  periodDays: 'periodDays',
  priceCredits: 'priceCredits',
  backupsKept: 'backupsKept',
  backupsMaxMb: 'backupsMaxMb',
};
const isText = (f: Field) => f.startsWith('name.') || f.startsWith('description.');
/** The backup quota's bounds (src/contract/catalogue.ts), checked before sending so a slip is named at once. */
const quotaRanges: Partial<Record<Field, { min: number; max: number }>> = { backupsKept: { min: 1, max: 100 }, backupsMaxMb: { min: 100, max: 1_000_000 } };

interface Row {
  /** The package's id once saved; a row added here has a key of its own until then. */
  id: string | null;
  key: string;
  values: Values;
  saved: Values;
  errors: Partial<Record<Field, string>>;
  error: string | null;
}

const valuesOf = (p: GamePackage): Values => ({
  'name.fr': p.name.fr,
  'name.en': p.name.en,
  'description.fr': p.description?.fr ?? '',
  'description.en': p.description?.en ?? '',
  ramMb: String(p.ramMb),
  maxPlayers: String(p.maxPlayers),
  periodDays: String(p.periodDays),
  priceCredits: String(p.priceCredits),
  backupsKept: String(p.backupsKept),
  backupsMaxMb: String(p.backupsMaxMb),
});
const rowOf = (p: GamePackage): Row => ({ id: p.id, key: p.id, values: valuesOf(p), saved: valuesOf(p), errors: {}, error: null });
// The API's own quota for a package made without one: 7 backups in 10 GB.
const blank: Values = {
  'name.fr': '',
  'name.en': '',
  'description.fr': '',
  'description.en': '',
  ramMb: '1024',
  maxPlayers: '10',
  periodDays: '30',
  priceCredits: '',
  backupsKept: '7',
  backupsMaxMb: '10240',
};

/**
 * Numbers as numbers; what is not one goes as typed, for the API to name the field. No description
 * in either language sends none (null removes a saved one); one language alone is sent for the API
 * to name the missing one.
 */
function body(values: Values) {
  const number = (v: string) => (v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v);
  const described = values['description.fr'].trim() !== '' || values['description.en'].trim() !== '';
  return {
    name: { fr: values['name.fr'], en: values['name.en'] },
    description: described ? { fr: values['description.fr'], en: values['description.en'] } : null,
    ramMb: number(values.ramMb),
    maxPlayers: number(values.maxPlayers),
    periodDays: number(values.periodDays),
    priceCredits: number(values.priceCredits),
    backupsKept: number(values.backupsKept),
    backupsMaxMb: number(values.backupsMaxMb),
  };
}

/**
 * A definition's packages, edited in place: each row saves or is removed on its own (games bought
 * keep what they paid; a package games use cannot be removed), a new row is added at the end.
 */
export function PackagesEditor({ definitionId, packages }: { definitionId: string; packages: GamePackage[] }) {
  const { t, i18n } = useTranslation('staff');
  const lang = i18n.language === 'en' ? 'en' : 'fr';
  const [rows, setRows] = useState<Row[]>(() => packages.map(rowOf));
  const [removing, setRemoving] = useState<Row | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const { mutateAsync } = useCustomMutation<GamePackage, ApiError>();
  const invalidate = useInvalidate();
  const canEdit = useCan({ resource: 'definitions', action: 'edit' }).data?.can ?? false;
  const update = (key: string, change: Partial<Row>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...change } : r)));
  // The list shows how many packages each definition has.
  const refreshList = () => void invalidate({ resource: 'definitions', invalidates: ['list'] });

  /** The quota fields that are no whole number within their bounds, with what they take. */
  const outOfRange = (values: Values): Partial<Record<Field, string>> =>
    Object.fromEntries(
      Object.entries(quotaRanges).flatMap(([f, { min, max }]) => {
        const n = Number(values[f as Field]);
        const fine = values[f as Field].trim() !== '' && Number.isInteger(n) && n >= min && n <= max;
        return fine ? [] : [[f, t('definitions.packages.outOfRange', { min: min.toLocaleString(i18n.language), max: max.toLocaleString(i18n.language) })]];
      }),
    );

  const save = async (row: Row) => {
    const refused = outOfRange(row.values);
    if (Object.keys(refused).length) return update(row.key, { errors: refused, error: null });
    setBusy(row.key);
    update(row.key, { errors: {}, error: null });
    try {
      const { data } = await mutateAsync({
        url: row.id ? `/v1/definition/game/package?id=${encodeURIComponent(row.id)}` : '/v1/definition/game/package',
        method: row.id ? 'put' : 'post',
        values: row.id ? body(row.values) : { definitionId, ...body(row.values) },
        successNotification: { message: t('definitions.packages.saved', { name: row.values[`name.${lang}`] }), type: 'success' },
        errorNotification: false,
      });
      update(row.key, { id: data.id, values: valuesOf(data), saved: valuesOf(data) });
      refreshList();
    } catch (err) {
      const errors = err instanceof ApiError ? (err.errors ?? {}) : {};
      update(row.key, { errors, error: Object.keys(errors).length ? null : errorText(err) });
    } finally {
      setBusy(null);
    }
  };

  const remove = async (row: Row) => {
    setRemoving(null);
    if (!row.id) return setRows((all) => all.filter((r) => r.key !== row.key));
    setBusy(row.key);
    try {
      await mutateAsync({
        url: `/v1/definition/game/package?id=${encodeURIComponent(row.id)}`,
        method: 'delete',
        values: {},
        successNotification: { message: t('definitions.packages.removed', { name: row.saved[`name.${lang}`] }), type: 'success' },
        errorNotification: false,
      });
      setRows((all) => all.filter((r) => r.key !== row.key));
      refreshList();
    } catch (err) {
      update(row.key, { error: err instanceof ApiError && err.status === 409 ? t('definitions.packages.inUse') : errorText(err) });
    } finally {
      setBusy(null);
    }
  };

  const add = () => setRows((all) => [...all, { id: null, key: `new-${Date.now()}`, values: blank, saved: blank, errors: {}, error: null }]);

  return (
    <Card data-testid="packages-editor">
      <CardHeader title={t('definitions.fields.packages')} slotProps={{ title: { variant: 'h3', component: 'h2', sx: { fontSize: '1.1rem' } } }} />
      <CardContent sx={{ pt: 0 }}>
        {rows.length === 0 && (
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('definitions.packages.empty')}
          </Typography>
        )}
        <Stack spacing={2}>
          {rows.map((row, i) => {
            const dirty = !row.id || fields.some((f) => row.values[f] !== row.saved[f]);
            return (
              <Box
                key={row.key}
                component="fieldset"
                sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 2, m: 0 }}
                data-testid="package-row"
                aria-label={t('definitions.packages.row', { n: i + 1 })}
              >
                <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } }}>
                  {fields.map((f) => (
                    <TextField
                      key={f}
                      label={t(`definitions.packages.${labels[f]}`)}
                      value={row.values[f]}
                      onChange={(e) => update(row.key, { values: { ...row.values, [f]: e.target.value } })}
                      error={!!row.errors[f]}
                      helperText={row.errors[f]}
                      type={isText(f) ? 'text' : 'number'}
                      required={f.startsWith('name.') || f in quotaRanges}
                      multiline={f.startsWith('description.')}
                      size="small"
                      disabled={!canEdit}
                      sx={isText(f) ? { gridColumn: { xs: '1 / -1', md: 'span 2' } } : undefined}
                      slotProps={{
                        htmlInput: quotaRanges[f] ? { min: quotaRanges[f].min, max: quotaRanges[f].max, step: 1 } : undefined,
                        input: f === 'backupsMaxMb' ? { endAdornment: <InputAdornment position="end">{t('definitions.packages.backupsMaxMbUnit')}</InputAdornment> } : undefined,
                      }}
                    />
                  ))}
                </Box>
                {row.error && (
                  <Alert severity="error" sx={{ mt: 1.5 }} data-testid="package-error">
                    {row.error}
                  </Alert>
                )}
                {canEdit && (
                  <Stack direction="row" spacing={1} sx={{ mt: 1.5, justifyContent: 'flex-end' }}>
                    <Button color="error" onClick={() => (row.id ? setRemoving(row) : void remove(row))} disabled={busy === row.key}>
                      {t('definitions.packages.remove')}
                    </Button>
                    <Button variant="contained" onClick={() => void save(row)} disabled={!dirty || busy === row.key} loading={busy === row.key}>
                      {t('definitions.packages.save')}
                    </Button>
                  </Stack>
                )}
              </Box>
            );
          })}
        </Stack>
        {canEdit && (
          <Button startIcon={<AddIcon />} onClick={add} sx={{ mt: 2 }}>
            {t('definitions.packages.add')}
          </Button>
        )}
      </CardContent>
      <ConfirmDialog
        open={removing !== null}
        title={t('definitions.packages.removeTitle', { name: removing?.saved[`name.${lang}`] })}
        text={t('definitions.packages.removeText')}
        confirm={t('definitions.packages.remove')}
        onConfirm={() => removing && void remove(removing)}
        onClose={() => setRemoving(null)}
      />
    </Card>
  );
}
