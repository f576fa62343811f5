CREATE TABLE "analytics_generation" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- The report data's generation (issue 35): every transaction that changes what the analytics read models
-- show adds one to analytics_generation.n at its commit, so the analytics answer cache
-- (lib/generation-cache.ts) of every server process sees that its answers are stale, as risk_generation
-- does for the home screen (migration 0027: deferred, once per transaction). Both now bump through one
-- function, generation_bump(<the generation's table>).
-- Reports bump only where analytics can see the row: successful, or finished (test activity counts
-- failed runs), so a running report's heart-beats do not. Method, file, committer, case and requirement
-- rows are written in the transaction that makes their report successful (or rewrites its
-- summaries_version), so the report row's bump covers them without a trigger per bulk row. An upload
-- arriving or going bumps (uploads per day, case runs), as does an agent appearing, going or changing its
-- status; a heart-beat alone does not (agents alive move with the clock: the cache's time limit bounds them).
INSERT INTO "analytics_generation" ("id", "n") VALUES (1, 0) ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE OR REPLACE FUNCTION generation_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  mark text := 'sextant.' || TG_ARGV[0] || '_bumped';
BEGIN
  IF current_setting(mark, true) IS DISTINCT FROM txid_current()::text THEN
    EXECUTE format('UPDATE %I SET n = n + 1 WHERE id = 1', TG_ARGV[0]);
    PERFORM set_config(mark, txid_current()::text, true);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS risk_generation_bump ON risk_items;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER risk_generation_bump AFTER INSERT OR UPDATE OR DELETE ON risk_items
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION generation_bump('risk_generation');--> statement-breakpoint
DROP FUNCTION IF EXISTS risk_generation_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER analytics_generation_bump_insert AFTER INSERT ON reports
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW.status = 'SUCCESS' OR NEW.finished_at IS NOT NULL)
  EXECUTE FUNCTION generation_bump('analytics_generation');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER analytics_generation_bump_update AFTER UPDATE ON reports
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.status = 'SUCCESS' OR NEW.status = 'SUCCESS' OR OLD.finished_at IS NOT NULL OR NEW.finished_at IS NOT NULL)
  EXECUTE FUNCTION generation_bump('analytics_generation');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER analytics_generation_bump_delete AFTER DELETE ON reports
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.status = 'SUCCESS' OR OLD.finished_at IS NOT NULL)
  EXECUTE FUNCTION generation_bump('analytics_generation');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER analytics_generation_bump_status AFTER UPDATE ON coverage_agents
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.last_status IS DISTINCT FROM NEW.last_status OR OLD.env_type IS DISTINCT FROM NEW.env_type)
  EXECUTE FUNCTION generation_bump('analytics_generation');--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['apps', 'teams', 'projects', 'project_apps', 'versions', 'cases', 'requirements',
      'user_git_identities'] LOOP
    EXECUTE format('CREATE CONSTRAINT TRIGGER analytics_generation_bump AFTER INSERT OR UPDATE OR DELETE ON %I
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION generation_bump(%L)', t, 'analytics_generation');
  END LOOP;
  FOREACH t IN ARRAY ARRAY['coverage_uploads', 'coverage_agents'] LOOP
    EXECUTE format('CREATE CONSTRAINT TRIGGER analytics_generation_bump AFTER INSERT OR DELETE ON %I
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION generation_bump(%L)', t, 'analytics_generation');
  END LOOP;
END;
$$;
