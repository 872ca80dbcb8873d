import path from 'node:path';
import { AgonesDriver, type KubernetesOptions } from './agones-driver.ts';
import { gameDrivers, type GameDriver, type GameDriverName } from './driver.ts';
import { LocalDriver } from './local-driver.ts';

export { type GameDriver } from './driver.ts';

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

/** The driver GAME_DRIVER names: `local` (default) or `agones`. */
export function createDriver(config: DriverConfig): GameDriver {
  switch (config.driver) {
    case 'local':
      return new LocalDriver({ dataDir: config.dataDir, host: config.host, portRange: config.portRange, ...(config.serverJar ? { serverJar: config.serverJar } : {}) });
    case 'agones':
      return new AgonesDriver({ consoleDir: path.join(config.dataDir, 'games'), ...config.kubernetes });
    default:
      throw new Error(`game driver "${String(config.driver)}" is unknown: expected one of ${gameDrivers.join(', ')}`);
  }
}
