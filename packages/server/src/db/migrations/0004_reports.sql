CREATE TABLE "coverage_agents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" uuid NOT NULL,
	"agent_id" text NOT NULL,
	"env_type" text NOT NULL,
	"ip" text,
	"version" text,
	"last_status" text NOT NULL,
	"last_error" text,
	"last_heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coverage_agents_app_agent_unique" UNIQUE("app_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "coverage_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" uuid NOT NULL,
	"commit" text NOT NULL,
	"commit_sha" text,
	"env_type" text NOT NULL,
	"test_type" smallint NOT NULL,
	"case_id" text,
	"agent_id" text,
	"format" text NOT NULL,
	"stored_path" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"files" integer NOT NULL,
	"unmapped_files" text[] DEFAULT '{}'::text[] NOT NULL,
	"uploaded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_details" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"report_id" uuid NOT NULL,
	"class_id" bigint,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"file_path" text,
	"start_line" integer,
	"end_line" integer,
	"changed" boolean DEFAULT false NOT NULL,
	"change_status" text,
	"method_count" integer DEFAULT 0 NOT NULL,
	"instruction_covered" bigint,
	"instruction_total" bigint,
	"branch_covered" bigint,
	"branch_total" bigint,
	"line_covered" bigint,
	"line_total" bigint,
	"complexity_covered" bigint,
	"complexity_total" bigint,
	"method_covered" bigint,
	"method_total" bigint,
	"class_covered" bigint,
	"class_total" bigint,
	"code_author" text
);
--> statement-breakpoint
CREATE TABLE "report_files" (
	"report_id" uuid NOT NULL,
	"path" text NOT NULL,
	"language" text,
	"line_covered" integer NOT NULL,
	"line_total" integer NOT NULL,
	"branch_covered" integer NOT NULL,
	"branch_total" integer NOT NULL,
	"changed" boolean DEFAULT false NOT NULL,
	"diff_line_covered" integer,
	"diff_line_total" integer,
	"line_numbers" integer[] NOT NULL,
	"line_hits" bigint[] NOT NULL,
	"branches_covered" integer[] NOT NULL,
	"branches_total" integer[] NOT NULL,
	"changed_lines" integer[] DEFAULT '{}'::int[] NOT NULL,
	CONSTRAINT "report_files_report_id_path_pk" PRIMARY KEY("report_id","path")
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" uuid NOT NULL,
	"name" text NOT NULL,
	"base_version" text NOT NULL,
	"new_version" text NOT NULL,
	"base_commit" text,
	"new_commit" text,
	"env_type" text NOT NULL,
	"test_type" smallint NOT NULL,
	"coverage_type" text NOT NULL,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"err_msg" text,
	"run" integer DEFAULT 1 NOT NULL,
	"instruction_covered" bigint,
	"instruction_total" bigint,
	"branch_covered" bigint,
	"branch_total" bigint,
	"line_covered" bigint,
	"line_total" bigint,
	"complexity_covered" bigint,
	"complexity_total" bigint,
	"method_covered" bigint,
	"method_total" bigint,
	"class_covered" bigint,
	"class_total" bigint,
	"diff_line_covered" bigint,
	"diff_line_total" bigint,
	"code_author" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "risk_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" uuid NOT NULL,
	"report_id" uuid NOT NULL,
	"version" text NOT NULL,
	"class_name" text NOT NULL,
	"method_name" text NOT NULL,
	"signature" text,
	"file_path" text NOT NULL,
	"start_line" integer,
	"end_line" integer,
	"author" text,
	"requirement" text,
	"line_covered" integer NOT NULL,
	"line_total" integer NOT NULL,
	"state" text DEFAULT 'observing' NOT NULL,
	"judgment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "coverage_agents" ADD CONSTRAINT "coverage_agents_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coverage_uploads" ADD CONSTRAINT "coverage_uploads_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coverage_uploads" ADD CONSTRAINT "coverage_uploads_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_details" ADD CONSTRAINT "report_details_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_files" ADD CONSTRAINT "report_files_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_items" ADD CONSTRAINT "risk_items_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_items" ADD CONSTRAINT "risk_items_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "coverage_uploads_app_env_idx" ON "coverage_uploads" USING btree ("app_id","env_type","test_type","created_at");--> statement-breakpoint
CREATE INDEX "report_details_report_class_idx" ON "report_details" USING btree ("report_id","class_id");--> statement-breakpoint
CREATE INDEX "reports_search_idx" ON "reports" USING btree ("test_type","app_id","new_version","env_type");--> statement-breakpoint
CREATE INDEX "reports_app_created_idx" ON "reports" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE INDEX "risk_items_report_idx" ON "risk_items" USING btree ("report_id");--> statement-breakpoint
CREATE INDEX "risk_items_app_state_idx" ON "risk_items" USING btree ("app_id","state");