-- History imported from an event file (issue #35 item 9): an audit row of the file is kept as
-- the file's history, never as this server's own trail. Such a row has no account here
-- (`user_id` is null), its `at` is the time of the import (the trail is never backdated), and
-- `imported` keeps what the file said: {"at": its original time, "actor": its actor's name,
-- "account": the account's name on the server that wrote it, "source_tournament_id": …}.
-- Null for every event of this server's own.
alter table audit_event add column imported jsonb;
alter table audit_event add constraint audit_event_imported_check
    check (imported is null or (jsonb_typeof(imported) = 'object' and user_id is null));
