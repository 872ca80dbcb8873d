import type { SquidPlayer, SquidServer } from './admin-plugin.ts';
import { gameModes } from './server-config.ts';

/** Game modes by number, as the respawn packet names them from 1.20.5. */
const gameModeNames = Object.fromEntries(Object.entries(gameModes).map(([name, mode]) => [mode, name]));

/**
 * Fights on flying-squid as a vanilla server has them, which ranked duels are decided by: each
 * death told once, in vanilla's words, on the console and to everyone in chat (the platform reads
 * a duel's kills from those lines: src/runtime/deaths.ts), and a killed player who respawns and
 * plays on.
 */
export function installCombat(serv: SquidServer): void {
  serv.on('newPlayer', (player) => {
    tellDeaths(serv, player);
    respawnTheDead(serv, player);
  });
}

/**
 * flying-squid hurts a player only through an attack or its `/kill` (it has no fall, void, fire or
 * drowning damage): a player's attack is "<victim> was slain by <killer>", `/kill` vanilla's words
 * for it in the server's version, anything else vanilla's generic "<victim> died".
 */
function tellDeaths(serv: SquidServer, player: SquidPlayer): void {
  player.on('attack', (attack) => {
    // The attack is the object flying-squid then hands the attacked entity's `takeDamage`.
    attack.attacker = player;
    // flying-squid knocks the attacked back five times as far as the two stand apart: past 16
    // blocks the velocity overflows its packet, whose failed write disconnects everyone around.
    // Vanilla's knockback instead: 0.4 blocks a tick (8 a second) away from the attacker, and up.
    const away = attack.attackedEntity.position.minus(player.position);
    const length = Math.hypot(away.x, away.z);
    const velocity = away.scaled(length > 0 ? 8 / length : 0);
    velocity.y = 8;
    attack.velocity = velocity;
  });
  // Vanilla's `/kill` is "killed" from 1.19.4, "fell out of the world" before.
  const killed = serv.registry.version['>=']('1.19.4') ? 'was killed' : 'fell out of the world';
  const takeDamage = player.takeDamage.bind(player);
  player.takeDamage = (damage) => {
    // flying-squid keeps hurting a dead player (its health goes below 0): a death is one, and its
    // player, lying dead until it respawns, is hurt no more.
    if (player.health <= 0) return;
    takeDamage(damage);
    if (player.health > 0) return;
    const killer = damage.attacker;
    // An attack names what it hits; flying-squid's `/kill` hands only the damage.
    const cause = killer && killer !== player ? `was slain by ${killer.username}` : 'attackedEntity' in damage ? 'died' : killed;
    tell(serv, `${player.username} ${cause}`);
  };
}

/**
 * A death, to the console and to everyone in chat, as vanilla tells it. Printed through
 * flying-squid's `log`, not `info`: a command run over RCON takes what `info` prints meanwhile for
 * its answer, and a death during one (`/kill` itself) would be missing from the console.
 */
function tell(serv: SquidServer, message: string): void {
  serv.log(`[INFO]: ${message}`);
  for (const player of serv.players) player.chat(message);
}

function respawnTheDead(serv: SquidServer, player: SquidPlayer): void {
  // flying-squid respawns a player whose client sends action 0, but the protocol's definitions now
  // name it (`perform_respawn`), so it never did: a dead player stayed dead. Its steps, then.
  player._client.on('client_command', (command) => {
    if ((command.actionId ?? command.payload) !== 'perform_respawn') return;
    void player.behavior('requestRespawn', {}, () => {
      player._sendRespawn();
      player.sendSelfPosition();
      player.updateHealth(20);
      // Shown again to the players around, and they to it: its client forgot them all.
      player.nearbyEntities = [];
      player.updateAndSpawn();
    });
  });
  // Only the dead respawn: flying-squid would heal a living player who asks (a duel's cheat).
  player.on('requestRespawn_cancel', (_, cancel) => player.health > 0 && cancel());
  // flying-squid respawns a player where it died; vanilla brings it back at the world's spawn,
  // away from its killer.
  player.on('requestRespawn', () => (player.position = player.spawnPoint.clone()));
  // From 1.20.5 the respawn packet carries the world as the login's does (flying-squid writes the
  // older fields, which the protocol refuses): the login's world, with the player's game modes.
  if (serv.supportFeature('spawnRespawnWorldDataField')) {
    player._sendRespawn = () =>
      player._client.write('respawn', {
        worldState: { ...serv.registry.loginPacket.worldState, gamemode: gameModeNames[player.gameMode], previousGamemode: player.prevGameMode },
        copyMetadata: 0,
      });
  }
}
