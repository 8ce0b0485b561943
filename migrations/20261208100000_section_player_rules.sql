-- A section's rules for players that live beside its settings (issue 36, issue #39 item 9):
-- an entrant absent without notice (a forfeit, no bye asked for) from N rounds is withdrawn
-- from pairing when the next round is paired (none: never), and the payment instructions the
-- registration confirmation shows with the fee due.
alter table section add column absent_withdraw_after integer;
alter table section add constraint section_absent_withdraw_after_check
    check (absent_withdraw_after is null or absent_withdraw_after between 1 and 99);
alter table section add column payment_instructions text not null default '';
alter table section add constraint section_payment_instructions_check
    check (length(payment_instructions) <= 2000);

-- The absences the desk forgave when it undid such a withdrawal: the rule counts only the
-- absences after them.
alter table entrant add column absences_excused integer not null default 0;
alter table entrant add constraint entrant_absences_excused_check check (absences_excused >= 0);
