/**
 * A propagator beyond the clauses, as in lazy clause generation: at each fixpoint of unit
 * propagation the engine tells it the variables assigned since it last looked, then lets it deduce.
 * Each literal it implies comes with a clause that explains it (every other literal of the clause
 * false now), and a conflict with a clause whose literals are all false. The engine keeps these
 * clauses as learnt ones, so conflict analysis resolves through them like through any other clause.
 *
 * Variables and literals are DIMACS numbers, as in the engine's public API.
 */
/**
 * The contract: the engine never says when it backtracks, so a theory reads values through
 * `host.value` rather than keeping them from `assigned` (which only says what to look at again).
 * An explanation's literals are distinct variables, and all but the first are false when it is
 * given; the engine trusts both, so a theory that breaks them makes the search unsound.
 */
export interface Theory {
  /** Variable v (1-based) was assigned since the last call of `propagate` (told in trail order). */
  assigned(v: number): void;
  /** Deduces what it can from the assignment, through `host`; false once `host.explain` reported a conflict. */
  propagate(host: TheoryHost): boolean;
}

export interface TheoryHost {
  /** The current value of variable v (1-based): 1 true, -1 false, 0 unassigned. */
  value(v: number): number;
  /**
   * Adds the clause lits[0 .. size): lits[0] is implied (every other literal is false now), or,
   * when lits[0] is false too, the clause is a conflict. False for a conflict (deduce no further).
   */
  explain(lits: Int32Array, size: number): boolean;
}
