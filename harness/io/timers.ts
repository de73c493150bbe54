/** The longest delay a Node timer takes (about 24.8 days); a longer one fires after 1 ms, with a warning. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `f` after `ms` milliseconds; never when `ms` is not finite or beyond what a timer can wait
 * (a limit of weeks is no limit within a run). The timer, for clearTimeout, or undefined.
 */
export function limitTimer(ms: number, f: () => void): NodeJS.Timeout | undefined {
  return Number.isFinite(ms) && ms <= MAX_TIMER_MS ? setTimeout(f, Math.max(0, ms)) : undefined;
}
