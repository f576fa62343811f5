CREATE TABLE "class_blobs" (
	"app_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "class_blobs_app_id_sha256_pk" PRIMARY KEY("app_id","sha256")
);
--> statement-breakpoint
CREATE TABLE "class_lists" (
	"app_id" uuid NOT NULL,
	"commit" text NOT NULL,
	"list_sha256" text NOT NULL,
	"classes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_lists_app_id_commit_list_sha256_pk" PRIMARY KEY("app_id","commit","list_sha256")
);
--> statement-breakpoint
ALTER TABLE "class_blobs" ADD CONSTRAINT "class_blobs_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_lists" ADD CONSTRAINT "class_lists_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;