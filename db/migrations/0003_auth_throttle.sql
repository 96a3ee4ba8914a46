CREATE TABLE "auth_throttle" (
	"subject" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"attempts" integer NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP TABLE "login_attempts" CASCADE;