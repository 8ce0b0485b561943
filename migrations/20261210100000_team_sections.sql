-- Team sections (团体赛, issue #41). A team is an entrant of a section whose entry type is
-- `team`: its roster is the entrant's members in board order (positions 1 .. boards +
-- reserves), its captain a name or a roster position. A match is a board between two teams
-- (the red team has Red on board 1); its games are one `game` row per board of the match
-- (`number` = the board of the match), with the two players who sit there.

alter table section drop constraint section_entry_type_check;
alter table section add constraint section_entry_type_check
    check (entry_type in ('individual', 'doubles', 'team'));

-- Boards per match (2–10), reserves (0–10), the team tie-break chain after match points
-- (FIDE C.07 names; empty: the default chain) and the board points of a pairing-allocated
-- bye in tenths (null: every board won). A team section's match points are its scoring
-- (points_win / points_draw / points_loss / points_bye / points_forfeit_win).
alter table section
    add column team_boards          smallint,
    add column team_reserves        smallint not null default 0,
    add column team_tiebreaks       text[] not null default '{}',
    add column team_bye_game_points integer,
    add constraint section_team_boards_check check (team_boards is null or team_boards between 2 and 10),
    add constraint section_team_reserves_check check (team_reserves between 0 and 10),
    add constraint section_team_bye_game_points_check
        check (team_bye_game_points is null or team_bye_game_points between 0 and 100);

-- A team's roster: positions 1 .. 20 (boards and reserves), in board order.
alter table entrant_member drop constraint entrant_member_position_check;
alter table entrant_member add constraint entrant_member_position_check
    check (position between 1 and 20);

-- The captain: a roster position, or a name (a captain who does not play).
alter table entrant
    add column captain_name     text,
    add column captain_position smallint,
    add constraint entrant_captain_name_check
        check (captain_name is null or length(trim(captain_name)) between 1 and 200),
    add constraint entrant_captain_position_check
        check (captain_position is null or captain_position between 1 and 20);

-- The games of a team match: one per board of the match, each with its two players.
alter table game drop constraint game_board_id_key;
alter table game add constraint game_board_id_number_key unique (board_id, number);
alter table game
    add column red_player_id   uuid references player (player_id),
    add column black_player_id uuid references player (player_id);
create index game_red_player_id_idx on game (red_player_id) where red_player_id is not null;
create index game_black_player_id_idx on game (black_player_id) where black_player_id is not null;

-- Line-ups: per round, a team's player on each board (entered by the desk or the captain;
-- a round paired without one gets the default line-up, stored here too).
create table team_lineup
(
    entrant_id uuid not null references entrant (entrant_id) on delete cascade,
    round      integer not null,
    board      smallint not null,
    player_id  uuid not null references player (player_id) on delete cascade,
    entered_by text not null default 'desk',
    updated_at timestamptz not null default now(),
    constraint team_lineup_pkey primary key (entrant_id, round, board),
    constraint team_lineup_entrant_id_round_player_id_key unique (entrant_id, round, player_id),
    constraint team_lineup_round_check check (round >= 1),
    constraint team_lineup_board_check check (board between 1 and 10),
    constraint team_lineup_entered_by_check check (entered_by in ('desk', 'captain', 'default'))
);
create index team_lineup_player_id_idx on team_lineup (player_id);

-- A round is complete when every game of every board has a result (a team match has
-- several games on one board).
create or replace function settle_round(p_round_id uuid) returns text
    language plpgsql volatile as
$$
declare
    due text;
    settled text;
begin
    perform pg_advisory_xact_lock(hashtextextended(p_round_id::text, 7919));
    select case when exists (select 1 from board b join game g on g.board_id = b.board_id
                              where b.round_id = p_round_id and g.result is null)
                then 'published' else 'completed' end
      into due;
    update round set status = due
     where round_id = p_round_id and status <> due
       and not (status = 'paired' and due = 'published')
    returning status into settled;
    if settled is null then
        select status into settled from round where round_id = p_round_id;
    end if;
    return settled;
end
$$;
