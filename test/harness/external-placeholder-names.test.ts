import { describe, expect, it } from 'vitest';
import { ExternalSpecError, fillPlaceholders, resolveExternal } from '../../harness/external/spec.js';

describe("an external solver's command placeholders", () => {
  it('refuses the names of Object.prototype as unknown placeholders, and never fills them with its functions', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(() => resolveExternal({ command: `cadical {cnf} {${name}}`, input: 'cnf', output: 'dimacs-model' })).toThrow(ExternalSpecError);
      expect(() => resolveExternal({ command: `cadical {cnf} {${name}}`, input: 'cnf', output: 'dimacs-model' })).toThrow(`unknown placeholder {${name}}`);
    }
    // Filled from the values' own names only: an inherited one is left as written.
    expect(fillPlaceholders(['x', '{toString}', '{constructor}', '{cnf}'], { cnf: '/t/p.cnf' })).toEqual(['x', '{toString}', '{constructor}', '/t/p.cnf']);
  });
});
