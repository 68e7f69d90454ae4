/** The after-match Elo result dialog (SPEC §4 step 6). Filled by the matches feature. */
export function MatchResultDialog() {
  return null;
}
