-- Stages that overlap (issue #40): a section may seed a knockout from its standings after round
-- `stage_after_round` while the others play on in the Swiss (AXF), or have its top two after
-- round n − 1 play a final as their round-n game on board 1 (WXF).

alter table section
    add column stage_format text not null default 'swiss',
    -- AXF: the round after whose standings the knockout is seeded.
    add column stage_after_round integer,
    -- AXF: how many qualify (a power of two).
    add column stage_qualifiers integer,
    -- WXF: how the final's colours are chosen.
    add column final_colours text not null default 'lot',
    add constraint section_stage_format_check
        check (stage_format in ('swiss', 'knockout_after_round', 'final_last_round')),
    add constraint section_final_colours_check
        check (final_colours in ('lot', 'higher_seed', 'swiss')),
    add constraint section_stage_after_round_check
        check (stage_format <> 'knockout_after_round'
               or (stage_after_round between 1 and rounds - 1
                   and stage_qualifiers between 2 and 64
                   and (stage_qualifiers & (stage_qualifiers - 1)) = 0)),
    add constraint section_stage_final_rounds_check
        check (stage_format <> 'final_last_round' or rounds >= 2);
