import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Card, CardContent, Dialog, DialogActions, DialogContent, DialogTitle, Typography, type PaperProps } from '@mui/material';
import { DeleteForever as DeleteIcon } from '@mui/icons-material';
import { useOne, type HttpError } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AccountDelete, AccountDeleted, AccountSecurity } from '../../../contract/account.ts';
import { useSession } from '../../app/auth.tsx';
import { useCurrentUser } from '../../app/currentUser.tsx';
import { useLocalePath } from '../../app/locale.tsx';
import { rememberAccountDeleted } from '../../app/accountDeleted.ts';
import { ApiError } from '../../app/api.ts';
import { useErrorMessage } from '../../ui/states.tsx';
import { FormField } from './FormField.tsx';
import { useExternalAccount } from './useExternalAccount.ts';

/** The account page's danger zone: deleting the account (RGPD article 17), in a dialog that says what goes and what stays. */
export function DeleteAccountCard() {
  const { t } = useTranslation('account');
  const [open, setOpen] = useState(false);
  return (
    <Card component="section" aria-labelledby="delete-account-title" sx={{ borderColor: 'error.main', borderWidth: 1, borderStyle: 'solid' }}>
      <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', justifyContent: 'space-between' }}>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', minWidth: 0 }}>
          <DeleteIcon color="error" />
          <Box>
            <Typography id="delete-account-title" variant="h2" sx={{ fontSize: '1.25rem' }}>
              {t('delete.title')}
            </Typography>
            <Typography color="text.secondary">{t('delete.text')}</Typography>
          </Box>
        </Box>
        <Button variant="outlined" color="error" onClick={() => setOpen(true)}>
          {t('delete.open')}
        </Button>
      </CardContent>
      {open && <DeleteAccountDialog onClose={() => setOpen(false)} />}
    </Card>
  );
}

/**
 * Asks the password (and a code when two-factor is on; nothing with another issuer, whose console
 * deletes the account there), says what goes, what stays and how many credits are lost. A wrong
 * password shows under its field and keeps the dialog open; once deleted, the person is signed out
 * to the home page, which says so.
 */
function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('account');
  const external = useExternalAccount();
  const user = useCurrentUser();
  const { logout } = useSession();
  const navigate = useNavigate();
  const to = useLocalePath();
  const errorMessage = useErrorMessage();
  const [failure, setFailure] = useState<string | null>(null);
  const security = useOne<AccountSecurity>({ resource: 'account', id: 'security', queryOptions: { enabled: !external } });
  const twoFactor = security.query.data?.data.twoFactor === true;
  const credits = user.status === 'done' ? user.data.balance : undefined;
  const {
    control,
    handleSubmit,
    refineCore,
    formState: { isSubmitting },
  } = useForm<AccountDeleted, HttpError, AccountDelete>({
    defaultValues: { password: '', code: '' },
    refineCoreProps: { resource: 'accountDelete', action: 'create', redirect: false, successNotification: false, errorNotification: false },
  });
  const submit = handleSubmit(async (values) => {
    setFailure(null);
    const body: AccountDelete = external ? {} : { password: values.password ?? '', ...(twoFactor ? { code: (values.code ?? '').trim() } : {}) };
    try {
      const answer = await refineCore.onFinish(body);
      if (!answer) return;
      rememberAccountDeleted(answer.data.creditsForfeited);
      logout(() => void navigate(to('/')));
    } catch (err) {
      // A retry whose first answer was lost finds the account deleted already: it is done.
      if (err instanceof ApiError && err.problem?.code === 'auth.accountDeleted') {
        rememberAccountDeleted(credits ?? 0);
        return logout(() => void navigate(to('/')));
      }
      // A field's word (wrong password, wrong code) is under its field; anything else says so here.
      const problem = err as HttpError;
      if (!problem.errors) setFailure(`${t('delete.failed')} ${errorMessage(problem)}`);
    }
  });
  return (
    // The form is the dialog's paper, so its buttons stay in sight while a phone scrolls the text.
    <Dialog
      open
      onClose={isSubmitting ? undefined : onClose}
      aria-labelledby="delete-account-dialog-title"
      fullWidth
      maxWidth="sm"
      scroll="paper"
      PaperProps={{ component: 'form', noValidate: true, onSubmit: (e: FormEvent) => void submit(e) } as PaperProps}
    >
      <DialogTitle id="delete-account-dialog-title">{t('delete.dialogTitle')}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2 }}>
        <Alert severity="error" icon={false} data-testid="delete-account-credits">
          {credits === undefined ? t('delete.creditsUnknown') : t('delete.credits', { count: credits })}
        </Alert>
        <Box>
          <Typography variant="subtitle2" component="h3">
            {t('delete.goesTitle')}
          </Typography>
          <Typography color="text.secondary">{t('delete.goes')}</Typography>
        </Box>
        <Box>
          <Typography variant="subtitle2" component="h3">
            {t('delete.staysTitle')}
          </Typography>
          <Typography color="text.secondary">{t('delete.stays')}</Typography>
        </Box>
        {external ? (
          <Typography>
            {t('delete.external')}{' '}
            <Box component="a" href={external} sx={{ color: 'primary.main' }}>
              {t('external.open')}
            </Box>
          </Typography>
        ) : (
          <>
            <FormField control={control} name="password" type="password" autoComplete="current-password" label={t('delete.password')} />
            {twoFactor && <FormField control={control} name="code" autoComplete="one-time-code" label={t('twoFactor.codeOrRecovery')} maxLength={20} />}
          </>
        )}
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose} disabled={isSubmitting}>
          {t('delete.cancel')}
        </Button>
        <Button type="submit" variant="contained" color="error" disabled={isSubmitting || (!external && security.query.isLoading)}>
          {t('delete.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
