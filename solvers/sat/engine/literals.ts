/**
 * Literals and the sentinels the engine stores beside them, in MiniSat's representation.
 *
 * Variable v (0-based inside the engine) has the literals 2v (v true) and 2v + 1 (v false); the
 * public API speaks DIMACS (v + 1 and -(v + 1)).
 */

export const mkLit = (v: number, negated: boolean): number => 2 * v + (negated ? 1 : 0);
export const varOf = (lit: number): number => lit >> 1;
/** 1 for a negated literal, 0 for a positive one (also the saved-phase bit: 1 means false). */
export const sign = (lit: number): number => lit & 1;
export const neg = (lit: number): number => lit ^ 1;

/** The DIMACS form of a literal. */
export function toDimacs(lit: number): number {
  return sign(lit) ? -(varOf(lit) + 1) : varOf(lit) + 1;
}

/** A literal's value in `vals`: true, false or unassigned. */
export const TRUE = 1;
export const FALSE = -1;
export const UNDEF = 0;

/** No literal (for example: no branch literal left). */
export const NO_LIT = -1;

/**
 * A variable's reason: NO_REASON for a decision or an assumption, a clause reference (≥ 0), or,
 * for a literal implied by a binary clause, that clause's other literal encoded below NO_REASON,
 * so that neither propagation nor analysis reads the clause.
 */
export const NO_REASON = -1;
export const binaryReason = (other: number): number => -2 - other;
export const isBinaryReason = (reason: number): boolean => reason < NO_REASON;
export const otherOfBinary = (reason: number): number => -2 - reason;
