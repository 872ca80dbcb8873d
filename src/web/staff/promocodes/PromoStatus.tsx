import { Chip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PromoCode } from '../../../contract/promocodes.ts';

/** Whether a player could use the code now: archived, used up, expired, not yet valid, or active. */
function promoState(p: PromoCode, now = Date.now()): 'archived' | 'usedUp' | 'expired' | 'notYet' | 'active' {
  if (p.archived) return 'archived';
  if (p.maxUses !== null && p.uses >= p.maxUses) return 'usedUp';
  if (p.validUntil && Date.parse(p.validUntil) < now) return 'expired';
  if (p.validFrom && Date.parse(p.validFrom) > now) return 'notYet';
  return 'active';
}

export function PromoStatus({ code }: { code: PromoCode }) {
  const { t } = useTranslation('staff');
  const state = promoState(code);
  return <Chip size="small" color={state === 'active' ? 'success' : 'default'} variant={state === 'active' ? 'filled' : 'outlined'} label={t(`promoCodes.states.${state}`)} />;
}
