import { Box } from '@mui/material';
import { minecraftColors, parseConsoleText } from './formatting.ts';

/**
 * Text with Minecraft's `§` codes (a console line, a MOTD) drawn as the game draws it: each piece in
 * its colour and format, the codes themselves never shown. Its colours are the game's, meant for a
 * dark background.
 */
export function MinecraftText({ text }: { text: string }) {
  return parseConsoleText(text).map((piece, i) => (
    <Box
      key={i}
      component="span"
      sx={{
        color: piece.color ? minecraftColors[piece.color] : undefined,
        fontWeight: piece.bold ? 700 : undefined,
        fontStyle: piece.italic ? 'italic' : undefined,
        textDecoration: [piece.underline && 'underline', piece.strike && 'line-through'].filter(Boolean).join(' ') || undefined,
      }}
    >
      {piece.text}
    </Box>
  ));
}
