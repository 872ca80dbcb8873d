import { Box } from '@mui/material';
import type { Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { planIntervals, type SubscriptionCreateRequest } from '../../../contract/subscriptions.ts';
import { MoneyInput, NumberInput, SelectInput, TextInput } from '../fields.tsx';

/**
 * The form's values, sent as they are (an edit form takes only these fields from the plan): the
 * numbers are null until typed, which the API refuses on their fields.
 */
export interface PlanValues {
  name: { fr: string; en: string };
  priceCents: number | null;
  currency: string;
  interval: SubscriptionCreateRequest['interval'];
  credits: number | null;
}

export const emptyPlan: PlanValues = { name: { fr: '', en: '' }, priceCents: null, currency: 'EUR', interval: 'MONTH', credits: null };

/** A plan's names, price per period and the credits each paid period grants. */
export function PlanFields({ control, currency }: { control: Control<PlanValues>; currency: string }) {
  const { t } = useTranslation('staff');
  const f = (key: string) => t(`plans.fields.${key}`);
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <TextInput control={control} name="name.fr" label={f('nameFr')} required />
      <TextInput control={control} name="name.en" label={f('nameEn')} required />
      <MoneyInput control={control} name="priceCents" label={f('price')} currency={currency} required />
      <SelectInput control={control} name="interval" label={f('interval')} required options={planIntervals.map((i) => ({ value: i, label: t(`plans.intervals.${i}`) }))} />
      <NumberInput control={control} name="credits" label={f('credits')} help={f('creditsHelp')} required />
      <TextInput control={control} name="currency" label={f('currency')} help={t('creditPacks.fields.currencyHelp')} required />
    </Box>
  );
}
