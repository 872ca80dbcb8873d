import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The lint rules that keep the boundaries of docs/architecture.md, checked on code that breaks them. */
describe('module boundaries', () => {
  const eslint = new ESLint({ cwd: path.resolve('.') });
  const lint = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.resolve(file) });
    return result!.messages.map((m) => m.ruleId);
  };

  it('keeps the web app away from the server and the runtime', async () => {
    expect(await lint('src/web/app/x.ts', "import { buildApp } from '../../server/app.ts';\nexport const a = buildApp;\n")).toContain('no-restricted-imports');
    expect(await lint('src/web/app/x.ts', "import { User } from '../../contract/user.ts';\nexport const a = User;\n")).toEqual([]);
  });

  it('keeps the contract free of server and web imports', async () => {
    expect(await lint('src/contract/x.ts', "import { loadConfig } from '../server/config.ts';\nexport const a = loadConfig;\n")).toContain('no-restricted-imports');
  });

  it('keeps a server module out of another module’s tables', async () => {
    expect(await lint('src/server/modules/users/x.ts', "import { ledgerEntries } from '../../db/schema/credits.ts';\nexport const a = ledgerEntries;\n")).toContain('local/own-tables');
    expect(await lint('src/server/modules/users/x.ts', "import { users } from '../../db/schema/users.ts';\nexport const a = users;\n")).toEqual([]);
  });
});
