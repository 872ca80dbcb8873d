import { Alert } from '@mui/material';
import type { ActionResult } from '../../ui/useConfirmedAction.tsx';

/** An action's result in its section: a success is a polite status, a failure an alert. */
export function ResultAlert({ result, onClose }: { result: ActionResult | null; onClose: () => void }) {
  if (!result) return null;
  return (
    <Alert severity={result.severity} role={result.severity === 'success' ? 'status' : 'alert'} onClose={onClose} sx={{ mt: 2 }}>
      {result.text}
    </Alert>
  );
}
