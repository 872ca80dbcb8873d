import { Autocomplete, Box, Divider, Stack, TextField, Typography } from '@mui/material';
import { Controller, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { type GameDefCreate } from '../../../contract/catalogue.ts';
import { maxVersion, minecraftVersions, type GameSettings } from '../../../contract/games.ts';
import { SelectInput, SwitchInput, TextInput } from '../fields.tsx';

/**
 * The form's values, every text present (empty when unset) so the fields stay controlled, and what
 * it sends (`toRequest`), where no image and unset settings are left out.
 */
export interface DefinitionValues {
  name: { fr: string; en: string };
  description: { fr: string; en: string };
  version: string;
  allowedVersions: string[];
  image?: string | null;
  published: boolean;
  settings?: { motd?: string; gameMode?: string; difficulty?: string; seed?: string };
}

export const emptyDefinition: DefinitionValues = {
  name: { fr: '', en: '' },
  description: { fr: '', en: '' },
  version: maxVersion ?? '',
  allowedVersions: [],
  image: null,
  published: false,
  settings: { motd: '', gameMode: '', difficulty: '', seed: '' },
};

/** The request body: unset settings and no image are left out rather than sent empty. */
export function toRequest(values: DefinitionValues): GameDefCreate & DefinitionValues {
  const settings = Object.fromEntries(Object.entries(values.settings ?? {}).filter(([, v]) => v !== '' && v !== null && v !== undefined)) as GameSettings;
  return {
    name: values.name,
    description: values.description,
    version: values.version,
    allowedVersions: values.allowedVersions ?? [],
    published: values.published,
    ...(values.image && { image: values.image }),
    ...(Object.keys(settings).length > 0 && { settings }),
  };
}

const gameModes = ['survival', 'creative', 'adventure', 'spectator'] as const;
const difficulties = ['peaceful', 'easy', 'normal', 'hard'] as const;

/** Names and descriptions in both languages, the Minecraft version, default settings and the published flag. */
export function DefinitionFields({ control }: { control: Control<DefinitionValues> }) {
  const { t } = useTranslation('staff');
  const f = (key: string) => t(`definitions.fields.${key}`);
  const unset = { value: '', label: t('definitions.fields.default') };
  return (
    <Stack spacing={2.5}>
      <Typography variant="h3" component="h2" sx={{ fontSize: '1.1rem' }}>
        {t('definitions.sections.texts')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <TextInput control={control} name="name.fr" label={f('nameFr')} required />
        <TextInput control={control} name="name.en" label={f('nameEn')} required />
        <TextInput control={control} name="description.fr" label={f('descriptionFr')} required multiline minRows={3} />
        <TextInput control={control} name="description.en" label={f('descriptionEn')} required multiline minRows={3} />
      </Box>
      <Divider />
      <Typography variant="h3" component="h2" sx={{ fontSize: '1.1rem' }}>
        {t('definitions.sections.settings')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <SelectInput control={control} name="version" label={f('version')} required options={[...minecraftVersions].reverse().map((v) => ({ value: v, label: v }))} />
        <TextInput control={control} name="settings.motd" label={f('motd')} />
        <SelectInput control={control} name="settings.gameMode" label={f('gameMode')} options={[unset, ...gameModes.map((m) => ({ value: m, label: t(`definitions.gameModes.${m}`) }))]} />
        <SelectInput control={control} name="settings.difficulty" label={f('difficulty')} options={[unset, ...difficulties.map((d) => ({ value: d, label: t(`definitions.difficulties.${d}`) }))]} />
        <TextInput control={control} name="settings.seed" label={f('seed')} />
      </Box>
      <Controller
        control={control}
        name="allowedVersions"
        render={({ field, fieldState }) => (
          <Autocomplete
            multiple
            options={[...minecraftVersions].reverse()}
            value={field.value ?? []}
            onChange={(_, value) => field.onChange(value)}
            filterSelectedOptions
            renderInput={(params) => <TextField {...params} label={f('allowedVersions')} error={!!fieldState.error} helperText={fieldState.error?.message ?? f('allowedVersionsHelp')} />}
          />
        )}
      />
      <SwitchInput control={control} name="published" label={f('published')} help={f('publishedHelp')} />
    </Stack>
  );
}
