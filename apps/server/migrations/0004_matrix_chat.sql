CREATE TABLE "mx_access_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"device_id" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mx_account_data" (
	"user_id" text NOT NULL,
	"room_id" text NOT NULL,
	"type" text NOT NULL,
	"content" jsonb NOT NULL,
	"stream" bigint NOT NULL,
	CONSTRAINT "mx_account_data_user_id_room_id_type_pk" PRIMARY KEY("user_id","room_id","type")
);
--> statement-breakpoint
CREATE TABLE "mx_aliases" (
	"alias" text PRIMARY KEY NOT NULL,
	"room_id" text NOT NULL,
	"creator" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mx_events" (
	"stream" bigint PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"room_id" text NOT NULL,
	"type" text NOT NULL,
	"state_key" text,
	"sender" text NOT NULL,
	"content" jsonb NOT NULL,
	"ts" bigint NOT NULL,
	"txn_id" text,
	"txn_device" text,
	CONSTRAINT "mx_events_event_id_unique" UNIQUE("event_id")
);
--> statement-breakpoint
CREATE TABLE "mx_filters" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"filter" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mx_login_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mx_media" (
	"media_id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"content_type" text NOT NULL,
	"filename" text,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mx_receipts" (
	"room_id" text NOT NULL,
	"user_id" text NOT NULL,
	"type" text NOT NULL,
	"event_id" text NOT NULL,
	"ts" bigint NOT NULL,
	"stream" bigint NOT NULL,
	CONSTRAINT "mx_receipts_room_id_user_id_type_pk" PRIMARY KEY("room_id","user_id","type")
);
--> statement-breakpoint
CREATE TABLE "mx_room_state" (
	"room_id" text NOT NULL,
	"type" text NOT NULL,
	"state_key" text NOT NULL,
	"event_id" text NOT NULL,
	"stream" bigint NOT NULL,
	"membership" text,
	CONSTRAINT "mx_room_state_room_id_type_state_key_pk" PRIMARY KEY("room_id","type","state_key")
);
--> statement-breakpoint
CREATE TABLE "mx_rooms" (
	"room_id" text PRIMARY KEY NOT NULL,
	"creator" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mx_thumbnails" (
	"media_id" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"method" text NOT NULL,
	"content_type" text NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "mx_thumbnails_media_id_width_height_method_pk" PRIMARY KEY("media_id","width","height","method")
);
--> statement-breakpoint
CREATE TABLE "mx_users" (
	"user_id" text PRIMARY KEY NOT NULL,
	"password_hash" text NOT NULL,
	"admin" boolean DEFAULT false NOT NULL,
	"displayname" text,
	"avatar_url" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_accounts" (
	"user_id" text PRIMARY KEY NOT NULL,
	"matrix_user_id" text NOT NULL,
	"password_enc" text NOT NULL,
	"access_token" text NOT NULL,
	"device_id" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_rooms" (
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"room_id" text NOT NULL,
	CONSTRAINT "chat_rooms_kind_key_pk" PRIMARY KEY("kind","key")
);
--> statement-breakpoint
CREATE INDEX "mx_access_tokens_user_idx" ON "mx_access_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "mx_events_room_stream_idx" ON "mx_events" USING btree ("room_id","stream");--> statement-breakpoint
CREATE INDEX "mx_events_txn_idx" ON "mx_events" USING btree ("sender","txn_id");--> statement-breakpoint
CREATE INDEX "mx_receipts_stream_idx" ON "mx_receipts" USING btree ("stream");--> statement-breakpoint
CREATE INDEX "mx_room_state_member_idx" ON "mx_room_state" USING btree ("state_key","membership");