CREATE TABLE "openid_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"seen_at" bigint NOT NULL
);
