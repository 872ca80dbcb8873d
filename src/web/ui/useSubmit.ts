import { useState } from 'react';
import { errorText } from '../app/api.ts';

interface SubmitResult {
  severity: 'success' | 'error';
  text: string;
}

/**
 * A form's call to the API: `busy` while it runs, then `result`, the text the action answered or
 * `failed` followed by the API's own explanation.
 */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<SubmitResult | null>(null);
  const submit = async (action: () => Promise<string>, failed: string) => {
    setBusy(true);
    setResult(null);
    try {
      setResult({ severity: 'success', text: await action() });
    } catch (err) {
      setResult({ severity: 'error', text: `${failed} ${errorText(err)}` });
    } finally {
      setBusy(false);
    }
  };
  return { busy, result, submit };
}
