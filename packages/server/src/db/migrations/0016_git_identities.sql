CREATE TABLE "user_git_identities" (
	"user_id" uuid NOT NULL,
	"identity" text NOT NULL,
	"identity_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_git_identities_identity_key_unique" UNIQUE("identity_key")
);
--> statement-breakpoint
ALTER TABLE "user_git_identities" ADD CONSTRAINT "user_git_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_git_identities_user_idx" ON "user_git_identities" USING btree ("user_id");