import { Box, Card, CardContent, FormControl, FormControlLabel, FormLabel, Radio, RadioGroup, Typography } from '@mui/material';
import { Controller, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { GameDefinition } from '../../../../contract/catalogue.ts';
import { useFormatRam } from '../../../ui/format.ts';
import type { CreateValues } from './values.ts';

/** The definition's packages as radio cards: name, RAM, players, days and price. */
export function PackagePicker({ control, packages }: { control: Control<CreateValues>; packages: GameDefinition['packages'] }) {
  const { t, i18n } = useTranslation('games');
  const lang = i18n.language === 'en' ? 'en' : 'fr';
  const ram = useFormatRam();
  return (
    <Card>
      <CardContent>
        <Controller
          control={control}
          name="packageId"
          render={({ field }) => (
            <FormControl component="fieldset" fullWidth>
              <FormLabel component="legend" sx={{ mb: 1, fontWeight: 600 }}>
                {t('create.package')}
              </FormLabel>
              <RadioGroup value={field.value} onChange={(e) => field.onChange(e.target.value)} sx={{ gap: 1 }}>
                {packages.map((p) => (
                  <FormControlLabel
                    key={p.id}
                    value={p.id}
                    control={<Radio />}
                    sx={{ m: 0, border: 1, borderColor: p.id === field.value ? 'primary.main' : 'divider', borderRadius: 1, pr: 2, py: 0.5, alignItems: 'center' }}
                    slotProps={{ typography: { sx: { flex: 1 } } }}
                    label={
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 1, width: '100%' }}>
                        <span>
                          <strong>{p.name[lang]}</strong> —{' '}
                          {t('create.packageLine', { ram: ram(p.ramMb), players: t('package.playerCount', { count: p.maxPlayers }), days: t('package.days', { count: p.periodDays }) })}
                          {p.description && (
                            <Typography variant="caption" color="text.secondary" component="span" sx={{ display: 'block' }}>
                              {p.description[lang]}
                            </Typography>
                          )}
                        </span>
                        <strong>{t('credits', { count: p.priceCredits })}</strong>
                      </Box>
                    }
                  />
                ))}
              </RadioGroup>
            </FormControl>
          )}
        />
      </CardContent>
    </Card>
  );
}
