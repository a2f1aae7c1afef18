-- Every commit that changes a key (created, revoked, deleted with its workspace or user), a
-- workspace's domains (part of a key's principal) or the data (each import updates change_state)
-- tells the nodes that LISTEN on minutes_changes (store/DataWatch), whichever process or version
-- wrote it: a node then checks keys and learns the data version without a statement per search.
-- One notice per statement, sent at commit; PostgreSQL folds equal notices of one transaction.
CREATE FUNCTION minutes_announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('minutes_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
CREATE TRIGGER api_key_announced AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_key
  FOR EACH STATEMENT EXECUTE FUNCTION minutes_announce_change();
CREATE TRIGGER workspace_domain_announced AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON workspace_domain
  FOR EACH STATEMENT EXECUTE FUNCTION minutes_announce_change();
CREATE TRIGGER change_state_announced AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON change_state
  FOR EACH STATEMENT EXECUTE FUNCTION minutes_announce_change();
