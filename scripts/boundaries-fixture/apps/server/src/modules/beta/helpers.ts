export const twiceOf = (n: number) => 2 * n;
