-- What the knockout service needs beyond the first schema: the drawn colour of a match's next
-- game (drawn once, so every reader sees the same `next_red`), the lot that ends an exhausted
-- tiebreak chain, and the rules of each bracket's matches.

alter table knockout_match
    add column next_red_entrant_id uuid references entrant (entrant_id),
    add column lot_winner_entrant_id uuid references entrant (entrant_id),
    -- For playoffs between sections: the section each side comes from.
    add column high_section_id uuid references section (section_id),
    add column low_section_id uuid references section (section_id);

alter table knockout_bracket
    -- Game 3 (and later odd games): a new lot, or alternate from game 2.
    add column later_odd_games text not null default 'lot',
    -- Fouls in one game that lose it, for playoffs that have no section.
    add column foul_threshold integer not null default 2,
    add constraint knockout_bracket_later_odd_games_check check (later_odd_games in ('lot', 'alternate')),
    add constraint knockout_bracket_foul_threshold_check check (foul_threshold >= 1);

create unique index knockout_bracket_playoff_key on knockout_bracket (tournament_id) where kind = 'playoff';

-- One set-up per (round) in duplicate mode, per board otherwise, per knockout game.
create unique index setup_round_duplicate_key on setup (round_id) where board_id is null and round_id is not null;
create unique index setup_board_key on setup (board_id) where board_id is not null;
create unique index setup_game_key on setup (game_id) where game_id is not null;

-- A knockout game's set-up is drawn when the game becomes due, before the game row exists.
alter table setup add column match_id uuid references knockout_match (match_id) on delete cascade;
create unique index setup_match_pending_key on setup (match_id) where game_id is null and match_id is not null;
