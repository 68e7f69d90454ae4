CREATE TABLE "season_texts" (
	"season_id" text NOT NULL,
	"locale" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"prizes" text DEFAULT '' NOT NULL,
	"updated_at" bigint NOT NULL,
	"updated_by" text,
	CONSTRAINT "season_texts_season_id_locale_pk" PRIMARY KEY("season_id","locale")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "team_speak_name" text;--> statement-breakpoint
ALTER TABLE "season_texts" ADD CONSTRAINT "season_texts_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;