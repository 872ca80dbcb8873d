import { describe, expect, it } from 'vitest';
import { parseConsoleText, plainText } from './formatting.ts';

describe('console text', () => {
  it('turns § and & codes into styled pieces, never markup', () => {
    expect(parseConsoleText('&eAlex joined the game.')).toEqual([{ text: 'Alex joined the game.', color: 'e' }]);
    expect(parseConsoleText('§l§cBold red§r plain &3<b>x</b>')).toEqual([{ text: 'Bold red', color: 'c' }, { text: ' plain ' }, { text: '<b>x</b>', color: '3' }]);
    // A colour resets the formats, as in Minecraft; a format adds to the colour.
    expect(parseConsoleText('§o§aitalic? §ngreen underlined')).toEqual([
      { text: 'italic? ', color: 'a' },
      { text: 'green underlined', color: 'a', underline: true },
    ]);
  });

  it('reads ANSI colours and formats, and drops other escapes', () => {
    expect(parseConsoleText('[\u001b[33mWARN\u001b[39m]: \u001b[1;31mboom\u001b[0m done\u001b[2K')).toEqual([
      { text: '[' },
      { text: 'WARN', color: '6' },
      { text: ']: ' },
      { text: 'boom', color: '4', bold: true },
      { text: ' done' },
    ]);
    expect(plainText('\u001b[38;5;208morange\u001b[0m &eyellow')).toBe('orange yellow');
  });
});
