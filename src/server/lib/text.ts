import type { FieldError } from './problems.ts';

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

/** The first string inside `value` (keys included) that cannot be stored, with its dotted path. */
export function findUnstorable(value: unknown, path = ''): FieldError | null {
  if (typeof value === 'string') {
    const why = unstorable(value);
    return why ? { field: path || 'value', message: why } : null;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findUnstorable(item, path ? `${path}.${i}` : String(i));
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      const why = unstorable(key);
      if (why) return { field, message: `is a field name that ${why}` };
      const found = findUnstorable(item, field);
      if (found) return found;
    }
  }
  return null;
}
