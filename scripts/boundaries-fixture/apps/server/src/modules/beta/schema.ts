export const betaRows = { name: 'beta_rows' };
