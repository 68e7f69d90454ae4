CREATE TABLE "game_server_leases" (
	"game_match_id" serial PRIMARY KEY NOT NULL,
	"match_id" text NOT NULL,
	"server" text NOT NULL,
	"allocated_at" bigint NOT NULL,
	"released_at" bigint,
	CONSTRAINT "game_server_leases_match_id_unique" UNIQUE("match_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "game_server_leases_busy_idx" ON "game_server_leases" USING btree ("server") WHERE released_at IS NULL;