-- The risk data's generation (issue 34): every transaction that writes risk_items adds one to
-- risk_generation.n, at its commit, so the new number becomes visible together with the write and the
-- home screen's answer cache (modules/risks/read-cache.ts) of every server process sees that its
-- answers are stale. The trigger is deferred so that the row is locked only while committing (a report
-- writing its risks early in a long transaction does not hold up other reports); its first row of a
-- transaction bumps, the others find the transaction-local mark and return.
INSERT INTO "risk_generation" ("id", "n") VALUES (1, 0) ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE OR REPLACE FUNCTION risk_generation_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('sextant.risk_generation_bumped', true) IS DISTINCT FROM txid_current()::text THEN
    UPDATE risk_generation SET n = n + 1 WHERE id = 1;
    PERFORM set_config('sextant.risk_generation_bumped', txid_current()::text, true);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER risk_generation_bump AFTER INSERT OR UPDATE OR DELETE ON risk_items
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION risk_generation_bump();
