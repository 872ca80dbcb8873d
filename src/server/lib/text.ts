/**
 * Why PostgreSQL cannot store a string, or null: a NUL character (text refuses it) or a lone
 * UTF-16 surrogate (JSON escapes it as `\ud800` and jsonb refuses that; as text it would silently
 * become U+FFFD). Either is bad input, never something a person typed.
 */
export function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  if (!text.isWellFormed()) return 'must be well-formed Unicode (a lone surrogate was found)';
  return null;
}
