// Runs before the first paint, before the app loads.
(function () {
  // docs/product.md, Guards: an address starting with www. goes to the same address without it.
  if (location.hostname.indexOf('www.') === 0) {
    location.replace(location.protocol + '//' + location.host.slice(4) + location.pathname + location.search + location.hash);
    return;
  }
  // The saved theme (or the system's) is applied now, so the page never flashes the other one.
  var saved = null;
  try {
    saved = localStorage.getItem('preferredTheme');
  } catch {
    // Storage may be off (private mode): fall back to the system's theme.
  }
  var mode = saved === 'dark' || saved === 'light' ? saved : matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.dataset.theme = mode;
  document.documentElement.style.colorScheme = mode;
  document.documentElement.style.backgroundColor = mode === 'dark' ? '#0f1410' : '#f6f8f6';
})();
