/**
 * Lines out of streams and files, read one way across the runtime: a server's printed output as
 * text lines, and the JSON lines the world tool, the world agent and the console file are made of.
 */

/**
 * Splits a stream's chunks into lines, each handed to `onLine` without its end of line; a line
 * longer than `max` is handed in pieces, so a server printing without newlines cannot grow it.
 */
export function lineSplitter(onLine: (line: string) => void, max = 8192): { push(chunk: Buffer | string): void; end(): void } {
  let rest = '';
  return {
    push(chunk) {
      rest += chunk.toString();
      let nl: number;
      while ((nl = rest.indexOf('\n')) >= 0) {
        onLine(rest.slice(0, nl).replace(/\r$/, ''));
        rest = rest.slice(nl + 1);
      }
      while (rest.length > max) {
        onLine(rest.slice(0, max));
        rest = rest.slice(max);
      }
    },
    end() {
      if (rest) onLine(rest);
      rest = '';
    },
  };
}

/** A JSON line's object; undefined for a blank line, a line cut short, or JSON that is no object. */
function jsonObject(line: string): Record<string, unknown> | undefined {
  if (!line.trim()) return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads JSON lines from a stream's chunks: each line that holds a JSON object goes to `onObject`,
 * the others (blank, cut by a killed writer, garbled) are skipped. `end` reads a last line that
 * had no end of line. Lines are never cut: a JSON line is only whole.
 */
export function jsonLineReader(onObject: (value: Record<string, unknown>) => void): { push(chunk: Buffer | string): void; end(): void } {
  return lineSplitter((line) => {
    const value = jsonObject(line);
    if (value) onObject(value);
  }, Infinity);
}

/** The objects of a JSON-lines text (a file read whole), in order, the unreadable lines skipped. */
export function readJsonLines(text: string): Record<string, unknown>[] {
  const objects: Record<string, unknown>[] = [];
  const reader = jsonLineReader((value) => objects.push(value));
  reader.push(text);
  reader.end();
  return objects;
}
