import Module, { createRequire } from 'node:module';
import path from 'node:path';

/**
 * flying-squid as a server needs it: a server's start is mostly loading modules, and a third of
 * what minecraft-protocol loads is never run by a server (docs/architecture.md, "Game runtime").
 * Two modules are answered by stand-ins, in this process only, before flying-squid is loaded:
 * - minecraft-protocol's `createClient`, which loads the Microsoft and Mojang sign-in (MSAL,
 *   prismarine-auth…) for clients: a server never makes a client. Called anyway, it loads the
 *   real one and runs it.
 * - protodef's validator, which builds an Ajv instance and its JSON schemas to check type
 *   definitions as they are added. The only definitions checked in a server are protodef's own
 *   defaults when protodef loads (its packet codecs are compiled without it, and the launcher
 *   turns it off for plugin channels): fixed data of the package, which checking cannot fail.
 */
export function loadServerOnly(from: string): unknown {
  const require = createRequire(from);
  const squid = require.resolve('flying-squid');
  const protocolDir = path.dirname(createRequire(squid).resolve('minecraft-protocol'));
  const validator = createRequire(createRequire(protocolDir + path.sep).resolve('protodef')).resolve('protodef-validator');
  const clientFile = path.join(protocolDir, 'createClient.js');
  standIn(clientFile, function createClient(this: unknown, ...args: unknown[]) {
    delete require.cache[clientFile];
    return (require(clientFile) as (...a: unknown[]) => unknown).apply(this, args);
  });
  standIn(
    validator,
    class UncheckedValidator {
      // What protodef calls of it.
      addType(): void {}
      validateType(): void {}
      validateProtocol(): void {}
    },
  );
  return require(squid);
}

/** Puts `exports` in the module cache as the module at `file`: a require of it answers them. */
function standIn(file: string, exports: unknown): void {
  const standing = new Module(file);
  standing.filename = file;
  standing.loaded = true;
  standing.exports = exports;
  createRequire(file).cache[file] = standing;
}
