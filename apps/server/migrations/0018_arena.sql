CREATE TABLE "arena_servers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"rcon_address" text NOT NULL,
	"rcon_password" text NOT NULL,
	"created_at" bigint NOT NULL,
	"deleted_at" bigint,
	"online" boolean DEFAULT false NOT NULL,
	"players" integer DEFAULT 0 NOT NULL,
	"user_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"polled_at" bigint
);
