import { Button, type ButtonProps } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../app/config.ts';
import { useSession } from '../app/auth.tsx';

/** One sign-in button per sign-in provider (docs/product.md, Routes). */
export function SignInButtons(props: ButtonProps) {
  const { t } = useTranslation();
  const config = useAppConfig();
  const session = useSession();
  return config.auth.providers.map((p) => (
    <Button key={p.id} variant="contained" onClick={() => void session.signIn()} disabled={session.status === 'loading'} {...props}>
      {t('nav.signIn')}
    </Button>
  ));
}
