import type { Locale } from '../../contract/messages.ts';
import type { Window } from './paging.ts';

/** Whose data is gathered, and the language its texts (ledger reasons, notices) are written in. */
export interface Person {
  id: string;
  locale: Locale;
}

/** One module's part of a person's data: what it holds about them, as they would read it in the app. */
export type Section = (person: Person) => Promise<unknown>;

/**
 * What a module does with its part when its person deletes their account (RGPD article 17,
 * docs/architecture.md "Deleting an account"): erases or anonymises it, or says why there is
 * nothing for it to do (kept by law, or gone with another part).
 * An erasure may run again after a failure half-way (a killed process), so it must finish what a
 * previous run began and do nothing twice.
 */
export type Erasure = ((userId: string) => Promise<void>) | { none: string };

/** A window over the whole of a list: an export holds all of a person's rows, not a page of them. */
export const whole: Window = { limit: 2 ** 31 - 1, offset: 0, page: 0, size: 2 ** 31 - 1 };

/**
 * What the platform holds about a person, gathered from the modules that hold it (RGPD article 20).
 * Each module registers its own section when it loads (its index.ts), reading through its own
 * service, so no module reads another's tables and a new module's data joins the export where the
 * module is written. Sections come out in the order the modules load.
 */
export class PersonalData {
  private readonly sections = new Map<string, Section>();
  private readonly erasures = new Map<string, Erasure>();

  register(name: string, section: Section): void {
    if (this.sections.has(name)) throw new Error(`personal data section "${name}" is registered twice`);
    this.sections.set(name, section);
  }

  /**
   * What becomes of a part of a person's data when they delete their account. Every section has
   * one, by the same name (`unerased` says which have none, and the account deletion refuses to
   * start without them); a module may erase data it shows in no section (data exports).
   */
  erasure(name: string, erasure: Erasure): void {
    if (this.erasures.has(name)) throw new Error(`erasure "${name}" is registered twice`);
    this.erasures.set(name, erasure);
  }

  /** The sections no erasure answers for: none, once every module has loaded. */
  unerased(): string[] {
    return this.names().filter((name) => !this.erasures.has(name));
  }

  /**
   * Runs every erasure for `userId`, in the order the modules registered them, one after the
   * other; a failure stops the run, which is then run again from the start (each erasure finishes
   * what it began). `before` runs ahead of each one, for tests that fail a run half-way.
   */
  async erase(userId: string, before?: (name: string) => void | Promise<void>): Promise<void> {
    for (const [name, erasure] of this.erasures) {
      await before?.(name);
      if (typeof erasure === 'function') await erasure(userId);
    }
  }

  /** The names of the sections, in order: what an export holds. */
  names(): string[] {
    return [...this.sections.keys()];
  }

  async collect(person: Person): Promise<Record<string, unknown>> {
    const data: Record<string, unknown> = {};
    // One after the other: an export is rare and the database is shared with every player's calls.
    for (const [name, section] of this.sections) data[name] = await section(person);
    return data;
  }
}
