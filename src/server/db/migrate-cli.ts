import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from './open.ts';

const config = loadConfig();
const database = await openConfiguredDatabase(config);
await database.migrate();
await database.close();
console.log(`migrated ${config.databaseUrl ? 'PostgreSQL' : 'PGlite'} database`);
