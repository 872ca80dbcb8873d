/**
 * Has the browser download what `url` answers (a link that needs no token, which the API gave for a
 * short while): a click on a temporary `<a download>`, so the page stays where it is and the file
 * keeps the name the server gives it.
 */
export function downloadFrom(url: string) {
  const link = Object.assign(document.createElement('a'), { href: url, download: '', rel: 'noopener' });
  document.body.append(link);
  link.click();
  link.remove();
}
