CREATE TABLE "drop_awards" (
	"id" text PRIMARY KEY NOT NULL,
	"drop_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"match_id" text,
	"created_at" bigint NOT NULL,
	"seen" boolean DEFAULT false NOT NULL,
	"redeemed" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drop_engine" (
	"id" text PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"interval_ms" integer NOT NULL,
	"misses" integer DEFAULT 0 NOT NULL,
	"next_roll_at" bigint
);
--> statement-breakpoint
CREATE TABLE "drops" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"image" text NOT NULL,
	"rarity" text NOT NULL,
	"amount" integer NOT NULL,
	"unlocks_banner" text,
	"unlocks_sound" text,
	"created_at" bigint NOT NULL,
	"deleted_at" bigint
);
--> statement-breakpoint
CREATE TABLE "seasons" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"starts_at" bigint NOT NULL,
	"ends_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "drop_awards" ADD CONSTRAINT "drop_awards_drop_id_drops_id_fk" FOREIGN KEY ("drop_id") REFERENCES "public"."drops"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "drop_awards_owner_idx" ON "drop_awards" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "drop_awards_drop_idx" ON "drop_awards" USING btree ("drop_id");