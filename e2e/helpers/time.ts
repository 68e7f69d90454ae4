/**
 * Time the journeys allow, scaled to the machine. A journey's waits are upper bounds for a
 * machine with two idle cores; on CI the same journeys have run 2.7 times slower (stop 30: the
 * whole Playwright run took 18.3 min there against 6.7 min here), and a bound meant to catch a
 * hang then failed journeys that were only slow. E2E_TIME_SCALE overrides the factor (1 locally,
 * 3 with CI set). Only bounds are scaled: nothing waits longer when the product is on time.
 */
export const timeScale = Number(process.env.E2E_TIME_SCALE ?? (process.env.CI ? 3 : 1));

/** `ms`, the bound on an idle machine, as allowed on this one. */
export const allow = (ms: number) => Math.round(ms * timeScale);
