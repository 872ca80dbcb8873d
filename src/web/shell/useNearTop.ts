import { useSyncExternalStore } from 'react';
import { HEADER_TRANSPARENT_BELOW_PX } from '../app/constants.ts';

const subscribe = (onChange: () => void) => {
  window.addEventListener('scroll', onChange, { passive: true });
  return () => window.removeEventListener('scroll', onChange);
};

/** True while the page is scrolled less than 50 px (docs/product.md, The shell: the home header is transparent then). */
export function useNearTop(): boolean {
  return useSyncExternalStore(subscribe, () => window.scrollY < HEADER_TRANSPARENT_BELOW_PX);
}
