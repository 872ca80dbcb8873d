import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every write of the web app goes through the data provider (docs/conventions.md, A page): Refine's
 * hooks in the dashboard, `dataProvider.custom` where Refine is not loaded. Only the transport
 * (`api.ts`) and the data provider call fetch with a write method.
 */
const TRANSPORT = ['src/web/app/api.ts', 'src/web/app/dataProvider.ts'];
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const CALLERS = new Set(['fetch', 'apiFetch']);

/** The calls of `source` that write, or may write, outside the data provider, as "line: code". */
function rawWrites(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const report = (node: ts.Node) => found.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().slice(0, 120)}`);
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name.text : ts.isIdentifier(node.expression) ? node.expression.text : '';
      const init = node.arguments[1];
      if (CALLERS.has(callee) && init) {
        // Anything but a literal object whose method is missing or a literal read cannot be told apart from a write.
        if (!ts.isObjectLiteralExpression(init) || init.properties.some((p) => ts.isSpreadAssignment(p))) report(node);
        else {
          const method = init.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'method');
          if (method && !(ts.isPropertyAssignment(method) && ts.isStringLiteralLike(method.initializer) && !WRITES.has(method.initializer.text.toUpperCase()))) report(node);
        }
      }
    }
    // Other ways to send: an XMLHttpRequest, a beacon.
    if (ts.isIdentifier(node) && (node.text === 'XMLHttpRequest' || node.text === 'sendBeacon')) report(node);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function webFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return webFiles(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

describe('writes from the web app', () => {
  it('are found in code that sends them by hand', () => {
    expect(rawWrites('x.ts', "await apiFetch('/v1/x', { method: 'PUT' });")).toHaveLength(1);
    expect(rawWrites('x.tsx', "fetch('/v1/x', { method: 'post', body });")).toHaveLength(1);
    expect(rawWrites('x.ts', 'fetch(url, init);')).toHaveLength(1);
    expect(rawWrites('x.ts', 'fetch(url, { ...init, headers });')).toHaveLength(1);
    expect(rawWrites('x.ts', "window.fetch('/v1/x', { method });")).toHaveLength(1);
    expect(rawWrites('x.ts', 'navigator.sendBeacon(url, data);')).toHaveLength(1);
    expect(rawWrites('x.ts', "await apiFetch('/v1/x'); fetch(url, { headers, method: 'GET' }); fetch(url, { cache: 'no-cache' });")).toEqual([]);
  });

  it('go through the data provider everywhere in src/web', () => {
    const files = webFiles('src/web').filter((f) => !TRANSPORT.includes(f.split(path.sep).join('/')));
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((f) => rawWrites(f, fs.readFileSync(f, 'utf8')))).toEqual([]);
  });
});
