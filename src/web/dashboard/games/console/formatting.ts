/**
 * A console line's text as styled pieces: Minecraft's `§` and `&` colour and format codes and ANSI
 * SGR escapes (colours, bold, italic, underline, strike) set the style of what follows; any other
 * escape is dropped. The pieces are rendered as text, never as HTML.
 */
export interface Piece {
  text: string;
  /** A Minecraft colour code, 0-9 or a-f. */
  color?: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
}

type Style = Omit<Piece, 'text'>;

/** Minecraft's palette, by code. */
export const minecraftColors: Record<string, string> = {
  '0': '#000000',
  '1': '#0000AA',
  '2': '#00AA00',
  '3': '#00AAAA',
  '4': '#AA0000',
  '5': '#AA00AA',
  '6': '#FFAA00',
  '7': '#AAAAAA',
  '8': '#555555',
  '9': '#5555FF',
  a: '#55FF55',
  b: '#55FFFF',
  c: '#FF5555',
  d: '#FF55FF',
  e: '#FFFF55',
  f: '#FFFFFF',
};

/** ANSI's sixteen foreground colours as Minecraft's nearest codes. */
const ansiColors: Record<number, string> = { 30: '0', 31: '4', 32: '2', 33: '6', 34: '1', 35: '5', 36: '3', 37: '7', 90: '8', 91: 'c', 92: 'a', 93: 'e', 94: '9', 95: 'd', 96: 'b', 97: 'f' };

// eslint-disable-next-line no-control-regex
const token = /[§&]([0-9a-fk-or])|\u001b\[([0-9;]*)([A-Za-z])|\u001b/gi;

function applyMinecraft(style: Style, code: string): Style {
  const c = code.toLowerCase();
  if (c in minecraftColors) return { color: c };
  switch (c) {
    case 'l':
      return { ...style, bold: true };
    case 'o':
      return { ...style, italic: true };
    case 'n':
      return { ...style, underline: true };
    case 'm':
      return { ...style, strike: true };
    case 'r':
      return {};
    default:
      // §k (obfuscated) shows as plain text.
      return style;
  }
}

function applyAnsi(style: Style, params: string): Style {
  const codes = params === '' ? [0] : params.split(';').map(Number);
  let next = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    if (code === 0) next = {};
    else if (code === 1) next.bold = true;
    else if (code === 3) next.italic = true;
    else if (code === 4) next.underline = true;
    else if (code === 9) next.strike = true;
    else if (code === 22) next.bold = false;
    else if (code === 23) next.italic = false;
    else if (code === 24) next.underline = false;
    else if (code === 29) next.strike = false;
    else if (code === 39) delete next.color;
    else if (code in ansiColors) next.color = ansiColors[code];
    // 256-colour and true-colour forms: their arguments are skipped, the colour is not kept.
    else if (code === 38 || code === 48) i += codes[i + 1] === 5 ? 2 : 4;
  }
  return next;
}

export function parseConsoleText(text: string): Piece[] {
  const pieces: Piece[] = [];
  let style: Style = {};
  let at = 0;
  const push = (end: number) => {
    if (end > at) pieces.push({ text: text.slice(at, end), ...style });
  };
  for (const match of text.matchAll(token)) {
    push(match.index);
    at = match.index + match[0].length;
    if (match[1] !== undefined) style = applyMinecraft(style, match[1]);
    else if (match[3] === 'm') style = applyAnsi(style, match[2] ?? '');
  }
  push(text.length);
  return pieces;
}

/** The text without its codes, for search and copy. */
export function plainText(text: string): string {
  return parseConsoleText(text)
    .map((p) => p.text)
    .join('');
}
