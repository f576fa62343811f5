CREATE TABLE "risk_item_counts" (
	"app_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"state" text NOT NULL,
	"judgment" text DEFAULT '' NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "risk_item_counts_app_id_kind_state_judgment_pk" PRIMARY KEY("app_id","kind","state","judgment")
);
--> statement-breakpoint
ALTER TABLE "risk_items" ALTER COLUMN "report_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "severity" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "occurrences" integer;--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "first_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "sample_trace_id" text;--> statement-breakpoint
ALTER TABLE "risk_items" ADD COLUMN "p95_ms" double precision;--> statement-breakpoint
ALTER TABLE "risk_item_counts" ADD CONSTRAINT "risk_item_counts_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "risk_items_severity_idx" ON "risk_items" USING btree ("severity","id");--> statement-breakpoint
CREATE INDEX "risk_items_created_idx" ON "risk_items" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "risk_items_due_idx" ON "risk_items" USING btree ("due_date","id");--> statement-breakpoint
CREATE INDEX "risk_items_changed_idx" ON "risk_items" USING btree ("changed_lines","id");--> statement-breakpoint
CREATE INDEX "risk_items_ratio_idx" ON "risk_items" USING btree ((case when "line_total" > 0 then "line_covered"::float8 / "line_total" else 0 end),"id");--> statement-breakpoint
CREATE INDEX "risk_items_resolved_idx" ON "risk_items" USING btree ("resolved_at");--> statement-breakpoint
CREATE INDEX "risk_items_overdue_idx" ON "risk_items" USING btree ("severity","id") WHERE "risk_items"."state" = 'judged' and "risk_items"."judgment" = 'needs-test';
--> statement-breakpoint
-- riskSeverity of packages/api/src/risks.ts (issue 34), computed on every write of a risk item.
CREATE OR REPLACE FUNCTION risk_items_severity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.severity := floor(1000
    * (CASE WHEN NEW.line_total > 0 THEN 1 - NEW.line_covered::float8 / NEW.line_total ELSE 1 END)
    * least(1, ln(1 + greatest(1, NEW.changed_lines)::float8) / ln(2::float8) / 6)
    * (CASE WHEN NEW.fan_in IS NULL THEN 0.85
            ELSE 0.7 + 0.3 * least(1, ln(1 + NEW.fan_in::float8) / ln(2::float8) / 4) END)
    * (0.75 + 0.25 * least(1, greatest(0, extract(epoch FROM (coalesce(NEW.resolved_at, now()) - NEW.created_at)) / 86400)::float8 / 28))
    + 0.5) / 10;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER risk_items_severity BEFORE INSERT OR UPDATE ON risk_items
  FOR EACH ROW EXECUTE FUNCTION risk_items_severity();
--> statement-breakpoint
-- risk_item_counts follows every insert, update and delete of risk_items.
CREATE OR REPLACE FUNCTION risk_item_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE risk_item_counts SET n = n - 1
      WHERE app_id = OLD.app_id AND kind = OLD.kind AND state = OLD.state AND judgment = coalesce(OLD.judgment, '');
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO risk_item_counts AS c (app_id, kind, state, judgment, n)
      VALUES (NEW.app_id, NEW.kind, NEW.state, coalesce(NEW.judgment, ''), 1)
      ON CONFLICT (app_id, kind, state, judgment) DO UPDATE SET n = c.n + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER risk_item_counts_keep AFTER INSERT OR DELETE OR UPDATE OF app_id, kind, state, judgment ON risk_items
  FOR EACH ROW EXECUTE FUNCTION risk_item_counts_keep();
--> statement-breakpoint
UPDATE risk_items SET severity = 0;
--> statement-breakpoint
INSERT INTO risk_item_counts (app_id, kind, state, judgment, n)
  SELECT app_id, kind, state, coalesce(judgment, ''), count(*)::int FROM risk_items GROUP BY 1, 2, 3, 4;
