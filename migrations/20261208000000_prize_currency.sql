-- Prizes with money (issue #39, item 4): each prize's amount carries its currency (an ISO 4217
-- code; empty when the arbiter named none), shown wherever the prize appears.
alter table prize add column currency text not null default ''
    check (currency = '' or currency ~ '^[A-Z]{3}$');
alter table playoff_prize add column currency text not null default ''
    check (currency = '' or currency ~ '^[A-Z]{3}$');
