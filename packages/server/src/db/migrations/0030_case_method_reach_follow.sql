-- Custom SQL migration (issue 35: case impact and a case's methods without the per-report method rows).
-- One (app, test type, environment, version) of app_case_method_reach, replaced from the case rows of
-- that group's successful reports. Refreshes of one app wait for each other (a transaction-scoped
-- advisory lock), so two reports of a group finishing together do not both insert the group's rows.
CREATE OR REPLACE FUNCTION app_case_method_reach_refresh(app uuid, tt smallint, env text, ver text) RETURNS void
LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtext('app_case_method_reach'), hashtext(app::text));
  DELETE FROM app_case_method_reach
    WHERE app_id = app AND test_type = tt AND env_type = env AND new_version = ver;
  INSERT INTO app_case_method_reach (app_id, file_path, class_name, method, case_key, test_type, env_type,
      new_version, first_at, reports)
    SELECT app, c.file_path, c.class_name, c.method, c.case_key, tt, env, ver,
      min(coalesce(r.finished_at, r.created_at)), count(*)::int
    FROM reports r JOIN report_case_methods c ON c.report_id = r.id
    WHERE r.app_id = app AND r.test_type = tt AND r.env_type = env AND r.new_version = ver AND r.status = 'SUCCESS'
    GROUP BY c.file_path, c.class_name, c.method, c.case_key;
$$;
--> statement-breakpoint
-- The trigger of migration 0022 (a report reaching SUCCESS, leaving it, changing its finishing time,
-- version, test type, environment, kind or app, or deleted) also refreshes the report's group, and the
-- group it left.
CREATE OR REPLACE FUNCTION app_summaries_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF EXISTS (SELECT 1 FROM apps WHERE id = OLD.app_id) THEN
      PERFORM app_case_summaries_refresh(OLD.app_id);
      PERFORM requirement_app_summaries_refresh(OLD.app_id);
      PERFORM app_case_method_reach_refresh(OLD.app_id, OLD.test_type, OLD.env_type, OLD.new_version);
    END IF;
    RETURN NULL;
  END IF;
  PERFORM app_case_summaries_refresh(NEW.app_id);
  PERFORM requirement_app_summaries_refresh(NEW.app_id);
  PERFORM app_case_method_reach_refresh(NEW.app_id, NEW.test_type, NEW.env_type, NEW.new_version);
  IF OLD.app_id <> NEW.app_id THEN
    PERFORM app_case_summaries_refresh(OLD.app_id);
    PERFORM requirement_app_summaries_refresh(OLD.app_id);
  END IF;
  IF (OLD.app_id, OLD.test_type, OLD.env_type, OLD.new_version)
      IS DISTINCT FROM (NEW.app_id, NEW.test_type, NEW.env_type, NEW.new_version) THEN
    PERFORM app_case_method_reach_refresh(OLD.app_id, OLD.test_type, OLD.env_type, OLD.new_version);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The groups of the reports already stored.
INSERT INTO app_case_method_reach (app_id, file_path, class_name, method, case_key, test_type, env_type,
    new_version, first_at, reports)
  SELECT r.app_id, c.file_path, c.class_name, c.method, c.case_key, r.test_type, r.env_type, r.new_version,
    min(coalesce(r.finished_at, r.created_at)), count(*)::int
  FROM reports r JOIN report_case_methods c ON c.report_id = r.id
  WHERE r.status = 'SUCCESS'
  GROUP BY r.app_id, c.file_path, c.class_name, c.method, c.case_key, r.test_type, r.env_type, r.new_version;
