-- A round's status is settled in the transaction of the result that settles it, not after
-- its commit: a server killed between the last result's commit and the settling used to
-- leave a round with every result in and the status `published` (until its next pairing).
--
-- `store_result` settles the round itself (`settle_round`, whose advisory lock is then held
-- to the commit) when no game of the round is left without a result that nobody else is
-- writing. Results written side by side that are the round's last ones each take the settle
-- lock in turn; the later one's statements, on snapshots taken after the earlier one's
-- commit, see its result, so the last to commit completes the round in its own transaction.
-- Every other result finds a free game (and row-locks it, so that game's writer waits and
-- then sees this result) and takes no settle lock: results side by side still run in
-- parallel.
--
-- `round_status` is the round's status when this result settled it, else null (the round is
-- published and another game is left); `stored_version` is null when nothing was written.

drop function store_result(uuid, integer, text, text, integer, integer, text, uuid, uuid, text,
    text, text, uuid, jsonb, jsonb, uuid, integer, uuid, integer);

create function store_result(
    p_game_id uuid, p_expected integer, p_reported text, p_result text,
    p_red_fouls integer, p_black_fouls integer, p_resolution text,
    p_tournament_id uuid, p_user_id uuid, p_actor text, p_action text, p_entity text,
    p_entity_id uuid, p_before jsonb, p_after jsonb,
    p_section_id uuid, p_foul_threshold integer, p_round_id uuid, p_section_rounds integer,
    out stored_version integer, out round_status text)
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
    if not found then
        round_status := settle_round(p_round_id);
    end if;
end
$$;
