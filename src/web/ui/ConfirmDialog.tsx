import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/**
 * The app's one confirmation: asks before an action the user may regret (stop a server, remove a
 * friend, archive a pack...). Player pages reach it through `useConfirmedAction`, the back office
 * through its action dialogs and `DeleteAction`.
 */
export function ConfirmDialog({
  open,
  title,
  text,
  confirm,
  danger = true,
  reason,
  typed,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  /** What follows from it, when the title alone does not say. */
  text?: string;
  confirm: string;
  danger?: boolean;
  /** A free-text reason asked with the confirmation (a kick's, a ban's), and where it goes. */
  reason?: { label: string; value: string; onChange: (value: string) => void; maxLength: number };
  /** A word the user must type to confirm (a server's name before it is deleted): the button waits for it. */
  typed?: { label: string; expected: string; value: string; onChange: (value: string) => void };
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const unconfirmed = typed !== undefined && typed.value.trim() !== typed.expected.trim();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="confirm-title">
      <DialogTitle id="confirm-title">{title}</DialogTitle>
      <DialogContent>
        {text && <DialogContentText>{text}</DialogContentText>}
        {reason && (
          <TextField
            label={reason.label}
            value={reason.value}
            onChange={(e) => reason.onChange(e.target.value)}
            fullWidth
            size="small"
            sx={{ mt: 2 }}
            slotProps={{ htmlInput: { maxLength: reason.maxLength } }}
          />
        )}
        {typed && (
          <>
            {/* The instruction above the field, whole: as a field's label it would be cut on a phone. */}
            <Typography id="confirm-typed" variant="body2" sx={{ mt: 2, mb: 1, fontWeight: 600, overflowWrap: 'anywhere' }}>
              {typed.label}
            </Typography>
            <TextField
              value={typed.value}
              onChange={(e) => typed.onChange(e.target.value)}
              placeholder={typed.expected}
              fullWidth
              size="small"
              autoComplete="off"
              slotProps={{ htmlInput: { 'aria-labelledby': 'confirm-typed', spellCheck: false, maxLength: typed.expected.length + 20 } }}
            />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.cancel')}</Button>
        <Button variant="contained" color={danger ? 'error' : 'primary'} onClick={onConfirm} disabled={unconfirmed} autoFocus={!typed}>
          {confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
