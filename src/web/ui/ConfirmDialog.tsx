import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
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
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
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
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.cancel')}</Button>
        <Button variant="contained" color={danger ? 'error' : 'primary'} onClick={onConfirm} autoFocus>
          {confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
