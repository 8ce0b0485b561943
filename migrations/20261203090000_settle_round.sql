-- Settles a round's status after results were committed (service::rounds::settle_round), in
-- one round trip: results of one section are entered side by side, so none can tell inside its
-- own transaction whether it was the last; each calls this after its commit.
--
-- A VOLATILE function takes a fresh snapshot for every statement it runs (READ COMMITTED), so
-- the statements after the advisory lock see every result committed before the lock was
-- granted: the last result to commit completes the round. The lock is released when the
-- caller's transaction ends (the call's own, when it runs alone).
create or replace function settle_round(p_round_id uuid) returns text
    language plpgsql volatile as
$$
declare
    due text;
    settled text;
begin
    perform pg_advisory_xact_lock(hashtextextended(p_round_id::text, 7919));
    select case when exists (select 1 from game g join board b using (board_id)
                              where b.round_id = p_round_id and g.result is null)
                then 'published' else 'completed' end
      into due;
    -- Written (and so a WAL flush) only when the status changes.
    update round set status = due
     where round_id = p_round_id and status <> due
    returning status into settled;
    if settled is null then
        select status into settled from round where round_id = p_round_id;
    end if;
    return settled;
end
$$;
