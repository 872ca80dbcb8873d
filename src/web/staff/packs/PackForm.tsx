import { Box } from '@mui/material';
import type { Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { PricingRequest } from '../../../contract/credits.ts';
import { MoneyInput, NumberInput, TextInput } from '../fields.tsx';

/** The form's values: numbers are null until typed (the required ones are checked before sending). */
export interface PackValues {
  credits: number | null;
  bonusCredits: number | null;
  priceCents: number | null;
  currency: string;
  label: string | null;
}

export const emptyPack: PackValues = { credits: null, bonusCredits: null, priceCents: null, currency: 'EUR', label: '' };

/** The request body: no bonus and no label are left out. */
export const toPricingRequest = (v: PackValues) =>
  ({
    credits: v.credits,
    priceCents: v.priceCents,
    currency: v.currency,
    ...(v.bonusCredits ? { bonusCredits: v.bonusCredits } : {}),
    ...(v.label ? { label: v.label } : {}),
  }) as PricingRequest;

/** A pack's label, credits, bonus credits and price. */
export function PackFields({ control, currency }: { control: Control<PackValues>; currency: string }) {
  const { t } = useTranslation('staff');
  const f = (key: string) => t(`creditPacks.fields.${key}`);
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <TextInput control={control} name="label" label={f('label')} help={f('labelHelp')} />
      <NumberInput control={control} name="credits" label={f('credits')} required />
      <NumberInput control={control} name="bonusCredits" label={f('bonusCredits')} help={f('bonusHelp')} />
      <MoneyInput control={control} name="priceCents" label={f('price')} currency={currency} required />
      <TextInput control={control} name="currency" label={f('currency')} help={f('currencyHelp')} required />
    </Box>
  );
}
