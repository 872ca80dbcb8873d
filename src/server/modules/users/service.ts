import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import type { AuthUser, Identity } from '../../plugins/auth.ts';

export type UserRow = typeof users.$inferSelect;

export class UsersService {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** The user of this identity, made on first sight and kept in step with the token's name, email and roles. */
  async resolve(identity: Identity): Promise<AuthUser> {
    const [found] = await this.db
      .select({ id: users.id, name: users.name, email: users.email, roles: users.roles })
      .from(users)
      .where(eq(users.subject, identity.subject));
    const same = found && found.name === identity.name && found.email === identity.email && sameRoles(found.roles, identity.roles);
    if (same) return found;
    const [row] = await this.db
      .insert(users)
      .values({ subject: identity.subject, name: identity.name, email: identity.email, roles: identity.roles })
      .onConflictDoUpdate({
        target: users.subject,
        set: { name: identity.name, email: identity.email, roles: identity.roles, updatedAt: sql`now()` },
      })
      .returning({ id: users.id, name: users.name, email: users.email, roles: users.roles });
    return row!;
  }

  async get(id: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }
}

function sameRoles(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((r) => b.includes(r));
}
