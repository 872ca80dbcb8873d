import crypto from 'node:crypto';
import fs from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A TypeScript entry point and the project files it imports, as plain JavaScript that Node runs
 * without its TypeScript support. That support is a WebAssembly module of its own, about 15 MB in
 * every process that loads a `.ts` file: a real share of an idle game server, which is all `.ts`
 * otherwise (docs/architecture.md, "Game runtime").
 *
 * The files are stripped of their types (`module.stripTypeScriptTypes`, what Node itself does) into
 * `node_modules/.cache/blockhost-js/<checkout>/`, under the same relative paths, so packages
 * resolve from there as from the sources; relative imports of `.ts` files become `.js`. They are
 * written again whenever their source changed, so they are never stale. `<checkout>` names the
 * sources' folder: checkouts sharing one `node_modules` (git worktrees) would otherwise rewrite
 * each other's copies, and a server could start another checkout's launcher. Where the folder
 * cannot be written (a read-only install), the `.ts` entry is answered and runs as before.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const outDir = path.join(root, 'node_modules', '.cache', 'blockhost-js', crypto.createHash('sha256').update(root).digest('hex').slice(0, 12));

/**
 * Where the servers' Node keeps the code it compiled (`NODE_COMPILE_CACHE`): a server's start is
 * mostly loading flying-squid, minecraft-protocol and their hundreds of modules, and reading their
 * compiled code back is quicker than compiling it again. Node keys each entry by its own version
 * and the source's content, so a stale entry is never used; a folder it cannot write disables it.
 */
export const compileCacheDir = path.join(root, 'node_modules', '.cache', 'blockhost-node-compile');
const relativeImport = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g;

/** Node calls the function experimental once per process, on the operator's console: what it does is what Node does to run our `.ts` files. */
function quietly<T>(run: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = () => {};
  try {
    return run();
  } finally {
    process.emitWarning = emitWarning;
  }
}

function emit(source: string, done: Set<string>): void {
  if (done.has(source)) return;
  done.add(source);
  const code = quietly(() => stripTypeScriptTypes(fs.readFileSync(source, 'utf8'), { mode: 'strip' }));
  const target = path.join(outDir, path.relative(root, source)).replace(/\.ts$/, '.js');
  const js = code.replace(relativeImport, (_all, keyword: string, quote: string, spec: string) => {
    emit(path.resolve(path.dirname(source), `${spec}.ts`), done);
    return `${keyword}${quote}${spec}.js${quote}`;
  });
  if (fs.existsSync(target) && fs.readFileSync(target, 'utf8') === js) return;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  // Several processes may write it at once: each its own temporary file, then one atomic rename.
  const temporary = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, js);
  fs.renameSync(temporary, target);
}

export function plainJs(entry: string): string {
  try {
    fs.mkdirSync(outDir, { recursive: true });
    // The project's modules are ES modules: so are their stripped copies.
    fs.writeFileSync(path.join(outDir, 'package.json'), '{ "type": "module" }\n');
    emit(entry, new Set());
    return path.join(outDir, path.relative(root, entry)).replace(/\.ts$/, '.js');
  } catch {
    return entry;
  }
}
