-- A roster row's match is checked at the commit, not at the insert: the queue sends a burst's
-- matches and their rosters in one round trip, in no set order (matches/service.ts writeMatches,
-- issue 20). A roster without its match still fails, at the commit.
ALTER TABLE "match_players" ALTER CONSTRAINT "match_players_match_id_matches_id_fk" DEFERRABLE INITIALLY DEFERRED;
