/** The PostgreSQL error code (SQLSTATE) of a failed query, through drizzle's wrapper when there is one. */
export function pgErrorCode(err: unknown): string | undefined {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';
/** What an ON DELETE RESTRICT foreign key raises. */
const RESTRICT_VIOLATION = '23001';

/** True when a delete failed because other rows still refer to the row. */
export function isStillReferenced(err: unknown): boolean {
  const code = pgErrorCode(err);
  return code === FOREIGN_KEY_VIOLATION || code === RESTRICT_VIOLATION;
}

/** True for unique_violation, whether the driver or Drizzle's wrapper threw it. */
export function isUniqueViolation(err: unknown): boolean {
  return pgErrorCode(err) === UNIQUE_VIOLATION;
}
