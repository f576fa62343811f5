CREATE TABLE "app_case_method_reach" (
	"app_id" uuid NOT NULL,
	"file_path" text NOT NULL,
	"class_name" text NOT NULL,
	"method" text NOT NULL,
	"case_key" text NOT NULL,
	"test_type" smallint NOT NULL,
	"env_type" text NOT NULL,
	"new_version" text NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"reports" integer NOT NULL,
	CONSTRAINT "app_case_method_reach_pk" PRIMARY KEY("app_id","file_path","class_name","method","case_key","test_type","env_type","new_version")
);
--> statement-breakpoint
ALTER TABLE "app_case_method_reach" ADD CONSTRAINT "app_case_method_reach_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_case_method_reach_case_idx" ON "app_case_method_reach" USING btree ("app_id","case_key");--> statement-breakpoint
CREATE INDEX "app_case_method_reach_group_idx" ON "app_case_method_reach" USING btree ("app_id","test_type","env_type","new_version");