CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"due_at" bigint NOT NULL,
	"fired_at" bigint,
	"claimed_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accept_phases" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" bigint NOT NULL,
	"deadline" bigint NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"player_ids" jsonb NOT NULL,
	"match_id" text
);
--> statement-breakpoint
CREATE TABLE "queue_entries" (
	"user_id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"joined_at" bigint NOT NULL,
	"phase_id" text,
	"accepted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "maps" (
	"key" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "match_events" (
	"match_id" text NOT NULL,
	"event_key" text NOT NULL,
	"received_at" bigint NOT NULL,
	CONSTRAINT "match_events_match_id_event_key_pk" PRIMARY KEY("match_id","event_key")
);
--> statement-breakpoint
CREATE TABLE "match_players" (
	"match_id" text NOT NULL,
	"user_id" text NOT NULL,
	"team" text,
	"captain" boolean DEFAULT false NOT NULL,
	"pick_no" integer,
	"name" text NOT NULL,
	"avatar" text,
	"steam_id" text,
	"elo" integer NOT NULL,
	"elo_before" integer,
	"elo_after" integer,
	"kills" integer DEFAULT 0 NOT NULL,
	"deaths" integer DEFAULT 0 NOT NULL,
	"assists" integer DEFAULT 0 NOT NULL,
	"damage" integer DEFAULT 0 NOT NULL,
	"headshots" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "match_players_match_id_user_id_pk" PRIMARY KEY("match_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "match_rounds" (
	"match_id" text NOT NULL,
	"round" integer NOT NULL,
	"score_one" integer NOT NULL,
	"score_two" integer NOT NULL,
	"winner" text,
	"players" jsonb NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "match_rounds_match_id_round_pk" PRIMARY KEY("match_id","round")
);
--> statement-breakpoint
CREATE TABLE "matches" (
	"id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"created_at" bigint NOT NULL,
	"finished_at" bigint,
	"team_one_name" text NOT NULL,
	"team_two_name" text NOT NULL,
	"turn" text,
	"deadline" bigint,
	"pick_index" integer DEFAULT 0 NOT NULL,
	"pick_order" text NOT NULL,
	"map_pool" jsonb NOT NULL,
	"bans" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"map_key" text,
	"map_name" text,
	"provider" text,
	"server_connect" text,
	"server_gotv" text,
	"server_secret" text,
	"live_at" bigint,
	"round" integer DEFAULT 0 NOT NULL,
	"score_one" integer DEFAULT 0 NOT NULL,
	"score_two" integer DEFAULT 0 NOT NULL,
	"winner" text,
	"cancel_reason" text
);
--> statement-breakpoint
ALTER TABLE "match_events" ADD CONSTRAINT "match_events_match_id_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_players" ADD CONSTRAINT "match_players_match_id_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_rounds" ADD CONSTRAINT "match_rounds_match_id_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_pending_idx" ON "jobs" USING btree ("due_at") WHERE fired_at IS NULL;--> statement-breakpoint
CREATE INDEX "queue_entries_seq_idx" ON "queue_entries" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "queue_entries_phase_idx" ON "queue_entries" USING btree ("phase_id");--> statement-breakpoint
CREATE INDEX "match_players_user_idx" ON "match_players" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "matches_status_idx" ON "matches" USING btree ("status");--> statement-breakpoint
CREATE INDEX "matches_created_idx" ON "matches" USING btree ("created_at");--> statement-breakpoint
INSERT INTO "maps" ("key", "name", "active", "sort_order") VALUES
  ('de_ancient', 'Ancient', true, 1),
  ('de_anubis', 'Anubis', true, 2),
  ('de_dust2', 'Dust II', true, 3),
  ('de_inferno', 'Inferno', true, 4),
  ('de_mirage', 'Mirage', true, 5),
  ('de_nuke', 'Nuke', true, 6),
  ('de_train', 'Train', true, 7)
ON CONFLICT DO NOTHING;
