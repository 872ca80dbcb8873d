import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from './open.ts';
import { seed } from './seed.ts';

const config = loadConfig();
const database = await openConfiguredDatabase(config);
const seeded = await database.exclusively(async () => {
  await database.migrate();
  return seed(config, database);
});
await database.close();
console.log(seeded.length ? `seeded: ${seeded.join(', ')}` : 'nothing to seed: the accounts exist');
