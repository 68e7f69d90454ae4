export const twoStore = { count: 0 };
