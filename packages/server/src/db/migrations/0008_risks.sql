CREATE TABLE "risk_item_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"risk_item_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"report_id" uuid,
	"from_state" text,
	"to_state" text NOT NULL,
	"judgment" text,
	"reason" text
);
--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "kind" text DEFAULT 'coverage' NOT NULL;--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "test_type" integer;--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "changed_lines" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "fan_in" integer;--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "body_hash" text;--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "assignee_id" uuid;--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "due_date" date;--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "resolved_by_report_id" uuid;--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "risk_item_history" ADD CONSTRAINT "risk_item_history_risk_item_id_risk_items_id_fk" FOREIGN KEY ("risk_item_id") REFERENCES "public"."risk_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_item_history" ADD CONSTRAINT "risk_item_history_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_item_history" ADD CONSTRAINT "risk_item_history_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "risk_item_history_item_idx" ON "risk_item_history" USING btree ("risk_item_id","at");--> statement-breakpoint
ALTER TABLE "risk_items" ADD CONSTRAINT "risk_items_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_items" ADD CONSTRAINT "risk_items_resolved_by_report_id_reports_id_fk" FOREIGN KEY ("resolved_by_report_id") REFERENCES "public"."reports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "risk_items_app_version_idx" ON "risk_items" USING btree ("app_id","version","file_path");--> statement-breakpoint
CREATE INDEX "risk_items_state_created_idx" ON "risk_items" USING btree ("state","created_at");