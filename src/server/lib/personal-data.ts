import type { Locale } from '../../contract/messages.ts';
import type { Window } from './paging.ts';

/** Whose data is gathered, and the language its texts (ledger reasons, notices) are written in. */
export interface Person {
  id: string;
  locale: Locale;
}

/** One module's part of a person's data: what it holds about them, as they would read it in the app. */
export type Section = (person: Person) => Promise<unknown>;

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

  register(name: string, section: Section): void {
    if (this.sections.has(name)) throw new Error(`personal data section "${name}" is registered twice`);
    this.sections.set(name, section);
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
