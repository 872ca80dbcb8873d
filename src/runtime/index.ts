import path from 'node:path';
import { AgonesDriver, agonesConsoles, type KubernetesOptions } from './agones-driver.ts';
import type { GameConsoles } from './consoles.ts';
import { gameDrivers, type GameDriver, type GameDriverName } from './driver.ts';
import { LocalDriver, localConsoles } from './local-driver.ts';

/** Everything a driver may need; the server's config (GAME_* and KUBERNETES_* settings) fills it. */
export interface DriverConfig {
  driver: GameDriverName;
  /** Where the local driver keeps each game's folder (`<dataDir>/games/<id>`). */
  dataDir: string;
  /** Host players connect to with the local driver. */
  host: string;
  portRange: { from: number; to: number };
  /** A vanilla or Paper jar the local driver runs instead of flying-squid. */
  serverJar?: string;
  kubernetes: KubernetesOptions;
}

/**
 * The game runtime: the driver GAME_DRIVER names, and the consoles of every game, which the driver
 * writes its servers' output into and the platform reads.
 */
export interface Runtime {
  driver: GameDriver;
  consoles: GameConsoles;
}

/** The runtime of GAME_DRIVER: `local` (default) or `agones`, with the consoles where that driver keeps them. */
export function createRuntime(config: DriverConfig): Runtime {
  switch (config.driver) {
    case 'local': {
      const consoles = localConsoles(config.dataDir);
      return { driver: new LocalDriver({ dataDir: config.dataDir, host: config.host, portRange: config.portRange, consoles, ...(config.serverJar ? { serverJar: config.serverJar } : {}) }), consoles };
    }
    case 'agones': {
      // On the API's side, in the folder a local game would have: `<dataDir>/games/blockhost-<id>`.
      const consoleDir = path.join(config.dataDir, 'games');
      const consoles = agonesConsoles(consoleDir);
      return { driver: new AgonesDriver({ consoleDir, consoles, ...config.kubernetes }), consoles };
    }
    default:
      throw new Error(`game driver "${String(config.driver)}" is unknown: expected one of ${gameDrivers.join(', ')}`);
  }
}
