CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text,
	"name" text,
	"password_hash" text,
	"role" text DEFAULT 'USER' NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"locale" text DEFAULT 'en' NOT NULL,
	"avatar" text,
	"steam_id" text,
	"csgo_id" text,
	"steam_url" text,
	"team_speak_id" text,
	"phone" text,
	"whats_app_enabled" boolean DEFAULT false NOT NULL,
	"discord_id" text,
	"sound" text DEFAULT 'retro.mp3' NOT NULL,
	"banner" text DEFAULT 'ezpug' NOT NULL,
	"unlocked_banners" jsonb DEFAULT '["ezpug"]'::jsonb NOT NULL,
	"unseen_drops_count" integer DEFAULT 0 NOT NULL,
	"elo" integer DEFAULT 200 NOT NULL,
	"failed_logins" integer DEFAULT 0 NOT NULL,
	"blocked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email"),
	CONSTRAINT "users_steam_id_unique" UNIQUE("steam_id"),
	CONSTRAINT "users_team_speak_id_unique" UNIQUE("team_speak_id"),
	CONSTRAINT "users_discord_id_unique" UNIQUE("discord_id")
);
--> statement-breakpoint
CREATE INDEX "users_elo_idx" ON "users" USING btree ("elo");--> statement-breakpoint
CREATE INDEX "users_name_idx" ON "users" USING btree ("name");