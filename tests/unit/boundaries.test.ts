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

  it('treats each part of the money area as its own module, the renewals owning the game’s billing period too', async () => {
    expect(await lint('src/server/modules/money/payments/x.ts', "import { payments } from '../../../db/schema/payments.ts';\nexport const a = payments;\n")).toEqual([]);
    expect(await lint('src/server/modules/money/payments/x.ts', "import { ledgerEntries } from '../../../db/schema/credits.ts';\nexport const a = ledgerEntries;\n")).toContain('local/own-tables');
    expect(await lint('src/server/modules/money/payments/x.ts', "import { games } from '../../../db/schema/games.ts';\nexport const a = games;\n")).toContain('local/own-tables');
    expect(await lint('src/server/modules/money/renewals/x.ts', "import { games } from '../../../db/schema/games.ts';\nexport const a = games;\n")).toEqual([]);
    expect(await lint('src/server/modules/money/renewals/x.ts', "import { users } from '../../../db/schema/users.ts';\nexport const a = users;\n")).toContain('local/own-tables');
    // A game's periods are money: the games module asks the renewals for them.
    expect(await lint('src/server/modules/games/x.ts', "import { gamePayments } from '../../db/schema/renewals.ts';\nexport const a = gamePayments;\n")).toContain('local/own-tables');
  });
});
