import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Alert, Snackbar } from '@mui/material';
import { errorText } from '../app/api.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';

/** What to ask before an action the user may regret; `danger` (the default) paints the button red. */
export interface Confirmation {
  title: string;
  text: string;
  confirm: string;
  danger?: boolean;
  /** Also asks for a reason, up to `maxLength` characters, handed to the action. */
  reason?: { label: string; maxLength: number };
  /** Also asks the user to type `expected` (a server's name) before the action may go. */
  typed?: { label: string; expected: string };
}

export interface ActionRequest<T> {
  confirm?: Confirmation;
  /** Given the reason typed in the confirmation, trimmed ('' when none was asked or typed), and the word typed to confirm, as typed. */
  action: (reason: string, typed: string) => Promise<T>;
  /** Said once the action is done; nothing is said when the page itself shows the change. */
  success?: string | ((value: T) => string);
  /** Said before the API's own explanation when the action fails. */
  failure: string;
}

export interface ActionResult {
  severity: 'success' | 'error';
  text: string;
}

interface Pending {
  request: ActionRequest<unknown>;
  settle: (done: boolean) => void;
}

/**
 * One way for the player's pages to run an action: ask first when told to, `busy` while it runs,
 * then say what happened. The page renders `dialog` somewhere; the result is either an Alert the page
 * places under the action (`result`, shown with <ActionAlert>) or, with `{ snackbar: true }`, a brief
 * message at the bottom of the screen that `dialog` brings along — for lists whose rows come and go,
 * where there is no fixed place to say it.
 *
 * `run` resolves to true once the action succeeded, false when it failed or the user cancelled.
 */
export function useConfirmedAction({ snackbar = false }: { snackbar?: boolean } = {}) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ActionResult | null>(null);
  const [reason, setReason] = useState('');
  const [typed, setTyped] = useState('');
  // A second click while the first call runs must not send the write twice.
  const running = useRef(false);

  const perform = useCallback(async <T,>({ action, success, failure }: ActionRequest<T>, why = '', word = ''): Promise<boolean> => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setResult(null);
    try {
      const value = await action(why.trim(), word);
      const text = typeof success === 'function' ? success(value) : success;
      if (text) setResult({ severity: 'success', text });
      return true;
    } catch (err) {
      setResult({ severity: 'error', text: `${failure} ${errorText(err)}` });
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);

  const run = useCallback(
    <T,>(request: ActionRequest<T>): Promise<boolean> => {
      if (!request.confirm) return perform(request);
      setReason('');
      setTyped('');
      return new Promise<boolean>((settle) => setPending({ request: request as ActionRequest<unknown>, settle }));
    },
    [perform],
  );

  const dismiss = useCallback(() => setResult(null), []);

  const cancel = () => {
    pending?.settle(false);
    setPending(null);
  };
  const confirm = () => {
    if (!pending) return;
    setPending(null);
    void perform(pending.request, reason, typed).then(pending.settle);
  };

  const ask = pending?.request.confirm;
  const dialog = (
    <>
      {ask && (
        <ConfirmDialog
          open
          title={ask.title}
          text={ask.text}
          confirm={ask.confirm}
          danger={ask.danger}
          reason={ask.reason && { ...ask.reason, value: reason, onChange: setReason }}
          typed={ask.typed && { ...ask.typed, value: typed, onChange: setTyped }}
          onConfirm={confirm}
          onClose={cancel}
        />
      )}
      {snackbar && (
        <Snackbar open={result !== null} autoHideDuration={5000} onClose={dismiss} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
          {result ? (
            <Alert severity={result.severity} variant="filled" onClose={dismiss} data-testid="notice">
              {result.text}
            </Alert>
          ) : undefined}
        </Snackbar>
      )}
    </>
  );

  return { run, busy, result, dismiss, dialog };
}

/** `run` of a page's hook, handed to the small forms and rows that say their result through it. */
export type RunAction = ReturnType<typeof useConfirmedAction>['run'];

/** The result of an action, in place under it; nothing before the first run. */
export function ActionAlert({ result, testId }: { result: ActionResult | null; testId?: string }): ReactNode {
  if (!result) return null;
  return (
    <Alert severity={result.severity} sx={{ mt: 1.5 }} data-testid={testId}>
      {result.text}
    </Alert>
  );
}
