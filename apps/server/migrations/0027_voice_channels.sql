CREATE TABLE "voice_channels" (
	"match_id" text NOT NULL,
	"team" text NOT NULL,
	"channel_id" integer NOT NULL,
	"name" text NOT NULL,
	"members" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"moved" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "voice_channels_match_id_team_pk" PRIMARY KEY("match_id","team")
);
--> statement-breakpoint
ALTER TABLE "voice_channels" ADD CONSTRAINT "voice_channels_match_id_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."matches"("id") ON DELETE cascade ON UPDATE no action;