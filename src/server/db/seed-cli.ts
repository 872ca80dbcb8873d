import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from './open.ts';
import { seed } from './seed.ts';

const config = loadConfig();
const database = await openConfiguredDatabase(config);
await database.migrate();
const seeded = await seed(config, database);
await database.close();
console.log(seeded.length ? `seeded: ${seeded.join(', ')}` : 'nothing to seed: the accounts exist');
