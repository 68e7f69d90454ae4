CREATE TABLE "about_texts" (
	"locale" text PRIMARY KEY NOT NULL,
	"community" text DEFAULT '' NOT NULL,
	"rules" text DEFAULT '' NOT NULL,
	"contact" text DEFAULT '' NOT NULL,
	"updated_at" bigint NOT NULL,
	"updated_by" text
);
