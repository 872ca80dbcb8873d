import path from 'node:path';
import type { Config } from '../config.ts';
import { openDatabase, type Database } from './client.ts';

/** The configured database: PostgreSQL when DATABASE_URL is set, else PGlite under the data folder. */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  return openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'db') });
}
