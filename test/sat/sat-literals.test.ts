import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  binaryReason,
  isBinaryReason,
  mkLit,
  neg,
  NO_REASON,
  otherOfBinary,
  sign,
  toDimacs,
  varOf,
} from '../../solvers/sat/engine/literals.js';

const variable = fc.integer({ min: 0, max: 2 ** 29 });

describe('engine literals', () => {
  it('a literal knows its variable and sign; negation flips only the sign', () => {
    fc.assert(
      fc.property(variable, fc.boolean(), (v, negated) => {
        const lit = mkLit(v, negated);
        expect(varOf(lit)).toBe(v);
        expect(sign(lit)).toBe(negated ? 1 : 0);
        expect(varOf(neg(lit))).toBe(v);
        expect(sign(neg(lit))).toBe(negated ? 0 : 1);
        expect(neg(neg(lit))).toBe(lit);
        expect(toDimacs(lit)).toBe(negated ? -(v + 1) : v + 1);
      }),
    );
  });

  it('a binary reason holds the other literal and is told apart from clause references and NO_REASON', () => {
    fc.assert(
      fc.property(variable, fc.boolean(), fc.nat(), (v, negated, cref) => {
        const other = mkLit(v, negated);
        expect(isBinaryReason(binaryReason(other))).toBe(true);
        expect(otherOfBinary(binaryReason(other))).toBe(other);
        expect(isBinaryReason(cref)).toBe(false);
        expect(isBinaryReason(NO_REASON)).toBe(false);
      }),
    );
  });
});
