-- E-mail (issue #37): registrants opt in on the public form; they get a confirmation (their
-- key link, what they owe) and each published round's pairing, in their language, each with
-- a one-click unsubscribe link (`email_token`, a secret of the registration). The address is
-- the registrant's own (`player.email`), read at delivery, never copied into a message row.
alter table registration
    add column email_opt_in boolean not null default false,
    add column email_lang   text,
    add column email_token  text not null
        default replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');
alter table registration add constraint registration_email_lang_check
    check (email_lang is null or email_lang in ('zh-Hant', 'zh-Hans', 'en'));
create unique index registration_email_token_idx on registration (email_token);

-- A round published: one e-mail per opted-in registrant on its boards (the registration is
-- the recipient), in the publication's transaction.
create function outbox_round_published_email() returns trigger
    language plpgsql as
$$
begin
    insert into outbox (tournament_id, event, event_key, channel, recipient, payload)
    select p.tournament_id, 'round.published', 'round_published:' || new.round_id, 'email',
           r.registration_id, p.payload
      from outbox_player_rounds(new.round_id) p
      join registration r on r.entrant_id = p.entrant_id and r.email_opt_in
      join player pl on pl.player_id = r.player_id and pl.email is not null
    on conflict on constraint outbox_once do nothing;
    return new;
end;
$$;
create trigger round_published_email
    after update of status on round
    for each row
    when (old.status = 'paired' and new.status = 'published')
execute function outbox_round_published_email();
