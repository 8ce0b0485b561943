-- Results of a section are entered side by side, while pairing, unpairing, settings and the
-- other changes of a section run one at a time. Results used to share-lock the section's row
-- for this; with many desks at once each share lock made a new MultiXact listing every
-- holder. An advisory lock keyed by the section does the same in shared memory: results take
-- it shared (`store_result` below), whatever changes the section takes it exclusive first
-- (`db::section::find_for_update`, and this trigger for any update of the row).

create function section_lock_key(p_section_id uuid) returns bigint
    language sql immutable parallel safe as
$$ select hashtextextended(p_section_id::text, 104729) $$;

create function section_lock_exclusive() returns trigger
    language plpgsql as
$$
begin
    perform pg_advisory_xact_lock(section_lock_key(old.section_id));
    return new;
end
$$;

create trigger section_lock_exclusive before update on section
    for each row execute function section_lock_exclusive();

-- Stores a game's result (db::round::store_result) under the section's shared lock, if the
-- game's version and the section's foul threshold and number of rounds are still those the
-- result was computed from (compare-and-set; the server may have them from its memory). A VOLATILE function takes a fresh snapshot for each statement, so
-- the statements after the lock see whatever changed the section before it was granted.
--
-- `stored_version` is the game's new version, null when something changed (and then nothing
-- is written). `settle` says whether the round's status must be settled after the commit
-- (`settle_round`): not when the round is published and another of its games without a
-- result is not being written by anyone else. That game is row-locked here until the
-- commit, so its writer, who waits for the lock, sees this result: the last result of a
-- round always asks for the settling, without a round trip for every other one.
create function store_result(
    p_game_id uuid, p_expected integer, p_reported text, p_result text,
    p_red_fouls integer, p_black_fouls integer, p_resolution text,
    p_tournament_id uuid, p_user_id uuid, p_actor text, p_action text, p_entity text,
    p_entity_id uuid, p_before jsonb, p_after jsonb,
    p_section_id uuid, p_foul_threshold integer, p_round_id uuid, p_section_rounds integer,
    out stored_version integer, out settle boolean)
    language plpgsql volatile as
$$
declare
    stored_board uuid;
begin
    perform pg_advisory_xact_lock_shared(section_lock_key(p_section_id));
    -- updated_at is set here, so the row's trigger needs not run (see below).
    update game set reported_result = p_reported, result = p_result, version = version + 1,
                    updated_at = now()
     where game_id = p_game_id and version = p_expected
       and exists (select 1 from section
                    where section_id = p_section_id and foul_threshold = p_foul_threshold
                      and rounds = p_section_rounds)
    returning board_id, version into stored_board, stored_version;
    if stored_board is null then
        settle := false;
        return;
    end if;
    -- A board's fouls are written only with its result, so a first result (nothing before)
    -- without fouls has none to replace.
    if p_before is not null or p_red_fouls > 0 or p_black_fouls > 0 then
        delete from foul where game_id = p_game_id;
        insert into foul (game_id, side)
        select p_game_id, 'red' from generate_series(1, p_red_fouls)
        union all
        select p_game_id, 'black' from generate_series(1, p_black_fouls);
    end if;
    update result_report set resolved_at = now(), resolution = p_resolution
     where board_id = stored_board and resolved_at is null;
    insert into audit_event (tournament_id, user_id, actor, action, entity, entity_id, before, after)
    values (p_tournament_id, p_user_id, p_actor, p_action, p_entity, p_entity_id, p_before, p_after);
    -- Board by board through the round's index, each game through its board's: a generic plan
    -- of a join may hash every game of the database instead (tables without statistics yet
    -- right after a pairing).
    perform 1 from round r
      cross join lateral (select 1 from board b
           cross join lateral (select g.game_id from game g
                                where g.board_id = b.board_id and g.result is null
                                  and g.game_id <> p_game_id
                                  for no key update skip locked) free
           where b.round_id = r.round_id
           limit 1) open
     where r.round_id = p_round_id and r.status = 'published';
    settle := not found;
end
$$;

-- The game's row trigger (manage_updated_at) calls a function for every changed row;
-- store_result sets updated_at itself, which this condition sees first.
drop trigger set_updated_at on game;
create trigger set_updated_at before update on game
    for each row when (old.updated_at is not distinct from new.updated_at and old is distinct from new)
    execute procedure set_updated_at();

-- The same for the settling (20261203090000_settle_round.sql): whether a game of the round is
-- still without a result, board by board, whatever the statistics say.
create or replace function settle_round(p_round_id uuid) returns text
    language plpgsql volatile as
$$
declare
    due text;
    settled text;
begin
    perform pg_advisory_xact_lock(hashtextextended(p_round_id::text, 7919));
    select case when exists (select 1 from board b
                              where b.round_id = p_round_id
                                and (select g.result is null from game g
                                      where g.board_id = b.board_id))
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
