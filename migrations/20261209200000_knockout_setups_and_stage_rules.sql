-- Issue #40, part A: knockout games with set-ups like the Swiss rounds, and rules per stage.
--
-- A bracket's set-ups are drawn per game (one per match game, as before: `setup.match_id`)
-- or in duplicate per knockout round: every match of the round plays the same set-up for the
-- same game number (`setup.bracket_id`, `ko_round`, `ko_game`; the 3rd-place match belongs
-- to the final's round).
alter table knockout_bracket
    add column setup_mode text not null default 'per_game',
    add constraint knockout_bracket_setup_mode_check check (setup_mode in ('per_game', 'duplicate'));

alter table setup
    add column bracket_id uuid references knockout_bracket (bracket_id) on delete cascade,
    add column ko_round integer,
    add column ko_game integer,
    add constraint setup_ko_duplicate_check check (
        (bracket_id is null and ko_round is null and ko_game is null)
        or (bracket_id is not null and ko_round >= 1 and ko_game >= 1 and match_id is null
            and round_id is null and board_id is null and game_id is null));
create unique index setup_ko_duplicate_key on setup (bracket_id, ko_round, ko_game) where bracket_id is not null;

-- The rules of one knockout round (a stage) that the arbiter sets and the prints show:
-- whether the capturer may look at a captured hidden piece (seed 001 §3.2.4), the time
-- control, and the tiebreak games when a match is tied (null: the default chain).
create table knockout_stage
(
    bracket_id   uuid    not null references knockout_bracket (bracket_id) on delete cascade,
    round        integer not null,
    capture_rule text    not null default 'capturer_sees',
    time_control text    not null default '',
    tiebreaks    jsonb,
    version      integer not null default 1,
    updated_at   timestamptz not null default now(),
    constraint knockout_stage_pkey primary key (bracket_id, round),
    constraint knockout_stage_round_check check (round >= 1),
    constraint knockout_stage_capture_rule_check check (capture_rule in ('capturer_sees', 'face_down')),
    constraint knockout_stage_time_control_check check (char_length(time_control) <= 60),
    constraint knockout_stage_tiebreaks_check check (tiebreaks is null or jsonb_typeof(tiebreaks) = 'array')
);
