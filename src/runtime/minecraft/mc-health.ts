/**
 * `mc-health` of the game image (deploy/game/Dockerfile): exits 0 when the server in this
 * container answers a Server List Ping, 1 otherwise, as itzg/minecraft-server's command of that
 * name does; the `agones` driver's sidecar runs it to mark the GameServer Ready and healthy.
 */
import { pingServer } from './probe.ts';

const port = Number(process.env.SERVER_PORT || 25565);
try {
  await pingServer('127.0.0.1', port, 3000);
  process.exit(0);
} catch (err) {
  console.error(`no answer on port ${port}: ${(err as Error).message}`);
  process.exit(1);
}
