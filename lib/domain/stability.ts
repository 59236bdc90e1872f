// How many runs a stability set compares (docs/stability.md): at least two, at most five, which
// is what one RM's run limit and a reader's patience allow.
export const MIN_STABILITY_RUNS = 2;
export const MAX_STABILITY_RUNS = 5;
