DROP INDEX "risk_items_overdue_idx";--> statement-breakpoint
CREATE INDEX "risk_items_overdue_due_idx" ON "risk_items" USING btree ("due_date","severity","id") WHERE "risk_items"."state" = 'judged' and "risk_items"."judgment" = 'needs-test';--> statement-breakpoint
-- risk_item_counts follows risk_items once per statement, not once per row (issue 34): a statement
-- writing many items (a report resolving what it covers, a bulk load) adds one change per app, kind,
-- state and judgment instead of rewriting the same counter row once per item. Groups are written in
-- key order, so concurrent writers lock counter rows in the same order.
CREATE OR REPLACE FUNCTION risk_item_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO risk_item_counts AS c (app_id, kind, state, judgment, n)
      SELECT app_id, kind, state, coalesce(judgment, ''), count(*)::int FROM risk_items_new
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (app_id, kind, state, judgment) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    -- An update, never an insert: when an app is deleted its counter rows are already gone (cascade).
    UPDATE risk_item_counts c SET n = c.n - gone.n
      FROM (SELECT app_id, kind, state, coalesce(judgment, '') AS judgment, count(*)::int AS n FROM risk_items_old
            GROUP BY 1, 2, 3, 4) gone
      WHERE c.app_id = gone.app_id AND c.kind = gone.kind AND c.state = gone.state AND c.judgment = gone.judgment;
  ELSE
    INSERT INTO risk_item_counts AS c (app_id, kind, state, judgment, n)
      SELECT app_id, kind, state, judgment, sum(d)::int FROM (
        SELECT app_id, kind, state, coalesce(judgment, '') AS judgment, 1 AS d FROM risk_items_new
        UNION ALL
        SELECT app_id, kind, state, coalesce(judgment, ''), -1 FROM risk_items_old
      ) moved
      GROUP BY 1, 2, 3, 4 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT (app_id, kind, state, judgment) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER risk_item_counts_keep ON risk_items;
--> statement-breakpoint
DROP FUNCTION risk_item_counts_keep();
--> statement-breakpoint
CREATE TRIGGER risk_item_counts_inserted AFTER INSERT ON risk_items
  REFERENCING NEW TABLE AS risk_items_new FOR EACH STATEMENT EXECUTE FUNCTION risk_item_counts_apply();
--> statement-breakpoint
CREATE TRIGGER risk_item_counts_updated AFTER UPDATE ON risk_items
  REFERENCING OLD TABLE AS risk_items_old NEW TABLE AS risk_items_new
  FOR EACH STATEMENT EXECUTE FUNCTION risk_item_counts_apply();
--> statement-breakpoint
CREATE TRIGGER risk_item_counts_deleted AFTER DELETE ON risk_items
  REFERENCING OLD TABLE AS risk_items_old FOR EACH STATEMENT EXECUTE FUNCTION risk_item_counts_apply();
