import { useState, type ComponentType } from 'react';

/**
 * A popup whose chunk loads at its first opening. Rendered once loaded, without Suspense: React
 * reveals content that suspended inside a shown tree only after a throttle timer, which would
 * hold the popup back after the click.
 */
export function usePopupOnDemand<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): [ComponentType<P> | null, () => void] {
  const [Popup, setPopup] = useState<ComponentType<P> | null>(null);
  const open = () => {
    // A stale chunk after a deploy is handled by the app's preload error handler (a reload).
    if (!Popup)
      load().then(
        (m) => setPopup(() => m.default),
        (err: unknown) => console.error('popup failed to load', err),
      );
  };
  return [Popup, open];
}
