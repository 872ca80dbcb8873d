import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from './open.ts';

const config = loadConfig();
const database = await openConfiguredDatabase(config);
// Never beside a replica migrating at its start (Database.exclusively).
await database.exclusively(() => database.migrate());
await database.close();
console.log(`migrated ${config.databaseUrl ? 'PostgreSQL' : 'PGlite'} database`);
