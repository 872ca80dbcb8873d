/**
 * Why PostgreSQL cannot store a string, or null: a NUL character (text refuses it) or a lone
 * UTF-16 surrogate (JSON escapes it as `\ud800` and jsonb refuses that; as text it would silently
 * become U+FFFD). Either is bad input, never something a person typed. The answer is the reason's
 * name in the errors catalogue (`field.noNul`, `field.wellFormed`).
 */
export function unstorable(text: string): 'noNul' | 'wellFormed' | null {
  if (text.includes('\u0000')) return 'noNul';
  if (!text.isWellFormed()) return 'wellFormed';
  return null;
}
