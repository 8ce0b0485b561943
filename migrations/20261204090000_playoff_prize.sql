-- Prizes of the grand final between the section champions (seed 004: 總冠軍加發壹萬元, "the
-- overall champion gets another ten thousand"): places of the playoff, awarded on top of
-- whatever the sections give. Kept by tournament, so they can be set before the playoff exists.
create table playoff_prize
(
    prize_id      uuid primary key default gen_random_uuid(),
    tournament_id uuid    not null references tournament (tournament_id) on delete cascade,
    place_from    integer not null,
    place_to      integer not null,
    award         text    not null,
    amount        integer not null default 0,
    constraint playoff_prize_places_check check (place_from >= 1 and place_to >= place_from),
    constraint playoff_prize_amount_check check (amount >= 0)
);
create index playoff_prize_tournament_id_idx on playoff_prize (tournament_id);
