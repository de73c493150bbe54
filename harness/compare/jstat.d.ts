/** The part of jStat (no types of its own) that the comparison uses. */
declare module 'jstat' {
  const jStat: {
    studentt: {
      /** The quantile of Student's t distribution with `dof` degrees of freedom. */
      inv(p: number, dof: number): number;
    };
  };
  export default jStat;
}
