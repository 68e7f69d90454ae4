ALTER TABLE "match_players" ADD COLUMN "rounds_present" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "match_players" ADD COLUMN "left_at" bigint;--> statement-breakpoint
ALTER TABLE "match_players" ADD COLUMN "replaced_at" bigint;--> statement-breakpoint
ALTER TABLE "match_players" ADD COLUMN "reliability" integer;