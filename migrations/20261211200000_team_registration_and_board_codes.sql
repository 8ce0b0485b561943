-- Team registration on the public form and side-bound report codes per board of a team match
-- (issue #41 with issue 36's keys).

-- A team's registration: the registration's player is the captain (the contact), its team
-- name and roster (board order) wait here until the desk confirms it; the captain's roster
-- position when the captain plays.
alter table registration
    add column team_name        text,
    add column captain_position smallint,
    add constraint registration_team_name_check
        check (team_name is null or length(trim(team_name)) between 1 and 200),
    add constraint registration_captain_position_check
        check (captain_position is null or captain_position between 1 and 20);

create table registration_member
(
    registration_id uuid not null references registration (registration_id) on delete cascade,
    position        smallint not null,
    player_id       uuid not null references player (player_id) on delete cascade,
    constraint registration_member_pkey primary key (registration_id, position),
    constraint registration_member_position_check check (position between 1 and 20)
);
create index registration_member_player_id_idx on registration_member (player_id);

-- Each game of a team match has its own two codes, one per side (the player with Red in that
-- game, the player with Black), printed per board on the match slip. (A board's codes stay
-- the individual game's; a team match's board-level codes open nothing.)
alter table game
    add column red_code   text not null default new_report_code(),
    add column black_code text not null default new_report_code(),
    add constraint game_red_code_key unique (red_code),
    add constraint game_black_code_key unique (black_code),
    add constraint game_red_code_check check (red_code ~ '^[0-9A-F]{16}$'),
    add constraint game_black_code_check check (black_code ~ '^[0-9A-F]{16}$');

-- A report is of one game of its board (a team match's board of the match; 1 otherwise).
alter table result_report add column game_no smallint not null default 1;
alter table result_report add constraint result_report_game_no_check check (game_no between 1 and 10);
drop index result_report_open_key;
create unique index result_report_open_key on result_report (board_id, game_no, side)
    where resolved_at is null;

-- A stored result closes the open reports of its own game only.
create or replace function store_result(
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
    stored_number integer;
begin
    perform pg_advisory_xact_lock_shared(section_lock_key(p_section_id));
    -- updated_at is set here, so the row's trigger needs not run (see below).
    update game set reported_result = p_reported, result = p_result, version = version + 1,
                    updated_at = now()
     where game_id = p_game_id and version = p_expected
       and exists (select 1 from section
                    where section_id = p_section_id and foul_threshold = p_foul_threshold
                      and rounds = p_section_rounds)
    returning board_id, version, number into stored_board, stored_version, stored_number;
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
     where board_id = stored_board and game_no = stored_number and resolved_at is null;
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
