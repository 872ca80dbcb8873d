/** Header navigation of docs/product.md (The shell); Les Cités has no page yet (empty path), so it is shown disabled. */
export const navItems = [
  { key: 'nav.home', path: '/' },
  { key: 'nav.store', path: '/store' },
  { key: 'nav.ranked', path: '/ranked' },
  { key: 'nav.cities', path: '' },
] as const;
