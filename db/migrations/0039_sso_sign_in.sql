CREATE TABLE "sso_flows" (
	"state" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"purpose" text NOT NULL,
	"code_verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"return_to" text NOT NULL,
	"session_id" text,
	"user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"ticket_hash" text,
	CONSTRAINT "sso_flows_confirm_names_session" CHECK ("sso_flows"."purpose" = 'sign_in' or ("sso_flows"."session_id" is not null and "sso_flows"."user_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "sso_identities" (
	"org_id" text NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sign_in_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_identities_org_id_issuer_subject_pk" PRIMARY KEY("org_id","issuer","subject")
);
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "sso_org_id" text;--> statement-breakpoint
ALTER TABLE "sso_connections" ADD COLUMN "require_sso" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_flows" ADD CONSTRAINT "sso_flows_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_flows" ADD CONSTRAINT "sso_flows_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_flows" ADD CONSTRAINT "sso_flows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sso_flows_ticket_idx" ON "sso_flows" USING btree ("ticket_hash");--> statement-breakpoint
CREATE INDEX "sso_flows_created_idx" ON "sso_flows" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_identities_org_user_idx" ON "sso_identities" USING btree ("org_id","user_id");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_sso_org_id_organizations_id_fk" FOREIGN KEY ("sso_org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;