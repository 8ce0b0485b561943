-- Game records (issue #18): the moves of a game as the desk entered them, in the notation they
-- were typed in, with the moves normalised (ICCS for Xiangqi and Jieqi, Jieqi reveals as a
-- trailing letter; Banqi in its own turn notation) so pages and exports need no re-parsing of
-- the typed text. One record per game: a Swiss board's game or a knockout game.
create table game_record
(
    game_id     uuid primary key references game (game_id) on delete cascade,
    notation    text not null,
    source      text not null,
    moves       text not null,
    plies       integer not null,
    -- Compare-and-set: a stale edit (If-Match) is refused with 409.
    version     integer not null default 1,
    created_at  timestamptz not null default now(),
    updated_at  timestamptz not null default now(),
    constraint game_record_notation_check check (notation in ('iccs', 'chinese', 'wxf', 'banqi')),
    constraint game_record_source_check check (octet_length(source) <= 16384),
    constraint game_record_plies_check check (plies between 0 and 600)
);
select manage_updated_at('game_record');
