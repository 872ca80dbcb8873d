import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { USERNAME } from './account-id.ts';
import { loadOrCreateKeys } from './keys.ts';
import { signAccessToken } from './tokens.ts';

/** `npm run token -- --user <name> [--role staff]`: prints an access token on its last line. */
const { values } = parseArgs({
  options: { user: { type: 'string' }, role: { type: 'string', multiple: true }, ttl: { type: 'string' } },
});
const config = loadConfig();
const fail = (message: string) => {
  console.error(message);
  process.exit(2);
};
if (!config.oidc.embedded) fail(`OIDC_ISSUER is ${config.oidc.issuer}: tokens can only be made for the embedded provider; ask that issuer for one.`);
if (!values.user || !USERNAME.test(values.user)) fail('usage: npm run token -- --user <name> [--role staff] [--role support] [--ttl seconds]');
const roles = values.role ?? [];
const bad = roles.find((r) => r !== 'staff' && r !== 'support');
if (bad) fail(`unknown role "${bad}": use staff or support`);
const ttl = values.ttl ? Number(values.ttl) : 3600;
if (!Number.isInteger(ttl) || ttl < 1 || ttl > 86400) fail('--ttl must be a whole number of seconds from 1 to 86400');

const keys = await loadOrCreateKeys(config.oidc.keysFile);
console.log(`access token for ${values.user} (roles: ${roles.join(', ') || 'none'}), valid ${ttl} s, issuer ${config.oidc.issuer}:`);
console.log(await signAccessToken(config, keys, { username: values.user!, roles, ttl }));
