-- The number of rounds from a table by entry count (SPEC §4, seed 004: "5–7 rounds by
-- entries, announced on the day"): [{"min": 1, "max": 16, "rounds": 5}, …, {"min": 33,
-- "max": null, "rounds": 7}]. Empty: the section's `rounds` as set. Fixed when round 1 is
-- paired (the section's `rounds` is then set from it, audited).
alter table section
    add column rounds_by_entries jsonb not null default '[]',
    add constraint section_rounds_by_entries_check check (jsonb_typeof(rounds_by_entries) = 'array');
