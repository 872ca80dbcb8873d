import { describe, expect, it } from 'vitest';
import { commandName, intentOf, levelFor } from './commands.ts';

const level = (command: string) => levelFor(intentOf(command));

describe('console commands', () => {
  it('needs a co-admin for what stops the server, makes operators or changes its settings, however it is spelt', () => {
    for (const command of ['stop', '/stop', 'STOP', 'minecraft:stop', '  stop  ', 'execute run stop', 'execute as run run stop', 'execute as @a at @s run execute run stop']) {
      expect([command, intentOf(command)]).toEqual([command, { activity: 'game.stop' }]);
    }
    // Every `run` may start the command `execute` runs (a player may be named run): the most it could need counts.
    expect(level('execute run say run stop')).toBe('COADMIN');
    for (const command of [
      'op Steve',
      '/OP Steve',
      'deop Steve',
      'op',
      'op not a name!',
      'execute as @p run op @s',
      'motd Closed',
      'difficulty peaceful',
      'diff 0',
      'gamerule keepInventory true',
      'save-off',
    ]) {
      expect([command, level(command)]).toEqual([command, 'COADMIN']);
    }
  });

  it('leaves a moderator what the panel lets them do', () => {
    for (const command of [
      'say stop',
      'kick Steve stop it',
      'time set day',
      'weather clear',
      'whitelist add Steve',
      'whitelist off',
      'ban Steve',
      'pardon Steve',
      'tp Steve 0 64 0',
      'list',
      'execute as Steve run say hi',
    ]) {
      expect([command, level(command)]).toEqual([command, 'MODERATOR']);
    }
  });

  it('names the list change and the player, when the name is one', () => {
    expect(intentOf('/whitelist ADD Steve')).toEqual({ activity: 'players.list', type: 'WHITELIST', action: 'ADD', name: 'Steve' });
    expect(intentOf('ban Griefer for griefing')).toEqual({ activity: 'players.list', type: 'BANNED', action: 'ADD', name: 'Griefer' });
    expect(intentOf('deop @a')).toEqual({ activity: 'players.list', type: 'OPS', action: 'REMOVE' });
    expect(intentOf('whitelist on')).toEqual({ activity: 'whitelist.toggle', enabled: true });
    expect(commandName('/Minecraft:Stop now')).toBe('stop');
  });
});
