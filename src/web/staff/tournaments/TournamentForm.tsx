import { Box, Stack, Typography } from '@mui/material';
import { useCustom } from '@refinedev/core';
import type { Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { RankedModeList } from '../../../contract/competitions.ts';
import { tournamentFormats, type TournamentCreate } from '../../../contract/tournaments.ts';
import { useLocalized } from '../../ui/format.ts';
import { DateTimeInput, NumberInput, SelectInput, TextInput } from '../fields.tsx';

/** The form's values: what a creation sends, dates and numbers null until given. */
export type TournamentValues = Omit<TournamentCreate, 'maxEntrants' | 'entryFee' | 'prizeFirst' | 'prizeSecond' | 'prizeThird' | (typeof dateFields)[number]> & {
  maxEntrants: number | null;
  entryFee: number | null;
  prizeFirst: number | null;
  prizeSecond: number | null;
  prizeThird: number | null;
} & Record<(typeof dateFields)[number], string | null>;

const dateFields = ['registrationOpensAt', 'registrationClosesAt', 'checkInOpensAt', 'checkInClosesAt', 'startsAt'] as const;

export const emptyTournament: TournamentValues = {
  slug: '',
  name: { fr: '', en: '' },
  rules: { fr: '', en: '' },
  modeId: '',
  format: 'SINGLE_ELIMINATION',
  maxEntrants: 16,
  registrationOpensAt: null,
  registrationClosesAt: null,
  checkInOpensAt: null,
  checkInClosesAt: null,
  startsAt: null,
  entryFee: 0,
  prizeFirst: 0,
  prizeSecond: 0,
  prizeThird: 0,
};

/** The request body: the values with empty numbers as 0 (no fee, no prize). */
export const toRequest = (v: TournamentValues): TournamentValues => ({
  slug: v.slug.trim(),
  name: v.name,
  rules: v.rules,
  modeId: v.modeId,
  format: v.format,
  maxEntrants: v.maxEntrants,
  registrationOpensAt: v.registrationOpensAt,
  registrationClosesAt: v.registrationClosesAt,
  checkInOpensAt: v.checkInOpensAt,
  checkInClosesAt: v.checkInClosesAt,
  startsAt: v.startsAt,
  entryFee: v.entryFee ?? 0,
  prizeFirst: v.prizeFirst ?? 0,
  prizeSecond: v.prizeSecond ?? 0,
  prizeThird: v.prizeThird ?? 0,
});

/** A tournament's texts in both languages, its mode and format, its windows, fee and prizes. */
export function TournamentFields({ control }: { control: Control<TournamentValues> }) {
  const { t } = useTranslation('staff');
  const localized = useLocalized();
  const f = (key: string) => t(`tournaments.fields.${key}`);
  const modes = useCustom<RankedModeList>({ url: '/v1/ranked/modes', method: 'get' });
  const modeOptions = (modes.query.data?.data.data ?? []).map((m) => ({ value: m.id, label: localized(m.name) }));
  const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } };
  return (
    <Stack spacing={2.5}>
      <Typography variant="h3" component="h2" sx={{ fontSize: '1.1rem' }}>
        {t('tournaments.sections.texts')}
      </Typography>
      <Box sx={grid}>
        <TextInput control={control} name="name.fr" label={f('nameFr')} required />
        <TextInput control={control} name="name.en" label={f('nameEn')} required />
        <TextInput control={control} name="rules.fr" label={f('rulesFr')} required multiline minRows={3} />
        <TextInput control={control} name="rules.en" label={f('rulesEn')} required multiline minRows={3} />
        <TextInput control={control} name="slug" label={f('slug')} help={f('slugHelp')} required />
      </Box>
      <Typography variant="h3" component="h2" sx={{ fontSize: '1.1rem' }}>
        {t('tournaments.sections.play')}
      </Typography>
      <Box sx={grid}>
        <SelectInput control={control} name="modeId" label={f('mode')} required options={modeOptions} />
        <SelectInput control={control} name="format" label={f('format')} required options={tournamentFormats.map((x) => ({ value: x, label: t(`tournaments.formats.${x}`) }))} />
        <NumberInput control={control} name="maxEntrants" label={f('maxEntrants')} required />
      </Box>
      <Typography variant="h3" component="h2" sx={{ fontSize: '1.1rem' }}>
        {t('tournaments.sections.dates')}
      </Typography>
      <Box sx={grid}>
        {dateFields.map((name) => (
          <DateTimeInput key={name} control={control} name={name} label={f(name)} />
        ))}
      </Box>
      <Typography variant="h3" component="h2" sx={{ fontSize: '1.1rem' }}>
        {t('tournaments.sections.money')}
      </Typography>
      <Box sx={grid}>
        <NumberInput control={control} name="entryFee" label={f('entryFee')} help={f('entryFeeHelp')} />
        <NumberInput control={control} name="prizeFirst" label={f('prizeFirst')} />
        <NumberInput control={control} name="prizeSecond" label={f('prizeSecond')} />
        <NumberInput control={control} name="prizeThird" label={f('prizeThird')} help={f('prizeThirdHelp')} />
      </Box>
    </Stack>
  );
}
