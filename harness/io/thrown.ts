/** One line for anything code can throw: an Error's message, else what the value was (`threw null`). */
export function thrownMessage(thrown: unknown): string {
  if (thrown instanceof Error) return oneLine(thrown.message || thrown.name);
  if (typeof thrown === 'string') return oneLine(thrown);
  let shown: string | undefined;
  try {
    // Plain objects say more as JSON; null, undefined, symbols and cyclic objects fall back to String().
    shown = typeof thrown === 'object' && thrown !== null ? JSON.stringify(thrown) : undefined;
  } catch {}
  return `threw ${oneLine(shown ?? String(thrown))}`;
}

/** A bad option value found inside a command (not by commander): the CLI adds the pointer to the command's help. */
export class UsageError extends Error {}

/** Line breaks and runs of blanks become one space. */
export const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
