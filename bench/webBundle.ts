import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * The JavaScript a first visit to a public page downloads, measured from the built files: the entry
 * script and every chunk it imports statically (lazy chunks load only when a page needs them).
 */
export function initialJs(webDir: string): { files: string[]; rawBytes: number; gzipBytes: number } {
  const html = fs.readFileSync(path.join(webDir, 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]*src="([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error('no module script in index.html');
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = fs.readFileSync(path.join(webDir, file), 'utf8');
    // Static imports only: `import "./x.js"` and `from "./x.js"`, never `import("./x.js")`.
    for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.\/[^"']+\.js)["']/g)) visit(path.posix.join(path.posix.dirname(file), m[1]!));
  };
  visit(entry.replace(/^\//, ''));
  const files = [...seen];
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const f of files) {
    const buf = fs.readFileSync(path.join(webDir, f));
    rawBytes += buf.length;
    gzipBytes += zlib.gzipSync(buf, { level: 9 }).length;
  }
  return { files, rawBytes, gzipBytes };
}

if (import.meta.main) {
  const r = initialJs(process.argv[2] ?? 'dist/web');
  console.log(`${r.files.length} files, ${(r.rawBytes / 1024).toFixed(1)} kB, gzip ${(r.gzipBytes / 1024).toFixed(1)} kB`);
  for (const f of r.files) console.log(`  ${f}`);
}
