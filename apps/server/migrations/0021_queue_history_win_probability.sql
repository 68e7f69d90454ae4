CREATE TABLE "queue_minutes" (
	"minute" bigint PRIMARY KEY NOT NULL,
	"peak" integer DEFAULT 0 NOT NULL,
	"match_starts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "win_probability" double precision;