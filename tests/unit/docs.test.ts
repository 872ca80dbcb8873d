import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * The repository explains itself: comments and READMEs point into docs/, never to design papers
 * kept outside it, and every page and section they name exists (docs/README.md).
 */
const root = path.join(import.meta.dirname, '..', '..');
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && /\.(ts|tsx|js|json|md|yaml|yml|css|html)$/.test(f) && fs.existsSync(path.join(root, f)));

const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** A page's section titles, as written after its `#` marks. */
const sections = (page: string) => new Set([...read(page).matchAll(/^#+ (.+)$/gm)].map((m) => m[1]!.trim()));

describe('docs', () => {
  it('no file points to documents the repository does not hold', () => {
    const outside = tracked.filter((f) => f !== 'tests/unit/docs.test.ts' && /\b(DESIGN|SPEC)\.md\b/.test(read(f)));
    expect(outside).toEqual([]);
  });

  it('every docs/ page and section a file names exists', () => {
    const broken: string[] = [];
    for (const file of tracked) {
      // "docs/product.md, Routes" or "docs/product.md (Sessions: ...)" name a page and one of its sections.
      for (const m of read(file).matchAll(/docs\/([\w-]+\.md)(?:,? \(?([A-Z][\w ]+?)(?=[,):;]))?/g)) {
        const page = `docs/${m[1]}`;
        if (!fs.existsSync(path.join(root, page))) broken.push(`${file}: ${page}`);
        else if (m[2] && !sections(page).has(m[2])) broken.push(`${file}: ${page} has no section "${m[2]}"`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('CI runs every part of `npm run check`, in its order, each timed', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    // `npm run x` and `npm test` parts, followed down to the scripts that run something themselves.
    const leaves = (name: string): string[] => {
      const parts = scripts[name]!.split('&&').map((p) => p.trim());
      if (!parts.every((p) => /^npm (run \S+|test)$/.test(p))) return [name];
      return parts.flatMap((p) => leaves(p === 'npm test' ? 'test' : p.slice('npm run '.length)));
    };
    const ci = [...read('.ci/run').matchAll(/^\s*part .* npm run -s (\S+)$/gm)].map((m) => m[1]);
    expect(ci).toEqual(leaves('check'));
  });
});
